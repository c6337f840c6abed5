// The demo's UI (examples/todo-qml/Main.qml) in-process against its embedded server: what a user
// does — pick a user, toggle, rename, delete, add, scroll for more pages — reaches the server,
// shows at once (optimistic), rolls back on failure with a banner whose Retry works, and the live
// panel keeps polling.
#include "demouitest.h"

#include <DataClient/outbox.h>

class tst_DemoUi : public DemoUiTest
{
    Q_OBJECT

private Q_SLOTS:
    void showsUsersTodosDatesAndAuthors()
    {
        QVERIFY(start());
        QTRY_VERIFY_WITH_TIMEOUT(window->property("dataShown").toBool(), 15000);
        QCOMPARE(child(u"userList"_s)->property("count").toInt(), 10);
        QVERIFY(todoModel()->count() >= 20);
        for (int i = 0; i < todoModel()->count(); ++i) {
            const QVariantMap todo = row(i);
            QCOMPARE(todo.value(u"userId"_s).toInt(), 1);
            QCOMPARE(todo.value(u"createdAt"_s).typeId(), QMetaType::QDateTime); // deserialized
            QVERIFY(todo.value(u"createdAt"_s).toDateTime().isValid());
            QCOMPARE(todo.value(u"author"_s).toMap().value(u"id"_s).toInt(), 1);
        }
        const QString name = server->api()->item(u"/users"_s, 1)[u"name"_s].toString();
        QCOMPARE(row(0).value(u"author"_s).toMap().value(u"name"_s).toString(), name);
    }

    void toggleShowsAtOnceThenReachesTheServer()
    {
        QVERIFY(start());
        QTRY_VERIFY_WITH_TIMEOUT(window->property("dataShown").toBool(), 15000);
        const QVariantMap todo = row(2);
        const bool before = todo.value(u"completed"_s).toBool();
        QSignalSpy changed(todoModel(), &QAbstractItemModel::dataChanged);
        invoke("todoList", "toggleRequested", Q_ARG(QVariant, todo), Q_ARG(bool, !before));
        // Optimistic: in the model before the event loop ran, so before any answer.
        QCOMPARE(row(2).value(u"completed"_s).toBool(), !before);
        QTRY_COMPARE(stored(todo.value(u"id"_s))[u"completed"_s].toBool(), !before);
        QTRY_VERIFY(!todoModel()->isLoading());
        QCOMPARE(row(2).value(u"completed"_s).toBool(), !before);
        QVERIFY(!changed.isEmpty());
        for (const QList<QVariant> &signal : std::as_const(changed)) { // only that row changed
            QCOMPARE(signal.at(0).toModelIndex().row(), 2);
            QCOMPARE(signal.at(1).toModelIndex().row(), 2);
        }
    }

    void renameAndDelete()
    {
        QVERIFY(start());
        QTRY_VERIFY_WITH_TIMEOUT(window->property("dataShown").toBool(), 15000);
        const QVariant renamedId = row(0).value(u"id"_s);
        invoke("todoList", "renameRequested", Q_ARG(QVariant, row(0)),
               Q_ARG(QString, u"Water the plants"_s));
        QCOMPARE(row(0).value(u"title"_s).toString(), u"Water the plants"_s);
        QTRY_COMPARE(stored(renamedId)[u"title"_s].toString(), u"Water the plants"_s);

        const int count = todoModel()->count();
        const QVariant deletedId = row(1).value(u"id"_s);
        invoke("todoList", "deleteRequested", Q_ARG(QVariant, row(1)));
        QCOMPARE(todoModel()->count(), count - 1); // hidden at once
        QTRY_VERIFY(stored(deletedId).isEmpty());
        QTRY_VERIFY(!todoModel()->isLoading());
        QCOMPARE(todoModel()->count(), count - 1);
        for (int i = 0; i < todoModel()->count(); ++i)
            QVERIFY(row(i).value(u"id"_s) != deletedId);
    }

    void addPutsOnTopOfTheListThenGetsTheServersId()
    {
        QVERIFY(start());
        QTRY_VERIFY_WITH_TIMEOUT(window->property("dataShown").toBool(), 15000);
        const int count = todoModel()->count();
        invoke("newTodoBar", "addRequested", Q_ARG(QString, u"Call the plumber"_s));
        QCOMPARE(todoModel()->count(), count + 1);
        QCOMPARE(row(0).value(u"title"_s).toString(), u"Call the plumber"_s);
        QVERIFY(DataClient::isPlaceholderKey(row(0).value(u"id"_s).toString()));
        QVERIFY(pending(0));
        QTRY_VERIFY(row(0).value(u"id"_s).toInt() > 0);
        QVERIFY(!pending(0));
        QCOMPARE(todoModel()->count(), count + 1);
        const QJsonObject created = stored(row(0).value(u"id"_s));
        QCOMPARE(created[u"title"_s].toString(), u"Call the plumber"_s);
        QCOMPARE(created[u"userId"_s].toInt(), 1);
    }

    void failedChangeRollsBackAndRetryWorks()
    {
        QVERIFY(start());
        QTRY_VERIFY_WITH_TIMEOUT(window->property("dataShown").toBool(), 15000);
        server->setFailureRate(1);
        const QVariantMap todo = row(0);
        const bool before = todo.value(u"completed"_s).toBool();
        invoke("todoList", "toggleRequested", Q_ARG(QVariant, todo), Q_ARG(bool, !before));
        QCOMPARE(row(0).value(u"completed"_s).toBool(), !before);
        QObject *banner = child(u"mutationBanner"_s);
        QTRY_VERIFY(banner->property("message").toString().startsWith(u"Could not save"_s));
        QCOMPARE(row(0).value(u"completed"_s).toBool(), before); // rolled back
        QCOMPARE(stored(todo.value(u"id"_s))[u"completed"_s].toBool(), before);

        server->setFailureRate(0);
        QVERIFY(banner->property("visible").toBool());
        QVERIFY(QMetaObject::invokeMethod(banner, "runRetry")); // the Retry button
        QVERIFY(!banner->property("visible").toBool());
        QTRY_COMPARE(stored(todo.value(u"id"_s))[u"completed"_s].toBool(), !before);
        QTRY_COMPARE(row(0).value(u"completed"_s).toBool(), !before);
        QVERIFY(!banner->property("visible").toBool());
    }

    // A load that fails retries by itself (the header says so), then shows the banner; its Retry
    // starts a new chain. Backoff waits on a virtual clock: each check of the QTRY loop moves it
    // one second, so nothing waits the real backoff.
    void failedLoadRetriesThenShowsABannerAndRetryRecovers()
    {
        DataClient::Testing::VirtualClock clock;
        QObject *retrying = startWithFailingLoads(clock);
        QVERIFY(retrying);
        QVERIFY2(window->property("statusText").toString().contains(u"retrying (attempt 2)"_s),
                 qPrintable(window->property("statusText").toString()));
        QCOMPARE(requests("GET", u"/todos"_s), 1);

        QObject *banner = child(u"loadErrorBanner"_s);
        QTRY_VERIFY_WITH_TIMEOUT(
            (clock.advance(1000),
             banner->property("message").toString().startsWith(u"Could not load the todos"_s)),
            15000);
        QCOMPARE(requests("GET", u"/todos"_s), 3); // the first attempt and the demo's 2 retries
        QVERIFY(banner->property("visible").toBool());
        // The line says how the retries ended, for a few seconds (tst_demoui_feedback).
        QCOMPARE(retrying->property("text").toString(), u"failed after 3 attempts"_s);
        QVERIFY(!window->property("dataShown").toBool());
        QVERIFY(window->property("statusText").toString().contains(u"error 500"_s));

        // Retry while the server still fails: a new chain, and the error (and banner) come back.
        QVERIFY(QMetaObject::invokeMethod(banner, "runRetry"));
        QTRY_VERIFY((clock.advance(1000), banner->property("visible").toBool()));
        QCOMPARE(requests("GET", u"/todos"_s), 6);
        server->setFailureRate(0);
        QVERIFY(QMetaObject::invokeMethod(banner, "runRetry"));
        QTRY_VERIFY_WITH_TIMEOUT(window->property("dataShown").toBool(), 15000);
        QVERIFY(!banner->property("visible").toBool());
        QVERIFY(banner->property("message").toString().isEmpty()); // the binding still holds
    }

    void anotherUserRetargetsTheList()
    {
        QVERIFY(start());
        QTRY_VERIFY_WITH_TIMEOUT(window->property("dataShown").toBool(), 15000);
        QVERIFY(QMetaObject::invokeMethod(child(u"userList"_s), "userSelected", Q_ARG(int, 3),
                                          Q_ARG(QString, u"x"_s)));
        QCOMPARE(window->property("userId").toInt(), 3);
        QTRY_VERIFY(todoModel()->count() > 0 && row(0).value(u"userId"_s).toInt() == 3);
        for (int i = 0; i < todoModel()->count(); ++i)
            QCOMPARE(row(i).value(u"userId"_s).toInt(), 3);
    }

    void scrollingLoadsEveryPageOnce()
    {
        QVERIFY(start());
        QTRY_VERIFY_WITH_TIMEOUT(window->property("dataShown").toBool(), 15000);
        int total = 0;
        for (const QJsonValue &todo : server->api()->collection(u"/todos"_s))
            total += todo[u"userId"_s].toInt() == 1;
        QVERIFY(total > 2 * EmbeddedServer::pageSize); // at least three pages
        auto *view = qobject_cast<QQuickItem *>(child(u"todoView"_s));
        QVERIFY(view);
        for (int attempt = 0; attempt < 10 && todoModel()->hasMore(); ++attempt) {
            QVERIFY(QMetaObject::invokeMethod(view, "positionViewAtEnd"));
            QTRY_VERIFY(!todoModel()->isLoadingMore());
        }
        QCOMPARE(todoModel()->count(), total);
        QVERIFY(!todoModel()->hasMore());
        QSet<int> ids;
        for (int i = 0; i < todoModel()->count(); ++i)
            ids.insert(row(i).value(u"id"_s).toInt());
        QCOMPARE(ids.size(), total); // no duplicates
    }

    // The header's Online switch: offline, a refetch sends nothing and the rows stay; back
    // online, the waiting read goes out once and the banner goes away.
    void onlineSwitchPausesReadsAndReconnectSendsThem()
    {
        QVERIFY(start());
        QTRY_VERIFY_WITH_TIMEOUT(window->property("dataShown").toBool(), 15000);
        QObject *onlineSwitch = child(u"onlineSwitch"_s);
        QObject *banner = child(u"offlineBanner"_s);
        QVERIFY(onlineSwitch && banner);
        QVERIFY(onlineSwitch->property("checked").toBool());
        QVERIFY(!banner->property("visible").toBool());
        const int rows = todoModel()->count();

        // What a click does: toggle, then the toggled() signal the QML handler runs on.
        QVERIFY(QMetaObject::invokeMethod(onlineSwitch, "toggle"));
        QVERIFY(QMetaObject::invokeMethod(onlineSwitch, "toggled"));
        QVERIFY(!DataClient::Controller::instance()->isOnline());
        QVERIFY(banner->property("visible").toBool());
        const int readsBefore = requests("GET", u"/todos"_s);
        todoModel()->refetch();
        QTRY_VERIFY(todoModel()->isPaused());
        QCOMPARE(todoModel()->count(), rows); // the rows stay
        QVERIFY(window->property("statusText").toString().startsWith(u"offline; "_s));
        QCOMPARE(requests("GET", u"/todos"_s), readsBefore);

        QVERIFY(QMetaObject::invokeMethod(onlineSwitch, "toggle"));
        QVERIFY(QMetaObject::invokeMethod(onlineSwitch, "toggled"));
        QVERIFY(DataClient::Controller::instance()->isOnline());
        QVERIFY(!banner->property("visible").toBool());
        // The first page, then each later page the list view had loaded, read again once: the
        // rows stay.
        const int pages = (rows + EmbeddedServer::pageSize - 1) / EmbeddedServer::pageSize;
        QTRY_COMPARE(requests("GET", u"/todos"_s), readsBefore + pages);
        QTRY_VERIFY(!todoModel()->isPaused() && !todoModel()->isLoading());
        QCOMPARE(todoModel()->count(), rows);
    }

    // The demo pointed at an API of its shape that is not its own server — one that
    // keeps the ids clients send (like json-server), has users without `name` and no /status.
    // No made-up id ever reaches it, and no row stays pending once it answered.
    void worksAgainstAnApiThatKeepsClientIds()
    {
        DataClient::Testing::TestServer other;
        QVERIFY(other.listen());
        DataClient::Testing::FakeRestApi api(&other);
        DataClient::Testing::FakeRestApi::Options options;
        options.keepClientIds = true;
        const QJsonArray users {QJsonObject {{u"id"_s, 1}, {u"name"_s, u"Ann"_s}},
                                QJsonObject {{u"id"_s, 2}, {u"username"_s, u"bob"_s}},
                                QJsonObject {{u"id"_s, 3}, {u"email"_s, u"cy@example.org"_s}},
                                QJsonObject {{u"id"_s, 4}}};
        QVERIFY(api.addCollection(u"/users"_s, users, options));
        const QString created = u"2026-01-02T03:04:05Z"_s;
        QVERIFY(api.addCollection(u"/todos"_s,
                                  {QJsonObject {{u"id"_s, 1},
                                                {u"userId"_s, 1},
                                                {u"title"_s, u"Water the plants"_s},
                                                {u"completed"_s, false},
                                                {u"createdAt"_s, created}}},
                                  options));
        engine = std::make_unique<QQmlApplicationEngine>();
        engine->addImportPath(QStringLiteral(DATACLIENT_QML_DIR));
        engine->setInitialProperties(
            {{u"apiUrl"_s, other.url()}, {u"embeddedServer"_s, false}, {u"initialUserId"_s, 1}});
        engine->load(QUrl::fromLocalFile(QStringLiteral(DEMO_QML_DIR "/Main.qml")));
        QCOMPARE(engine->rootObjects().size(), 1);
        window = engine->rootObjects().constFirst();
        QTRY_VERIFY_WITH_TIMEOUT(window->property("dataShown").toBool(), 15000);

        auto *userList = qobject_cast<QQuickItem *>(child(u"userList"_s));
        QTRY_COMPARE(delegateTexts(userList, u"userRow"_s),
                     (QStringList {u"Ann"_s, u"bob"_s, u"cy@example.org"_s, u"User 4"_s}));
        // No /status: the panel hides itself and one line says why.
        QTRY_VERIFY(child(u"activity"_s)->property("absent").toBool());
        QVERIFY(!child(u"activity"_s)->property("visible").toBool());
        QObject *line = child(u"noStatusLine"_s);
        QVERIFY(line->property("visible").toBool());
        QCOMPARE(line->property("text").toString(),
                 u"This API has no /status endpoint (HTTP 404): the server panel is hidden."_s);

        // Add two todos (each on top), and toggle the first while it is still pending: shown
        // at once, sent once the server gave it its id.
        invoke("newTodoBar", "addRequested", Q_ARG(QString, u"Call the plumber"_s));
        invoke("newTodoBar", "addRequested", Q_ARG(QString, u"Buy stamps"_s));
        QCOMPARE(todoModel()->count(), 3);
        QCOMPARE(row(0).value(u"title"_s).toString(), u"Buy stamps"_s);
        QCOMPARE(row(1).value(u"title"_s).toString(), u"Call the plumber"_s);
        QVERIFY(pending(0) && pending(1));
        invoke("todoList", "toggleRequested", Q_ARG(QVariant, row(1)), Q_ARG(bool, true));
        QCOMPARE(row(1).value(u"completed"_s).toBool(), true);
        QTRY_VERIFY(!pending(0) && !pending(1) && !pending(2)); // none stays pending
        QTRY_VERIFY(!todoModel()->isLoading());
        // (This API lists oldest first: a refetch may have put the rows in its order.)
        const auto idOf = [this](const QString &title) {
            for (int i = 0; i < todoModel()->count(); ++i) {
                if (row(i).value(u"title"_s).toString() == title)
                    return row(i).value(u"id"_s).toInt();
            }
            return 0;
        };
        QCOMPARE(idOf(u"Call the plumber"_s), 2);
        QCOMPARE(idOf(u"Buy stamps"_s), 3);
        QCOMPARE(api.item(u"/todos"_s, 2).value(u"completed"_s), QJsonValue(true));
        QCOMPARE(api.item(u"/todos"_s, 3).value(u"title"_s).toString(), u"Buy stamps"_s);

        // What the server received: no id in the creates, no negative or placeholder id
        // anywhere, the held toggle sent once with the server's id.
        int patches = 0;
        for (const auto &request : other.requests()) {
            const QByteArray seen = request.rawTarget + ' ' + request.body;
            QVERIFY2(!seen.contains("/-") && !seen.contains(":-") && !seen.contains('\x01')
                         && !seen.contains("%01") && !seen.contains("\\u0001")
                         && !seen.contains("new:"),
                     seen.constData());
            if (request.method == "POST")
                QVERIFY2(!request.json().toObject().contains(u"id"_s), seen.constData());
            if (request.method == "PATCH") {
                ++patches;
                QCOMPARE(request.path, u"/todos/2"_s);
            }
        }
        QCOMPARE(patches, 1);
        for (const QJsonValue &todo : api.collection(u"/todos"_s))
            QVERIFY(todo[u"id"_s].toInt() > 0);
        engine.reset(); // before the server it talks to
        window = nullptr;
    }

    // Offline, an edit shows at once, waits in the outbox ("1 change waiting") and nothing is
    // sent; back online it reaches the server and the line goes away (docs/offline-outbox.md).
    void anOfflineEditWaitsInTheOutboxAndGoesOnline()
    {
        QVERIFY(start());
        QTRY_VERIFY_WITH_TIMEOUT(window->property("dataShown").toBool(), 15000);
        QObject *onlineSwitch = child(u"onlineSwitch"_s);
        QObject *waiting = child(u"outboxLabel"_s);
        QVERIFY(onlineSwitch && waiting);
        QVERIFY(!waiting->property("visible").toBool());
        QVERIFY(QMetaObject::invokeMethod(onlineSwitch, "toggle"));
        QVERIFY(QMetaObject::invokeMethod(onlineSwitch, "toggled"));
        const QVariantMap todo = row(1);
        const bool before = todo.value(u"completed"_s).toBool();
        const QString path = u"/todos/"_s + todo.value(u"id"_s).toString();
        invoke("todoList", "toggleRequested", Q_ARG(QVariant, todo), Q_ARG(bool, !before));
        QCOMPARE(row(1).value(u"completed"_s).toBool(), !before); // shown at once
        QVERIFY(waiting->property("visible").toBool());
        QCOMPARE(waiting->property("text").toString(), u"1 change waiting"_s);
        QCOMPARE(requests("PATCH", path), 0);

        QVERIFY(QMetaObject::invokeMethod(onlineSwitch, "toggle"));
        QVERIFY(QMetaObject::invokeMethod(onlineSwitch, "toggled"));
        QTRY_COMPARE(stored(todo.value(u"id"_s))[u"completed"_s].toBool(), !before);
        QCOMPARE(requests("PATCH", path), 1);
        QTRY_VERIFY(!waiting->property("visible").toBool());
    }

    void livePanelKeepsPolling()
    {
        QVERIFY(start());
        QObject *activity = child(u"activity"_s);
        QTRY_VERIFY_WITH_TIMEOUT(activity->property("ready").toBool(), 15000);
        const QDateTime first = activity->property("status").toMap().value(u"time"_s).toDateTime();
        QVERIFY(first.isValid()); // deserialized by Deserialize.dateTime
        QTRY_VERIFY_WITH_TIMEOUT(
            activity->property("status").toMap().value(u"time"_s).toDateTime() > first, 10000);
    }

    // Three quick ticks at latency: the first goes, the others wait in the outbox behind it. A
    // refetch of the list reaches the server between the first and the second and is answered
    // before they are: the ticked rows stay ticked, then show what the server holds.
    void aRefetchDuringQueuedEditsKeepsThem()
    {
        QVERIFY(start());
        QTRY_VERIFY_WITH_TIMEOUT(window->property("dataShown").toBool(), 15000);
        server->api()->setLatency(600); // the changes; the list's pages still answer at once
        DataClient::Outbox *outbox = DataClient::Controller::instance()->outbox();
        QList<QVariant> ids;
        QList<bool> ticked;
        for (int index = 0; index < 3; ++index) {
            const QVariantMap todo = row(index);
            ids.append(todo.value(u"id"_s));
            ticked.append(!todo.value(u"completed"_s).toBool());
            invoke("todoList", "toggleRequested", Q_ARG(QVariant, todo),
                   Q_ARG(bool, ticked.last()));
        }
        QCOMPARE(outbox->count(), 3);
        const auto path = [&](int index) { return u"/todos/"_s + ids.at(index).toString(); };
        QTRY_COMPARE(requests("PATCH", path(0)), 1);
        const int reads = requests("GET", u"/todos"_s);
        todoModel()->refetch();
        QTRY_VERIFY(requests("GET", u"/todos"_s) > reads);
        QCOMPARE(requests("PATCH", path(1)), 0); // still waiting behind the first
        QTRY_VERIFY(!todoModel()->isLoading()); // the refetch was answered
        for (int index = 0; index < 3; ++index)
            QCOMPARE(row(index).value(u"completed"_s).toBool(), ticked.at(index));

        QTRY_COMPARE_WITH_TIMEOUT(outbox->count(), 0, 10000);
        QTRY_VERIFY(!todoModel()->isLoading());
        for (int index = 0; index < 3; ++index) {
            QCOMPARE(stored(ids.at(index))[u"completed"_s].toBool(), ticked.at(index));
            QCOMPARE(row(index).value(u"id"_s), ids.at(index));
            QCOMPARE(row(index).value(u"completed"_s).toBool(), ticked.at(index));
            QVERIFY(!pending(index));
        }
    }
};

QTEST_MAIN(tst_DemoUi)
#include "tst_demoui.moc"
