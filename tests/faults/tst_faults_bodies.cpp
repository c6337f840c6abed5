// The fault suite, answers that arrive but mislead: bodies that are not what the
// endpoint expects, answers out of order, the same mutation twice. One data-driven test per
// family; every row checks the error reported (kind, status, message) and that the Controller
// then shows exactly what the server holds (faultsuite.h, serverview.h).
#include "faultsuite.h"

#include <QTest>

#include <algorithm>

using namespace FaultSuite;

class tst_FaultsBodies : public FaultTest
{
    Q_OBJECT

private Q_SLOTS:
    // A 2xx answer that is not what the endpoint expects: refused whole, nothing stored.
    void unreadableBodies_data()
    {
        addColumns();
        const auto bad = [](const QByteArray &body, const QByteArray &type = "application/json") {
            return ServerResponse::raw(body, type);
        };
        const QByteArray html = "<!DOCTYPE html><html><body><h1>Oops</h1></body></html>";
        for (const Aim &aim : everyRequest) {
            if (aim.request == Request::Delete)
                continue; // see below: a delete reads no entity
            QTest::addRow("%s not JSON", aim.name)
                << aim.request << bad("not json at all") << NetworkError::Kind::InvalidResponse
                << 400 << u"not valid JSON"_s;
            QTest::addRow("%s truncated JSON", aim.name)
                << aim.request << bad("[{\"id\":1,\"userId\":1,\"title\":\"o")
                << NetworkError::Kind::InvalidResponse << 400 << u"not valid JSON"_s;
            QTest::addRow("%s HTML page with 200", aim.name)
                << aim.request << bad(html, "text/html; charset=utf-8")
                << NetworkError::Kind::InvalidResponse << 400 << u"text/html"_s;
            // Qt cannot inflate it and leaves an empty or raw body: not an answer either.
            QTest::addRow("%s gzip that is not gzip", aim.name)
                << aim.request
                << bad(QByteArray("\x1f\x8b\x08\0\0\0\0\0\0\x03", 10) + QByteArray(64, '\xff'))
                       .withHeader("Content-Encoding", "gzip")
                << NetworkError::Kind::InvalidResponse << 400 << u"could not be read"_s;
        }
        QTest::newRow("list wrong shape: an object")
            << Request::ReadList << ServerResponse::json(todo(1, 1, u"one"_s))
            << NetworkError::Kind::InvalidResponse << 400 << u"array"_s;
        QTest::newRow("get wrong shape: a list")
            << Request::ReadOne << ServerResponse::json(QJsonArray {todo(2, 1, u"two"_s)})
            << NetworkError::Kind::InvalidResponse << 400 << u"object"_s;
        QTest::newRow("patch wrong shape: a number")
            << Request::Patch << ServerResponse::json(42) << NetworkError::Kind::InvalidResponse
            << 400 << u"object"_s;
        QJsonObject noPk = todo(1, 1, u"one"_s);
        noPk.remove(u"id"_s);
        QTest::newRow("list with an entity without its pk")
            << Request::ReadList << ServerResponse::json(QJsonArray {todo(2, 1, u"two"_s), noPk})
            << NetworkError::Kind::InvalidResponse << 400 << u"primary key"_s;
        QTest::newRow("patch answered without the pk")
            << Request::Patch << ServerResponse::json(noPk) << NetworkError::Kind::InvalidResponse
            << 400 << u"primary key"_s;
        QTest::newRow("push answered without the pk")
            << Request::Push << ServerResponse::json(noPk, 201)
            << NetworkError::Kind::InvalidResponse << 400 << u"primary key"_s;
    }
    void unreadableBodies() { runRow(); }

    // A read started before a mutation and one started after it, all three answered in every
    // order: the server handled them in request order, so the Controller ends on what the
    // server holds after the mutation, whatever order the answers arrive in.
    void answersOutOfOrder_data()
    {
        QTest::addColumn<QList<int>>("answerOrder");
        QList<int> order {0, 1, 2};
        do {
            QTest::addRow("answers %d,%d,%d", order[0], order[1], order[2]) << order;
        } while (std::next_permutation(order.begin(), order.end()));
    }
    void answersOutOfOrder()
    {
        QFETCH(QList<int>, answerOrder);
        DeferredReplies replies;
        replies.install(backend->server, "*", u"/todos"_s);
        replies.install(backend->server, "*", u"/todos/:id"_s);
        const QJsonArray before = serverList(1);
        QList<QFuture<QVariant>> futures;
        // 0: the list, read before the change.
        futures << controller->fetch(todos.getList, user(1));
        QVERIFY(replies.waitFor(1));
        // 1: the change (non-optimistic, so only answers move the store).
        const Resource plain = backend->resource(false);
        futures << controller->fetch(plain.partialUpdate, {{u"id"_s, 2}},
                                     QJsonObject {{u"title"_s, u"changed"_s}});
        QVERIFY(replies.waitFor(2));
        QVERIFY(backend->api.setItem(u"/todos"_s, todo(2, 1, u"changed"_s)));
        // 2: the todo, read after the change.
        futures << controller->fetch(todos.get, {{u"id"_s, 2}});
        QVERIFY(replies.waitFor(3));
        const QList<ServerResponse> answers {ServerResponse::json(before),
                                             ServerResponse::json(todo(2, 1, u"changed"_s)),
                                             ServerResponse::json(todo(2, 1, u"changed"_s))};
        for (const int i : std::as_const(answerOrder)) {
            replies.pending.at(i).responder.send(answers.at(i));
            QVERIFY(await(futures.at(i)).value);
        }
        QCOMPARE(field(controller->get(todoSchema(), {{u"id"_s, 2}}).data).value(u"title"_s),
                 QVariant(u"changed"_s));
        const QString differs = differences();
        QVERIFY2(differs.isEmpty(), qPrintable(differs));
    }

    // Mutations are never joined: the same one sent twice is two requests, each answered on its
    // own (the second delete finds nothing: 404, and the todo stays gone).
    void theSameMutationTwice_data()
    {
        QTest::addColumn<Request>("request");
        QTest::addColumn<int>("secondStatus");
        QTest::addColumn<QList<int>>("listAfter");
        QTest::newRow("patch") << Request::Patch << 0 << QList<int> {1, 2, 3};
        QTest::newRow("push") << Request::Push << 0 << QList<int> {1, 2, 3, 6, 7};
        QTest::newRow("delete") << Request::Delete << 404 << QList<int> {1, 2, 3};
    }
    void theSameMutationTwice()
    {
        QFETCH(Request, request);
        QFETCH(int, secondStatus);
        QFETCH(QList<int>, listAfter);
        const auto [method, path] = target(request);
        QFuture<QVariant> first = send(request);
        QFuture<QVariant> second = send(request);
        const Outcome firstOutcome = await(first);
        const Outcome secondOutcome = await(second);
        QVERIFY(firstOutcome.value);
        if (secondStatus == 0) {
            QVERIFY(secondOutcome.value);
        } else {
            QVERIFY(secondOutcome.error);
            QCOMPARE(secondOutcome.error->kind(), NetworkError::Kind::Http);
            QCOMPARE(secondOutcome.error->status(), secondStatus);
            const QString message = secondOutcome.error->message();
            QVERIFY2(message.contains(backend->server.url(path)), qPrintable(message));
            QVERIFY2(message.contains(QString::number(secondStatus)), qPrintable(message));
        }
        QCOMPARE(backend->server.requests(method, path).size(), 2);
        QCOMPARE(ids(controller->getResponse(todos.getList, user(1)).data), listAfter);
        const QString differs = differences();
        QVERIFY2(differs.isEmpty(), qPrintable(differs));
        QVERIFY(!controller->get(todoSchema(), {{u"id"_s, 4}}).found || request != Request::Delete);
    }

private:
    QJsonArray serverList(int userId) const { return ServerView::serverList(backend->api, userId); }
};

QTEST_GUILESS_MAIN(tst_FaultsBodies)
#include "tst_faults_bodies.moc"
