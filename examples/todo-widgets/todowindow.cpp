#include "todowindow.h"

#include "sortedtodos.h"

#include <DataClient/connectivity.h>
#include <DataClient/createresource.h>
#include <DataClient/entityschema.h>
#include <DataClient/networkerror.h>
#include <DataClient/schema.h>

#include <QtCore/QDateTime>
#include <QtCore/QFutureWatcher>
#include <QtCore/QJsonObject>
#include <QtCore/QSortFilterProxyModel>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QDataWidgetMapper>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QListView>
#include <QtWidgets/QMenu>
#include <QtWidgets/QMenuBar>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QStatusBar>
#include <QtWidgets/QTableView>
#include <QtWidgets/QToolBar>
#include <QtWidgets/QToolButton>
#include <QtWidgets/QVBoxLayout>

using namespace DataClient;
using namespace Qt::StringLiterals;

namespace {

QString queryState(const QString &name, const CollectionModel *model)
{
    static const char *const statuses[] = {"idle", "loading", "ready", "error"};
    QString text = name + u": "_s + QString::fromLatin1(statuses[model->status()]) + u", "_s
        + QString::number(model->count()) + u" rows"_s;
    if (model->isPaused())
        text += u", paused"_s; // offline: the read waits for the connection
    else if (model->isLoadingMore())
        text += u", loading more"_s;
    else if (model->isLoading())
        text += u", request in flight"_s;
    return text;
}

// Why a request failed, in a few words a user can act on (the QML demo's ErrorBanner says the
// same); the request and the answer go in the message's tool tip.
QString reason(const NetworkError &error)
{
    if (error.status() == 404)
        return QObject::tr("it is no longer on the server (404)");
    if (error.status() >= 400)
        return QObject::tr("the server refused it (%1)").arg(error.status());
    if (error.kind() == NetworkError::Kind::Timeout)
        return QObject::tr("the server did not answer in time");
    return QObject::tr("the server could not be reached");
}

} // namespace

TodoWindow::TodoWindow(const QString &apiUrl, int userId, bool online, QWidget *parent)
    : QMainWindow(parent), m_userId(userId)
{
    // The app's own connectivity source (not the machine's network): --offline and the toolbar's
    // Online switch work the same everywhere. Set before any model reads.
    auto *connectivity = new Connectivity(&m_controller);
    connectivity->setOnline(online);
    m_controller.setConnectivity(connectivity);

    // The same data as the QML demo (examples/todo-qml/Main.qml): users, and todos with their
    // author and a creation date; every todo write shows at once (optimistic).
    const EntitySchema user(u"User"_s);
    const EntitySchema todo = EntitySchema(u"Todo"_s)
                                  .withField(u"createdAt"_s, Deserialize::dateTime())
                                  .withNested(u"author"_s, Schema::entity(user))
                                  .withDefaults({{u"title"_s, QString()}, {u"completed"_s, false}});
    const RetryPolicy quickRetry {2, 250, 1000}; // a demo shows failures within a second
    m_userResource = createResource({.path = u"/users/:id"_s,
                                     .schema = Schema::entity(user),
                                     .urlPrefix = apiUrl,
                                     .retry = quickRetry});
    m_todoResource = createResource({.path = u"/todos/:id"_s,
                                     .schema = Schema::entity(todo),
                                     .urlPrefix = apiUrl,
                                     .searchParams = {u"userId"_s},
                                     .paginationField = u"page"_s,
                                     .optimistic = true,
                                     .retry = quickRetry});

    m_users = new CollectionModel(&m_controller, m_userResource.getList, {}, this);
    m_users->setColumns({u"name"_s});
    m_todos = new CollectionModel(&m_controller, m_todoResource.getList, {{u"userId"_s, m_userId}},
                                  this);
    m_todos->setColumns({u"title"_s, u"completed"_s, u"createdAt"_s});
    m_undo = new TodoUndo(&m_controller, this); // every cell edit can be undone (Edit menu)
    m_todos->setEditable(m_todoResource, m_undo->recorder(), {u"title"_s, u"completed"_s});
    m_todos->setPageEndpoint(m_todoResource.getList.getPage); // the view calls fetchMore()
    buildUi();

    for (CollectionModel *model : {m_users, m_todos}) {
        connect(model, &CollectionModel::statusChanged, this, &TodoWindow::updateStatus);
        connect(model, &CollectionModel::countChanged, this, &TodoWindow::updateStatus);
        connect(model, &CollectionModel::loadingChanged, this, &TodoWindow::updateStatus);
        connect(model, &CollectionModel::loadingMoreChanged, this, &TodoWindow::updateStatus);
        connect(model, &CollectionModel::pausedChanged, this, &TodoWindow::updateStatus);
        connect(model, &CollectionModel::placeholderChanged, this, &TodoWindow::updateStatus);
        connect(model, &CollectionModel::errorChanged, this, [this, model] {
            if (const auto error = model->networkError())
                reportError(model == m_users ? tr("load users") : tr("load todos"), *error);
        });
    }
    // While another user's todos stand in for this user's (the model's placeholder), they are
    // not this user's: the model makes them disabled (greyed, not editable) and the form and
    // Delete follow. The view repaints them when that ends or starts.
    connect(m_todos, &CollectionModel::placeholderChanged, this, [this] {
        const bool own = !m_todos->isPlaceholder();
        m_formTitle->setEnabled(own);
        m_formCompleted->setEnabled(own);
        m_todoTable->viewport()->update();
    });
    // A refused edit is already rolled back in the table and the form; say what failed, naming
    // the row (its title as it is again).
    connect(m_todos, &CollectionModel::writeFailed, this,
            [this](const QModelIndex &index, const NetworkError &error) {
                const QString title = m_todos->index(index.row(), Title).data().toString();
                reportError(tr("save '%1'").arg(title), error);
            });
    updateStatus();
}

TodoWindow::~TodoWindow()
{
    // The models are children, deleted after the members, but read the Controller member: the
    // views, the form and the models go first, without telling this window any more.
    for (CollectionModel *model : {m_users, m_todos})
        disconnect(model, nullptr, this, nullptr);
    delete centralWidget();
    delete m_mapper;
    delete m_todos;
    delete m_users;
}

void TodoWindow::buildUi()
{
    setWindowTitle(tr("DataClient todos (Qt Widgets)"));
    resize(1000, 640);

    m_userList = new QListView;
    m_userList->setModel(m_users);
    connect(m_userList->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &TodoWindow::showUser);

    // Sorting by a click on a column header goes through a proxy: the CollectionModel keeps the
    // server's order and never resets for edits, pages or changes from elsewhere, so the proxy
    // only moves rows and keeps the selection on them. The sort compares the cells' values
    // (EditRole: a title, a bool, a QDateTime), not the texts shown. No column is sorted at
    // first (the server's order); a third click on a header returns to it.
    m_sortedTodos = new SortedTodos(this);
    m_sortedTodos->setSourceModel(m_todos);
    m_sortedTodos->setSortRole(Qt::EditRole);
    m_sortedTodos->setSortCaseSensitivity(Qt::CaseInsensitive);
    m_todoTable = new QTableView;
    m_todoTable->setModel(m_sortedTodos);
    m_todoTable->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_todoTable->horizontalHeader()->setSortIndicatorClearable(true);
    m_todoTable->setSortingEnabled(true);
    m_todoTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_todoTable->setSelectionMode(QAbstractItemView::SingleSelection);
    m_todoTable->horizontalHeader()->setSectionResizeMode(Title, QHeaderView::Stretch);
    m_todoTable->horizontalHeader()->setSectionResizeMode(CreatedAt, QHeaderView::ResizeToContents);
    m_todoTable->verticalHeader()->hide();

    // The form edits the selected todo through the same model (and so the same PATCH).
    m_formTitle = new QLineEdit;
    m_formCompleted = new QCheckBox(tr("Completed"));
    m_formCreated = new QLabel;
    m_mapper = new QDataWidgetMapper(this);
    m_mapper->setModel(m_todos);
    m_mapper->addMapping(m_formTitle, Title);
    m_mapper->addMapping(m_formCompleted, Completed);
    // The date as the table shows it (DisplayRole), not the QDateTime the mapper would give.
    connect(m_mapper, &QDataWidgetMapper::currentIndexChanged, m_formCreated, [this](int row) {
        m_formCreated->setText(m_todos->index(row, CreatedAt).data().toString());
    });
    connect(m_todoTable->selectionModel(), &QItemSelectionModel::currentRowChanged, m_mapper,
            [this](const QModelIndex &current) {
                m_mapper->setCurrentModelIndex(m_sortedTodos->mapToSource(current));
            });
    // A check box commits at once; a line edit when Return is pressed or it loses focus.
    connect(m_formCompleted, &QCheckBox::clicked, m_mapper, &QDataWidgetMapper::submit);
    auto *form = new QFormLayout;
    form->addRow(tr("Title"), m_formTitle);
    form->addRow(QString(), m_formCompleted);
    form->addRow(tr("Created"), m_formCreated);

    auto *right = new QWidget;
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->addWidget(m_todoTable, 1);
    rightLayout->addLayout(form);
    auto *splitter = new QSplitter;
    splitter->addWidget(m_userList);
    splitter->addWidget(right);
    splitter->setStretchFactor(1, 3);
    setCentralWidget(splitter);

    QToolBar *tools = addToolBar(tr("Todos"));
    m_newTitle = new QLineEdit;
    m_newTitle->setPlaceholderText(tr("New todo"));
    m_newTitle->setMaximumWidth(300);
    tools->addWidget(m_newTitle);
    QAction *add = tools->addAction(tr("New todo"));
    auto addFromField = [this] {
        addTodo(m_newTitle->text().trimmed().isEmpty() ? tr("New todo") : m_newTitle->text());
        m_newTitle->clear();
    };
    connect(add, &QAction::triggered, this, addFromField);
    connect(m_newTitle, &QLineEdit::returnPressed, this, addFromField);
    QAction *remove = tools->addAction(tr("Delete"));
    remove->setShortcut(QKeySequence::Delete);
    connect(remove, &QAction::triggered, this, &TodoWindow::deleteSelectedTodo);
    tools->addSeparator();
    m_onlineAction = tools->addAction(tr("Online"));
    m_onlineAction->setCheckable(true);
    m_onlineAction->setChecked(m_controller.isOnline());
    connect(m_onlineAction, &QAction::toggled, this, [this](bool online) {
        m_controller.connectivity()->setOnline(online);
        updateStatus();
    });

    m_undo->addEditMenu(menuBar());
    connect(m_undo, &TodoUndo::refused, this, [this](const QString &why) { showError(why, {}); });

    // Debug > Store inspector (Ctrl+Shift+D): the inspector in a dock, made when first opened;
    // hidden, it is detached and records nothing (docs/inspector.md).
    m_inspectorAction = menuBar()->addMenu(tr("&Debug"))->addAction(tr("Store &inspector"));
    m_inspectorAction->setCheckable(true);
    m_inspectorAction->setShortcut(QKeySequence(u"Ctrl+Shift+D"_s));
    connect(m_inspectorAction, &QAction::toggled, this, [this](bool open) {
        if (open && !m_inspectorDock) {
            m_inspectorDock = new DataClient::InspectorDock(&m_controller, this);
            addDockWidget(Qt::BottomDockWidgetArea, m_inspectorDock);
            connect(m_inspectorDock, &QDockWidget::visibilityChanged, m_inspectorAction,
                    [this](bool visible) {
                        if (!visible && !m_inspectorDock->isVisible())
                            m_inspectorAction->setChecked(false);
                    });
        }
        if (m_inspectorDock)
            m_inspectorDock->setVisible(open);
    });

    // The last failure stays (not a timed message) until dismissed or replaced by the next one.
    m_error = new QLabel;
    m_error->setObjectName(u"errorLabel"_s);
    m_error->setStyleSheet(u"color: #8a1c14"_s);
    m_error->hide();
    m_dismissError = new QToolButton;
    m_dismissError->setObjectName(u"dismissError"_s);
    m_dismissError->setText(u"✕"_s);
    m_dismissError->setToolTip(tr("Dismiss"));
    m_dismissError->hide();
    connect(m_dismissError, &QToolButton::clicked, this, [this] {
        m_lastError.clear();
        m_error->hide();
        m_dismissError->hide();
        updateStatus();
    });
    statusBar()->addWidget(m_error, 1);
    statusBar()->addWidget(m_dismissError);
    m_status = new QLabel;
    m_status->setObjectName(u"statusLabel"_s);
    statusBar()->addPermanentWidget(m_status);
}

void TodoWindow::showUser(const QModelIndex &index)
{
    const int id = m_users->get(index.row()).toMap().value(u"id"_s).toInt();
    if (id == 0 || id == m_userId)
        return;
    m_userId = id;
    // The old rows stay, greyed and read-only, while the new ones load (not while offline).
    m_todos->setParams({{u"userId"_s, id}});
}

void TodoWindow::addTodo(const QString &title)
{
    const QJsonObject todo {
        // No id: the row shows at once under a placeholder key and gets the server's id.
        {u"userId"_s, m_userId},
        {u"title"_s, title},
        {u"completed"_s, false},
        {u"createdAt"_s, QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)},
    };
    // On top, as the server lists them (newest first); then selected and scrolled to, wherever
    // the table's sort puts it.
    const QString what = tr("add '%1'").arg(title);
    runWrite(what,
             m_undo->recorder()->create(m_todoResource.getList.unshift, m_todoResource.remove,
                                        {{u"userId"_s, m_userId}}, todo, what));
    const QModelIndex added = m_sortedTodos->mapFromSource(m_todos->index(0, Title));
    m_todoTable->setCurrentIndex(added);
    m_todoTable->scrollTo(added);
}

void TodoWindow::deleteSelectedTodo()
{
    const QModelIndex current = m_sortedTodos->mapToSource(m_todoTable->currentIndex());
    if (!current.isValid() || m_todos->isPlaceholder()) // not this user's todo
        return;
    const QVariantMap todo = m_todos->get(current.row()).toMap();
    const QVariant id = todo.value(u"id"_s);
    // Refused, the row comes back (the Controller rolls it back): the selection goes back to it.
    // Undone (Edit > Undo), it is created again on top of the user's list.
    const QString what = tr("delete '%1'").arg(todo.value(u"title"_s).toString());
    runWrite(what,
             m_undo->recorder()->remove(m_todoResource.remove, m_todoResource.getList.unshift,
                                        {{u"id"_s, id}, {u"userId"_s, m_userId}}, what),
             [this, id] { selectTodo(id); });
}

void TodoWindow::selectTodo(const QVariant &id)
{
    for (int row = 0; row < m_todos->rowCount(); ++row) {
        if (m_todos->get(row).toMap().value(u"id"_s) == id) {
            m_todoTable->setCurrentIndex(m_sortedTodos->mapFromSource(m_todos->index(row, Title)));
            return;
        }
    }
}

void TodoWindow::runWrite(const QString &what, const QFuture<QVariant> &sent,
                          const std::function<void()> &afterFailure)
{
    // The optimistic change is rolled back by the Controller on failure; only report it. A
    // watcher owned by the window: no callback after the window is gone.
    auto *watcher = new QFutureWatcher<QVariant>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, what, afterFailure] {
        watcher->deleteLater();
        try {
            watcher->future().waitForFinished();
        } catch (const NetworkError &error) {
            reportError(what, error);
            if (afterFailure)
                afterFailure();
        }
    });
    watcher->setFuture(sent);
}

void TodoWindow::reportError(const QString &what, const NetworkError &error)
{
    // The request and the answer in the tool tip, for whoever wants them.
    showError(tr("Could not %1: %2.").arg(what, reason(error)), error.message());
}

void TodoWindow::showError(const QString &text, const QString &detail)
{
    m_lastError = text;
    m_error->setText(m_lastError);
    m_error->setToolTip(detail);
    m_error->show();
    m_dismissError->show();
    updateStatus();
}

QString TodoWindow::queriesState() const
{
    return (m_controller.isOnline() ? QString() : u"offline; "_s) + queryState(u"users"_s, m_users)
        + u"; "_s + queryState(u"todos"_s, m_todos);
}

bool TodoWindow::isDataShown() const
{
    return m_dataShown;
}

QString TodoWindow::statusText() const
{
    QString text = queriesState();
    if (!m_lastError.isEmpty())
        text += u"; "_s + m_lastError;
    return text;
}

void TodoWindow::updateStatus()
{
    // Start with the shown user and the first todo selected (the form shows it).
    if (!m_userList->currentIndex().isValid()) {
        for (int row = 0; row < m_users->rowCount(); ++row) {
            if (m_users->get(row).toMap().value(u"id"_s).toInt() == m_userId)
                m_userList->setCurrentIndex(m_users->index(row));
        }
    }
    if (!m_todoTable->currentIndex().isValid() && m_todos->rowCount() > 0)
        m_todoTable->setCurrentIndex(m_sortedTodos->index(0, Title));

    m_status->setText(queriesState());
    const bool shown = m_users->count() > 0 && m_todos->count() > 0 && !m_todos->isPlaceholder();
    if (shown != m_dataShown) {
        m_dataShown = shown;
        Q_EMIT dataShownChanged();
    }
}
