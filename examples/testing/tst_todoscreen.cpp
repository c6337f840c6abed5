// The todo screen's own tests, written with DataClient::Testing only: data shown, an error
// shown, loading, an optimistic tick rolled back on a 500, polling over five minutes of virtual
// time, pagination — and no real connection attempted (a trap proxy counts any).
#include "examplebackend.h"
#include "todoscreen.h"

#include <DataClient/controller.h>
#include <DataClient/testing/await.h>
#include <DataClient/testing/virtualclock.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtNetwork/QNetworkProxy>
#include <QtNetwork/QNetworkReply>
#include <QtNetwork/QTcpServer>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace DataClient;
using namespace DataClient::Testing;
using namespace Qt::StringLiterals;

class tst_TodoScreen : public QObject
{
    Q_OBJECT

    //! Every real HTTP connection goes to this proxy; none may arrive (MockNetwork has none).
    QTcpServer m_trap;
    int m_trapped = 0;
    bool m_trapIsExpected = false;

    std::unique_ptr<ExampleBackend> backend;
    std::unique_ptr<Controller> controller;
    Resource api;

    static QJsonObject todo(int id, bool completed = false)
    {
        return {{u"id"_s, id}, {u"title"_s, u"Todo %1"_s.arg(id)}, {u"completed"_s, completed}};
    }
    //! The screen with the first page (two todos) answered.
    std::unique_ptr<TodoScreen> screenWithTwoTodos()
    {
        backend->answer({.endpoint = api.getList, .response = QJsonArray {todo(1), todo(2)}});
        return std::make_unique<TodoScreen>(controller.get(), backend->url());
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_trap.listen(QHostAddress::LocalHost));
        connect(&m_trap, &QTcpServer::newConnection, this, [this] {
            ++m_trapped;
            delete m_trap.nextPendingConnection();
        });
    }

    void init()
    {
        backend = std::make_unique<ExampleBackend>();
        if (!backend->usesServer()) {
            QNetworkProxy::setApplicationProxy(
                QNetworkProxy(QNetworkProxy::HttpProxy, u"127.0.0.1"_s, m_trap.serverPort()));
        }
        controller = std::make_unique<Controller>(backend->network());
        api = TodoScreen::resource(backend->url());
    }

    void cleanup()
    {
        controller.reset();
        backend.reset();
        QCoreApplication::processEvents(); // a connection attempt would be accepted by now
        QNetworkProxy::setApplicationProxy(QNetworkProxy::NoProxy);
        if (!m_trapIsExpected)
            QCOMPARE(m_trapped, 0);
    }

    void showsTheTodos()
    {
        auto screen = screenWithTwoTodos();
        QCOMPARE(screen->todos()->status(), CollectionModel::Loading); // loading, at once
        QVERIFY(screen->todos()->isLoading());
        QVERIFY(waitForStatus(screen->todos(), CollectionModel::Ready));
        QCOMPARE(screen->todos()->count(), 2);
        QCOMPARE(screen->todos()->get(1).toMap().value(u"title"_s), QVariant(u"Todo 2"_s));
        QCOMPARE(backend->requests("GET", u"/todos"_s), 1);
    }

    void showsAnError()
    {
        backend->answer({.endpoint = api.getList,
                         .response = QJsonObject {{u"message"_s, u"down"_s}},
                         .status = 503});
        TodoScreen screen(controller.get(), backend->url());
        QVERIFY(waitForStatus(screen.todos(), CollectionModel::Error));
        QCOMPARE(screen.todos()->networkError()->status(), 503);
        QCOMPARE(screen.todos()->count(), 0);
    }

    void aFailedTickIsRolledBack()
    {
        backend->answer({.endpoint = api.partialUpdate,
                         .params = {{u"id"_s, 1}},
                         .response = QJsonObject {{u"message"_s, u"boom"_s}},
                         .status = 500});
        auto screen = screenWithTwoTodos();
        QVERIFY(waitForStatus(screen->todos(), CollectionModel::Ready));
        auto completed
            = [&] { return screen->todos()->get(0).toMap().value(u"completed"_s).toBool(); };
        QSignalSpy message(screen.get(), &TodoScreen::messageChanged);
        screen->setCompleted(1, true);
        QVERIFY(completed()); // optimistic: shown at once
        QVERIFY(message.wait(5000));
        QCOMPARE(screen->message(), u"Could not save: the server answered 500"_s);
        QVERIFY(!completed()); // rolled back
        QCOMPARE(backend->requests("PATCH", u"/todos/1"_s), 1);
    }

    void pollsEveryMinuteForFiveMinutesOfVirtualTime()
    {
        VirtualClock clock(controller.get());
        auto screen = screenWithTwoTodos();
        QVERIFY(waitForStatus(screen->todos(), CollectionModel::Ready));
        for (int minute = 1; minute <= 5; ++minute) {
            clock.advance(TodoScreen::PollMs - 1);
            QVERIFY(!screen->todos()->isLoading()); // not before the minute
            clock.advance(1);
            QVERIFY(screen->todos()->isLoading()); // at the minute
            QTRY_VERIFY(!screen->todos()->isLoading());
        }
        QCOMPARE(backend->requests("GET", u"/todos"_s), 6); // the first read + five polls
    }

    void loadsTheNextPage()
    {
        backend->answer({.endpoint = api.getList.getPage,
                         .params = {{u"page"_s, 2}},
                         .response = QJsonArray {todo(3)}});
        auto screen = screenWithTwoTodos();
        QVERIFY(waitForStatus(screen->todos(), CollectionModel::Ready));
        QVERIFY(screen->todos()->hasMore());
        screen->loadMore();
        QTRY_COMPARE(screen->todos()->count(), 3);
        QTRY_VERIFY(!screen->todos()->hasMore()); // a short page is the last
        QCOMPARE(screen->todos()->get(2).toMap().value(u"id"_s), QVariant(3));
    }

    void theTrapCatchesARealConnection()
    {
        // Last: the check of cleanup() can fail: a request through a real manager reaches the trap.
        if (backend->usesServer())
            QSKIP("the trap is off when the tests run over TestServer");
        QNetworkAccessManager real;
        std::unique_ptr<QNetworkReply> reply(
            real.get(QNetworkRequest(QUrl(u"http://api.test/"_s))));
        QTRY_VERIFY(m_trapped >= 1); // Qt retries a closed connection: one or more
        m_trapIsExpected = true;
    }
};

QTEST_GUILESS_MAIN(tst_TodoScreen)
#include "tst_todoscreen.moc"
