// The code of docs/controller.md, docs/optimistic-updates.md and docs/polling.md, compiled and
// run against the in-process server. docSnippetsAreHere() checks that every C++ block of those
// pages appears in this file, so the pages cannot drift from code that compiles.
#include "controllerfixture.h"
#include "docsnippets.h"

#include <DataClient/DataClient.h>

#include <QtCore/QFile>
#include <QtCore/QFutureWatcher>
#include <QtNetwork/QNetworkAccessManager>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace ControllerFixture;
using namespace DataClient::Testing;

namespace {

// A receiver that shows one todo list: the pattern of docs/controller.md "Observing".
class TodoListView : public QObject
{
public:
    TodoListView(DataClient::Controller *c, DataClient::EndpointPtr e, DataClient::Params p)
        : controller(c), endpoint(std::move(e)), params(std::move(p))
    { }

    void start()
    {
        //! [observe]
        key = endpoint->key(params);
        connect(controller, &DataClient::Controller::changed, this,
                [this](const DataClient::ChangeSet &) { refresh(); });
        connect(controller, &DataClient::Controller::fetchStateChanged, this,
                [this](const QString &changedKey) {
                    if (changedKey == key)
                        refresh();
                });
        refresh();
        //! [observe]
    }

    void refresh()
    {
        //! [read]
        const DataClient::ResponseState state = controller->getResponse(endpoint, params);
        if (state.showsError())
            errorText = state.error->message(); // hard error (or soft one with nothing to show)
        if (state.hasData()) {
            const DataClient::RowList todos = DataClient::rowsOf(state.data);
            if (!todos.isSharedWith(shown)) { // identical when nothing changed
                shown = todos;
                ++repaints;
            }
        }
        if (state.status != DataClient::ExpiryStatus::Valid && !state.loading)
            controller->fetch(endpoint, params); // Stale or Invalid: (re)fetch in the background
        //! [read]
    }

    DataClient::Controller *controller;
    DataClient::EndpointPtr endpoint;
    DataClient::Params params;
    QString key;
    DataClient::RowList shown;
    QString errorText;
    int repaints = 0;
};

} // namespace

class tst_ControllerDocs : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TodoBackend> backend;
    Resource TodoResource;

private Q_SLOTS:
    void init()
    {
        backend = std::make_unique<TodoBackend>();
        QVERIFY(backend->start(false));
        TodoResource = backend->todos;
    }
    void cleanup() { backend.reset(); }

    void fetching()
    {
        QNetworkAccessManager network;
        //! [create]
        // Any number of Controllers, each with its own store and (optionally) network manager.
        auto *controller = new DataClient::Controller(&network, this);
        // Or the application-wide default, also what the QML singleton uses:
        DataClient::Controller *global = DataClient::Controller::instance();
        //! [create]
        Q_UNUSED(global);

        //! [fetch]
        QFuture<QVariant> todos = controller->fetch(TodoResource.getList, {{u"userId"_s, 1}});
        auto *watcher = new QFutureWatcher<QVariant>(this); // dies with its receiver: safe
        connect(watcher, &QFutureWatcherBase::finished, this, [watcher] {
            watcher->deleteLater();
            try {
                const QVariantList list = watcher->result().toList(); // rethrows a failure
                qDebug() << list.size() << "todos";
            } catch (const DataClient::NetworkError &error) {
                qWarning() << error.status() << error.message();
            }
        });
        watcher->setFuture(todos);
        //! [fetch]
        QVERIFY(await(todos).value);

        //! [mutate]
        controller
            ->fetch(TodoResource.partialUpdate, {{u"id"_s, 2}},
                    QJsonObject {{u"completed"_s, true}})
            .onFailed([](const DataClient::NetworkError &error) {
                qWarning() << "could not save:" << error.message();
                return QVariant();
            });
        //! [mutate]
        QTRY_VERIFY(controller->get(todoSchema(), {{u"id"_s, 2}})
                        .data.toMap()
                        .value(u"completed"_s)
                        .toBool());

        //! [get]
        // An entity loaded through a list is readable without a request:
        const DataClient::Denormalized todo2
            = controller->get(TodoResource.get->schema(), {{u"id"_s, 2}});
        const DataClient::ResponseState viaGet
            = controller->getResponse(TodoResource.get, {{u"id"_s, 2}});
        //! [get]
        QVERIFY(todo2.found);
        QVERIFY(viaGet.found);
        delete controller;
    }

    void observing()
    {
        DataClient::Controller controller;
        TodoListView view(&controller, TodoResource.getList, {{u"userId"_s, 1}});
        view.start();
        QTRY_COMPARE(view.shown.size(), 3);
        const int repaints = view.repaints;
        // A change elsewhere (todo 4 is not in the list) repaints nothing.
        QVERIFY(await(controller.fetch(TodoResource.partialUpdate, {{u"id"_s, 4}},
                                       QJsonObject {{u"title"_s, u"x"_s}}))
                    .value);
        QCOMPARE(view.repaints, repaints);
        QVERIFY(await(controller.fetch(TodoResource.partialUpdate, {{u"id"_s, 1}},
                                       QJsonObject {{u"title"_s, u"y"_s}}))
                    .value);
        QCOMPARE(view.repaints, repaints + 1);
    }

    void invalidating()
    {
        DataClient::Controller controller;
        QVERIFY(await(controller.fetch(TodoResource.getList, {{u"userId"_s, 1}})).value);
        //! [invalidate]
        controller.invalidate(TodoResource.getList, {{u"userId"_s, 1}}); // Invalid: refetch
        controller.expireAll([](const QString &key) { // Stale: shown, refetched
            return key.startsWith(u"GET "_s) && key.contains(u"/todos"_s);
        });
        controller.invalidateAll([](const QString &key) { return key.contains(u"userId=2"_s); });
        controller.resetEntireStore(); // logout: everything goes, answers in flight are dropped
        //! [invalidate]
        QCOMPARE(controller.getResponse(TodoResource.getList, {{u"userId"_s, 1}}).status,
                 ExpiryStatus::Invalid);
    }

    void writingEntities()
    {
        DataClient::Controller controller;
        QVERIFY(await(controller.fetch(TodoResource.getList, {})).value);
        const qint64 when = controller.now();
        //! [set]
        // A push source said todo 2 changed at `when` (ms since the epoch, controller.now()'s clock).
        const DataClient::Schema todo = TodoResource.get->schema();
        const DataClient::StoreWrite write = controller.set(
            todo, QJsonObject {{u"id"_s, 2}, {u"title"_s, u"from the socket"_s}}, when);
        if (!write.ok())
            qWarning() << write.error->message(); // nothing was written
        // Many at once, dated now; then one deleted: every list drops it.
        controller.set(todo,
                       QJsonArray {QJsonObject {{u"id"_s, 7}, {u"title"_s, u"seven"_s}},
                                   QJsonObject {{u"id"_s, 8}, {u"title"_s, u"eight"_s}}});
        controller.remove(todo, u"3"_s);
        //! [set]
        QVERIFY(write.ok());
        const QVariant list = controller.getResponse(TodoResource.getList, {}).data;
        QCOMPARE(ids(list), QList<int>({1, 2, 4, 5}));
        QCOMPARE(list.toList().at(1).toMap().value(u"title"_s), QVariant(u"from the socket"_s));
        QCOMPARE(controller.get(todo, {{u"id"_s, 8}}).data.toMap().value(u"title"_s),
                 QVariant(u"eight"_s));
    }

    void optimistic()
    {
        //! [optimistic-resource]
        const DataClient::Resource todos = DataClient::createResource({
            .path = u"/todos/:id"_s,
            .schema = todoSchema(),
            .urlPrefix = backend->server.url(),
            .optimistic = true, // every mutation shows its guess at once
        });
        //! [optimistic-resource]
        DataClient::Controller controller;
        QVERIFY(await(controller.fetch(todos.get, {{u"id"_s, 3}})).value);

        //! [optimistic-custom]
        // A custom guess: a counter that increments, computed from the committed record.
        const DataClient::EndpointPtr like = todos.partialUpdate->extend({
            .getOptimisticResponse
            = [](const DataClient::Params &params, const QJsonValue &,
                 const DataClient::Store *store) -> std::optional<QJsonValue> {
                const auto current = store
                    ? store->entity({u"Todo"_s, params.value(u"id"_s).toString()})
                    : std::nullopt;
                if (!current)
                    return std::nullopt; // nothing to base a guess on: no optimistic change
                QJsonObject guess = *current;
                guess.insert(u"likes"_s, current->value(u"likes"_s).toInt() + 1);
                return guess;
            },
        });
        //! [optimistic-custom]
        QFuture<QVariant> liked
            = controller.fetch(like, {{u"id"_s, 3}}, QJsonObject {{u"likes"_s, 1}});
        QCOMPARE(
            controller.get(todoSchema(), {{u"id"_s, 3}}).data.toMap().value(u"likes"_s).toInt(), 1);
        QVERIFY(await(liked).value);

        QVERIFY(await(controller.fetch(todos.getList, {})).value);
        //! [optimistic-placeholder]
        // No id in the body: the row shows at once under a placeholder key; the body is sent as is.
        QFuture<QVariant> created
            = controller.fetch(todos.getList.push, {}, QJsonObject {{u"title"_s, u"new"_s}});
        const QVariantList rows = controller.getResponse(todos.getList, {}).data.toList();
        const DataClient::Record row = rows.last().value<DataClient::Record>();
        // row.isPending() is true, row.pk() a placeholder key. A write naming it waits for the
        // create, then is sent once with the server's id.
        QFuture<QVariant> edit = controller.fetch(todos.partialUpdate, {{u"id"_s, row.pk()}},
                                                  QJsonObject {{u"completed"_s, true}});
        //! [optimistic-placeholder]
        QVERIFY(row.isPending());
        QVERIFY(DataClient::isPlaceholderKey(row.pk()));
        QVERIFY(await(created).value);
        QVERIFY(await(edit).value);
        QCOMPARE(backend->server.requests("PATCH", u"/todos/6"_s).size(), 1);
        QCOMPARE(backend->api.item(u"/todos"_s, 6).value(u"completed"_s), QJsonValue(true));
    }

    void polling()
    {
        DataClient::Controller controller;
        //! [polling]
        const DataClient::EndpointPtr clock = TodoResource.get->extend({.pollFrequency = 50});
        controller.fetchIfStale(clock, {{u"id"_s, 1}}); // show something now
        controller.subscribe(clock, {{u"id"_s, 1}}); // then refetch every 50 ms
        // ... when the view goes away:
        controller.unsubscribe(clock, {{u"id"_s, 1}}); // the last one stops the timer
        //! [polling]
        QCOMPARE(controller.pollInterval(clock, {{u"id"_s, 1}}), 0);
    }

    void docSnippetsAreHere()
    {
        QFile self(QStringLiteral(DATACLIENT_CONTROLLER_DOCS_TEST));
        QVERIFY2(self.open(QIODevice::ReadOnly), qPrintable(self.fileName()));
        const QString code = DocSnippets::normalized(QString::fromUtf8(self.readAll()));
        const QStringList pages {u"controller.md"_s, u"optimistic-updates.md"_s, u"polling.md"_s};
        int blocks = 0;
        for (const QString &page : pages) {
            QFile doc(QStringLiteral(DATACLIENT_DOCS_DIR) + u'/' + page);
            QVERIFY2(doc.open(QIODevice::ReadOnly), qPrintable(doc.fileName()));
            const QStringList snippets = DocSnippets::cppBlocks(QString::fromUtf8(doc.readAll()));
            for (const QString &snippet : snippets) {
                QVERIFY2(code.contains(snippet),
                         qPrintable(u"%1: this block is not in tst_controller_docs.cpp:\n%2"_s.arg(
                             page, snippet)));
                ++blocks;
            }
        }
        QVERIFY(blocks >= 8);
    }
};

QTEST_GUILESS_MAIN(tst_ControllerDocs)
#include "tst_controller_docs.moc"
