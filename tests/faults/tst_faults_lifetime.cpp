// The fault suite, lifetimes: what shows a request destroyed while it is in
// flight (a C++ model, a QML query, a whole QML engine), and resetEntireStore() with requests of
// every kind in flight. The answers arrive afterwards; nothing may crash, be sent again or be
// stored against the server's truth. (The Controller destroyed mid-request, a caller canceling
// and 1,000 joined reads: tst_controller_faults, see docs/reliability.md.)
#include "faultsuite.h"

#include <DataClient/collectionmodel.h>
#include <DataClient/qmlcontroller.h>

#include <QtQml/QQmlComponent>
#include <QtQml/QQmlEngine>
#include <QTest>

#include <memory>

using namespace FaultSuite;

namespace {

enum class Viewer { CppModel, QmlQuery, QmlEngine };

// A QML screen with its own entity name (QTodo: a QML Entity is its own schema), reading the
// todos of user 1 from \a url.
QByteArray screen(const QString &url)
{
    QByteArray qml = "import QtQml\n"
                     "import DataClient\n"
                     "QtObject {\n"
                     "    property Entity todo: Entity { key: \"QTodo\"; primaryKey: \"id\"\n"
                     "        fields: ({ id: 0, userId: 0, title: \"\", completed: false }) }\n"
                     "    property Resource todos: Resource { urlPrefix: \"URL\"; path: "
                     "\"/todos/:id\"; schema: todo }\n"
                     "    property Suspense query: Suspense { endpoint: todos.getList; params: "
                     "({ userId: 1 }) }\n"
                     "}\n";
    qml.replace("URL", url.toUtf8());
    return qml;
}

} // namespace

Q_DECLARE_METATYPE(Viewer)

class tst_FaultsLifetime : public FaultTest
{
    Q_OBJECT

private Q_SLOTS:
    // The viewer that started a read goes away before the answer; the answer then arrives.
    void viewerDestroyedMidRequest_data()
    {
        QTest::addColumn<Viewer>("viewer");
        QTest::newRow("C++ CollectionModel") << Viewer::CppModel;
        QTest::newRow("QML Suspense") << Viewer::QmlQuery;
        QTest::newRow("QML engine with its objects") << Viewer::QmlEngine;
    }
    void viewerDestroyedMidRequest()
    {
        QFETCH(Viewer, viewer);
        DeferredReplies replies;
        replies.install(backend->server, "GET", u"/todos"_s);
        controller->invalidate(todos.getList, user(1)); // the model must fetch
        const qsizetype before = backend->server.requestCount();

        std::unique_ptr<CollectionModel> model;
        std::unique_ptr<QQmlEngine> engine;
        std::unique_ptr<QObject> root;
        if (viewer == Viewer::CppModel) {
            model = std::make_unique<CollectionModel>();
            model->setEnabled(false); // configured whole before it reads
            model->setController(controller.get());
            model->setEndpoint(todos.getList);
            model->setParams(user(1));
            model->setEnabled(true);
        } else {
            engine = std::make_unique<QQmlEngine>();
            setQmlController(engine.get(), controller.get());
            QQmlComponent component(engine.get());
            component.setData(screen(backend->server.url()), QUrl(u"qrc:/faults.qml"_s));
            root.reset(component.create());
            QVERIFY2(root, qPrintable(component.errorString()));
        }
        QVERIFY(replies.waitFor(1));

        if (viewer == Viewer::QmlEngine)
            root.release()->setParent(engine.get()); // the engine takes its objects with it
        model.reset();
        root.reset();
        engine.reset();

        replies.pending.first().responder.send(
            ServerResponse::json(ServerView::serverList(backend->api, 1)));
        QTRY_VERIFY(!controller->isLoading(todos.getList, user(1)));
        QCoreApplication::processEvents();
        QCOMPARE(backend->server.requestCount(), before + 1); // no second request
        const QString differs = differences();
        QVERIFY2(differs.isEmpty(), qPrintable(differs));
        // Whatever the QML read stored is the server's todo.
        for (int id = 1; id <= 3; ++id) {
            const std::optional<QJsonObject> stored
                = controller->store().entity({u"QTodo"_s, QString::number(id)});
            if (stored)
                QCOMPARE(*stored, backend->api.item(u"/todos"_s, id));
        }
    }

    // resetEntireStore() while a request of each kind waits for its answer: the store is empty
    // at once (no optimistic layer), the answer is dropped and the caller's future ends
    // canceled; a fetch afterwards shows what the server holds (the mutation included, when the
    // server applied it).
    void resetWithRequestsInFlight_data()
    {
        QTest::addColumn<Request>("request");
        QTest::newRow("list") << Request::ReadList;
        QTest::newRow("get") << Request::ReadOne;
        QTest::newRow("optimistic patch") << Request::Patch;
        QTest::newRow("optimistic delete") << Request::Delete;
        QTest::newRow("push") << Request::Push;
    }
    void resetWithRequestsInFlight()
    {
        QFETCH(Request, request);
        DeferredReplies replies;
        const auto [method, path] = target(request);
        replies.install(backend->server, method, path);
        QFuture<QVariant> future = send(request);
        QVERIFY(replies.waitFor(1));

        controller->resetEntireStore();
        QCOMPARE(controller->store().entityCount(), 0);
        QVERIFY(controller->store().optimisticLayers().isEmpty());
        QVERIFY(!controller->getResponse(todos.getList, user(1)).found);

        // The server applies the mutation and answers as the FakeRestApi would.
        ServerResponse answer = ServerResponse::json(backend->api.collection(u"/todos"_s));
        if (request == Request::ReadOne) {
            answer = ServerResponse::json(backend->api.item(u"/todos"_s, 2));
        } else if (request == Request::Patch) {
            QVERIFY(backend->api.setItem(u"/todos"_s, todo(1, 1, u"guess"_s)));
            answer = ServerResponse::json(todo(1, 1, u"guess"_s));
        } else if (request == Request::Delete) {
            QVERIFY(backend->api.removeItem(u"/todos"_s, 4));
            answer = ServerResponse::noContent();
        } else if (request == Request::Push) {
            QVERIFY(backend->api.setItem(u"/todos"_s, todo(6, 1, u"new"_s)));
            answer = ServerResponse::json(todo(6, 1, u"new"_s), 201);
        }
        replies.pending.first().responder.send(answer);
        QVERIFY(await(future).canceled());
        QCOMPARE(controller->store().entityCount(), 0);
        QVERIFY(controller->store().resultKeys().isEmpty());

        backend->server.clearRoutes(); // the FakeRestApi's routes are gone too: serve afresh
        FakeRestApi api(&backend->server);
        QVERIFY(api.addCollection(u"/todos"_s, backend->api.collection(u"/todos"_s)));
        QVERIFY(await(controller->fetch(todos.getList, user(1))).value);
        QVERIFY(await(controller->fetch(todos.getList, user(2))).value);
        const QString differs = ServerView::differences(*controller, api, todos, 8);
        QVERIFY2(differs.isEmpty(), qPrintable(differs));
    }
};

QTEST_GUILESS_MAIN(tst_FaultsLifetime)
#include "tst_faults_lifetime.moc"
