#include <DataClient/inspectordock.h>

#include <DataClient/controller.h>
#include <DataClient/inspectorentitiesmodel.h>
#include <DataClient/inspectorresultsmodel.h>
#include <DataClient/storeinspector.h>

#include <QtCore/QSortFilterProxyModel>
#include <QtGui/QClipboard>
#include <QtGui/QGuiApplication>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QTabWidget>
#include <QtWidgets/QTreeView>
#include <QtWidgets/QVBoxLayout>

namespace DataClient {

InspectorDock::InspectorDock(Controller *controller, QWidget *parent)
    : QDockWidget(tr("Store inspector"), parent),
      m_controller(controller),
      m_inspector(new StoreInspector(this))
{
    setObjectName(QStringLiteral("StoreInspectorDock"));
    auto *content = new QWidget(this);
    auto *layout = new QVBoxLayout(content);
    m_search = new QLineEdit(content);
    m_search->setPlaceholderText(tr("Search keys, pks, URLs"));
    m_search->setClearButtonEnabled(true);
    layout->addWidget(m_search);
    m_status = new QLabel(content);
    layout->addWidget(m_status);

    m_tabs = new QTabWidget(content);
    addTab(m_inspector->entities(), tr("Entities"))->setColumnWidth(1, 480); // the fields
    addTab(m_inspector->results(), tr("Results"));
    addTab(m_inspector->requests(), tr("Requests"));
    addTab(nullptr, tr("Outbox")); // the Controller's own model, set on attach
    addTab(m_inspector->status(), tr("Status"));
    addTab(m_inspector->timeline(), tr("Timeline"))->setColumnWidth(3, 360); // the entities
    layout->addWidget(m_tabs, 1);

    auto *actions = new QHBoxLayout;
    const auto button = [&](const QString &text, auto slot) {
        auto *b = new QPushButton(text, content);
        b->setObjectName(text);
        connect(b, &QPushButton::clicked, this, slot);
        actions->addWidget(b);
    };
    button(tr("Invalidate"), [this] { act(QStringLiteral("invalidate")); });
    button(tr("Expire"), [this] { act(QStringLiteral("expire")); });
    button(tr("Refetch"), [this] { act(QStringLiteral("refetch")); });
    button(tr("Drop entity"), [this] { act(QStringLiteral("drop")); });
    button(tr("Copy JSON"), [this] { copySelection(); });
    button(tr("Reset store"), [this] { m_inspector->resetStore(); });
    m_online = new QCheckBox(tr("Online"), content);
    actions->addWidget(m_online);
    actions->addStretch();
    layout->addLayout(actions);
    setWidget(content);

    connect(m_search, &QLineEdit::textChanged, this, [this](const QString &text) {
        for (QSortFilterProxyModel *filter : std::as_const(m_filters))
            filter->setFilterFixedString(text);
    });
    connect(m_inspector, &StoreInspector::statusTextChanged, this,
            [this] { m_status->setText(m_inspector->statusText()); });
    connect(m_inspector, &StoreInspector::onlineChanged, this,
            [this] { m_online->setChecked(m_inspector->isOnline()); });
    connect(m_online, &QCheckBox::toggled, this, [this](bool online) {
        if (online != m_inspector->isOnline() && m_inspector->controller())
            m_inspector->setOnline(online);
    });
    connect(m_inspector, &StoreInspector::controllerChanged, this,
            [this] { m_filters.at(OutboxTab)->setSourceModel(m_inspector->outbox()); });
    m_status->setText(m_inspector->statusText());
}

InspectorDock::~InspectorDock() = default;

QTreeView *InspectorDock::view(Tab tab) const
{
    return m_views.value(tab);
}

QTreeView *InspectorDock::addTab(QAbstractItemModel *model, const QString &title)
{
    auto *filter = new QSortFilterProxyModel(this);
    // Any column matches, and an entity type stays while one of its entities matches.
    filter->setFilterKeyColumn(-1);
    filter->setRecursiveFilteringEnabled(true);
    filter->setFilterCaseSensitivity(Qt::CaseInsensitive);
    filter->setSourceModel(model);
    auto *view = new QTreeView(m_tabs);
    view->setObjectName(title);
    view->setModel(filter);
    view->setUniformRowHeights(true); // 10k rows: no per-row size query
    view->setAlternatingRowColors(true);
    view->header()->setStretchLastSection(true);
    view->header()->setDefaultSectionSize(150);
    m_tabs->addTab(view, title);
    m_views.append(view);
    m_filters.append(filter);
    return view;
}

void InspectorDock::showEvent(QShowEvent *event)
{
    m_inspector->setController(m_controller);
    QDockWidget::showEvent(event);
}

void InspectorDock::hideEvent(QHideEvent *event)
{
    m_inspector->setController(nullptr);
    QDockWidget::hideEvent(event);
}

QVariant InspectorDock::selected(int role) const
{
    const auto tab = Tab(m_tabs->currentIndex());
    const QModelIndex index = m_views.at(tab)->currentIndex();
    if (!index.isValid())
        return {};
    return m_filters.at(tab)->mapToSource(index.siblingAtColumn(0)).data(role);
}

void InspectorDock::act(const QString &what)
{
    if (what == QLatin1StringView("drop")) {
        if (m_tabs->currentIndex() == EntitiesTab) {
            m_inspector->dropEntity(selected(InspectorEntitiesModel::TypeRole).toString(),
                                    selected(InspectorEntitiesModel::PkRole).toString());
        }
        return;
    }
    if (m_tabs->currentIndex() != ResultsTab)
        return;
    const QString key = selected(InspectorResultsModel::KeyRole).toString();
    if (what == QLatin1StringView("invalidate"))
        m_inspector->invalidate(key);
    else if (what == QLatin1StringView("expire"))
        m_inspector->expire(key);
    else
        m_inspector->refetch(key);
}

void InspectorDock::copySelection()
{
    QString json;
    if (m_tabs->currentIndex() == EntitiesTab) {
        json = m_inspector->entityJson(selected(InspectorEntitiesModel::TypeRole).toString(),
                                       selected(InspectorEntitiesModel::PkRole).toString());
    } else if (m_tabs->currentIndex() == ResultsTab) {
        json = m_inspector->answerJson(selected(InspectorResultsModel::KeyRole).toString());
    }
    if (json.isEmpty())
        return;
    m_lastCopied = json;
    if (QClipboard *clipboard = QGuiApplication::clipboard())
        clipboard->setText(json);
}

} // namespace DataClient
