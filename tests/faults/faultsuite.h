// The base of the fault suite's tests (docs/reliability.md): a TodoBackend whose resource never
// retries (a fault is reported once, as it happened) and times out after TimeoutMs, a Controller
// that has fetched the lists of users 1 and 2, and one request of each kind to aim a fault at.
#pragma once

#include "serverview.h"

#include <QtCore/QMetaType>
#include <QTest>

namespace FaultSuite {

using namespace ControllerFixture;
using namespace DataClient::Testing;

//! The deadline of every request of the suite's resource.
constexpr int TimeoutMs = 250;

//! The request a fault is aimed at.
enum class Request {
    ReadList, //!< GET /todos?userId=1 (stored before)
    ReadOne, //!< GET /todos/2 (stored before, through the list)
    Patch, //!< optimistic PATCH /todos/1 {"title": "guess"}
    Delete, //!< optimistic DELETE /todos/4
    Push, //!< getList.push {userId: 1}, POST /todos {"userId": 1, "title": "new"}
};

} // namespace FaultSuite

// Declared before any use (clang refuses a declaration after a data table used the type).
Q_DECLARE_METATYPE(FaultSuite::Request)
Q_DECLARE_METATYPE(DataClient::Testing::ServerResponse)
Q_DECLARE_METATYPE(DataClient::NetworkError::Kind)

namespace FaultSuite {

//! A plausible answer of \a request (what the FakeRestApi would send), for faults to spoil.
inline ServerResponse goodAnswer(Request request)
{
    switch (request) {
    case Request::ReadList:
        return ServerResponse::json(
            QJsonArray {todo(1, 1, u"one"_s), todo(2, 1, u"two"_s), todo(3, 1, u"three"_s, true)});
    case Request::ReadOne:
        return ServerResponse::json(todo(2, 1, u"two"_s));
    case Request::Patch:
        return ServerResponse::json(todo(1, 1, u"guess"_s));
    case Request::Delete:
        return ServerResponse::noContent();
    case Request::Push:
        return ServerResponse::json(todo(6, 1, u"new"_s), 201);
    }
    return {};
}

//! A request of the suite with its name in row names.
struct Aim
{
    const char *name;
    Request request;
};
constexpr Aim everyRequest[] = {{"list", Request::ReadList},
                                {"get", Request::ReadOne},
                                {"patch", Request::Patch},
                                {"delete", Request::Delete},
                                {"push", Request::Push}};

inline QJsonObject errorBody(int status)
{
    return {{u"error"_s, u"injected"_s}, {u"status"_s, status}};
}

class FaultTest : public BackendTest
{
public:
    FaultTest() : BackendTest(/*optimistic*/ true) { }

protected:
    //! The columns of a row for expectFault().
    void addColumns()
    {
        QTest::addColumn<Request>("request");
        QTest::addColumn<ServerResponse>("answer");
        QTest::addColumn<NetworkError::Kind>("kind");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("messagePart");
    }
    //! Runs expectFault() with the row's values.
    void runRow()
    {
        QFETCH(Request, request);
        QFETCH(ServerResponse, answer);
        QFETCH(NetworkError::Kind, kind);
        QFETCH(int, status);
        QFETCH(QString, messagePart);
        expectFault(request, answer, kind, status, messagePart);
    }

    void setUp() override
    {
        todos = createResource({.path = u"/todos/:id"_s,
                                .schema = todoSchema(),
                                .urlPrefix = backend->server.url(),
                                .searchParams = {u"userId"_s},
                                .optimistic = true,
                                .timeout = TimeoutMs,
                                .retry = RetryPolicy::none()});
        QVERIFY(todos.isValid());
        QVERIFY(await(controller->fetch(todos.getList, user(1))).value);
        QVERIFY(await(controller->fetch(todos.getList, user(2))).value);
    }

    static Params user(int id) { return {{u"userId"_s, id}}; }

    //! The method and path of \a request as the server sees them.
    static QPair<QByteArray, QString> target(Request request)
    {
        switch (request) {
        case Request::ReadList:
            return {"GET", u"/todos"_s};
        case Request::ReadOne:
            return {"GET", u"/todos/2"_s};
        case Request::Patch:
            return {"PATCH", u"/todos/1"_s};
        case Request::Delete:
            return {"DELETE", u"/todos/4"_s};
        case Request::Push:
            return {"POST", u"/todos"_s};
        }
        return {};
    }

    QFuture<QVariant> send(Request request)
    {
        switch (request) {
        case Request::ReadList:
            return controller->fetch(todos.getList, user(1));
        case Request::ReadOne:
            return controller->fetch(todos.get, {{u"id"_s, 2}});
        case Request::Patch:
            return controller->fetch(todos.partialUpdate, {{u"id"_s, 1}},
                                     QJsonObject {{u"title"_s, u"guess"_s}});
        case Request::Delete:
            return controller->fetch(todos.remove, {{u"id"_s, 4}});
        case Request::Push:
            return controller->fetch(todos.getList.push, user(1),
                                     QJsonObject {{u"userId"_s, 1}, {u"title"_s, u"new"_s}});
        }
        return {};
    }

    //! Every todo id the suite's requests can touch (the seed's 5 and a created one).
    QString differences() const
    {
        return ServerView::differences(*controller, backend->api, todos, 8);
    }

    /*!
        Answers \a request with \a answer instead of the FakeRestApi (which therefore changes
        nothing), sends it and checks the reported error: \a kind, \a status, and a message
        naming the request's URL and containing \a messagePart. Then the Controller must show
        exactly what the server holds: a failed read keeps its data (a soft error, status >= 500,
        next to it), a failed optimistic mutation is rolled back.
    */
    void expectFault(Request request, const ServerResponse &answer, NetworkError::Kind kind,
                     int status, const QString &messagePart)
    {
        const auto [method, path] = target(request);
        backend->server.route(method, path, [answer](const RecordedRequest &) { return answer; });
        const qsizetype before = backend->server.requestCount();
        const Outcome outcome = await(send(request));
        QVERIFY(outcome.finished);
        QVERIFY2(!outcome.value, "a fault was handed on as an answer");
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), kind);
        QCOMPARE(outcome.error->status(), status);
        const QString message = outcome.error->message();
        QVERIFY2(message.contains(backend->server.url(path)), qPrintable(message));
        QVERIFY2(message.contains(messagePart, Qt::CaseInsensitive), qPrintable(message));
        // Sent once: the resource has no retry. But Qt itself sends a request again, once, when
        // a reused keep-alive connection closes before any byte of the answer (documented in
        // docs/reliability.md): the server sees it twice, answered the same way.
        const qsizetype sent = backend->server.requestCount() - before;
        QVERIFY2(sent == 1 || (answer.dropConnection && sent == 2),
                 qPrintable(u"sent %1 times"_s.arg(sent)));
        QCOMPARE(backend->api.collection(u"/todos"_s), seedTodos()); // the server kept its data

        const QString differs = differences();
        QVERIFY2(differs.isEmpty(), qPrintable(differs));
        if (request == Request::ReadList || request == Request::ReadOne) {
            const Params args = request == Request::ReadList ? user(1) : Params {{u"id"_s, 2}};
            const ResponseState state = controller->getResponse(
                request == Request::ReadList ? todos.getList : todos.get, args);
            QVERIFY(state.found); // the data stays
            QVERIFY(state.error);
            QCOMPARE(state.error->kind(), kind);
            QCOMPARE(state.error->status(), status);
            if (status >= 500) // soft: shown next to the data, not instead of it
                QVERIFY(state.hasData() && !state.showsError());
        }
        // Everything the seed held is still shown.
        for (int id = 1; id <= 5; ++id)
            QVERIFY2(controller->get(todoSchema(), {{u"id"_s, id}}).found,
                     qPrintable(QString::number(id)));
    }
};

} // namespace FaultSuite
