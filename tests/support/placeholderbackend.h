// A backend for the placeholder-row tests (docs/optimistic-updates.md): FakeRestApi in the mode
// that keeps client-sent ids (as json-server does), so a placeholder key sent by mistake would be
// stored as an id; creates optionally deferred, so a test decides when each is answered.
#pragma once

#include "controllerfixture.h"

#include <DataClient/placeholderkey.h>
#include <DataClient/record.h>

#include <memory>

namespace PlaceholderFixture {

using namespace ControllerFixture;

struct PlaceholderBackend
{
    DataClient::Testing::TestServer server;
    DataClient::Testing::FakeRestApi api {&server};
    DeferredReplies creates;
    Resource todos;

    //! \a deferCreates: POST /todos waits for create() (or fail()) instead of the api.
    bool start(bool deferCreates)
    {
        if (!server.listen())
            return false;
        DataClient::Testing::FakeRestApi::Options options;
        options.keepClientIds = true;
        if (!api.addCollection(u"/todos"_s, seedTodos(), options))
            return false;
        if (deferCreates)
            creates.install(server, "POST", u"/todos"_s);
        todos = createResource({.path = u"/todos/:id"_s,
                                .schema = todoSchema(),
                                .urlPrefix = server.url(),
                                .searchParams = {u"userId"_s},
                                .optimistic = true});
        return todos.isValid();
    }

    //! Answers deferred create \a index as the server would: stores its body with \a id.
    void create(qsizetype index, int id)
    {
        QJsonObject created = creates.pending.at(index).request.json().toObject();
        created.insert(u"id"_s, id);
        api.setItem(u"/todos"_s, created);
        creates.pending.at(index).responder.send(
            DataClient::Testing::ServerResponse::json(created, 201));
    }
    void answer(qsizetype index, const DataClient::Testing::ServerResponse &response)
    {
        creates.pending.at(index).responder.send(response);
    }

    //! The first request whose URL or body carried a placeholder key (U+0001, raw or escaped),
    //! as "METHOD target body"; empty when none did.
    QString placeholderSent() const
    {
        const QList<DataClient::Testing::RecordedRequest> requests = server.requests();
        for (const DataClient::Testing::RecordedRequest &request : requests) {
            const QByteArray seen = request.rawTarget + ' ' + request.body;
            if (seen.contains('\x01') || seen.contains("%01") || seen.contains("\\u0001")
                || seen.contains("new:"))
                return QString::fromLatin1(request.method + ' ' + seen);
        }
        return {};
    }
    //! Requests with \a method (any path).
    qsizetype count(const QByteArray &method) const
    {
        qsizetype n = 0;
        const QList<DataClient::Testing::RecordedRequest> requests = server.requests();
        for (const DataClient::Testing::RecordedRequest &request : requests)
            n += request.method == method ? 1 : 0;
        return n;
    }
};

/*!
    Base of the placeholder tests: a backend and a Controller per test function, and the check
    every test ends with: no request carried a placeholder key.
*/
class PlaceholderTest : public QObject
{
protected:
    std::unique_ptr<PlaceholderBackend> backend;
    std::unique_ptr<Controller> controller;
    Resource todos;

    void startBackend(bool deferCreates)
    {
        backend = std::make_unique<PlaceholderBackend>();
        QVERIFY(backend->start(deferCreates));
        todos = backend->todos;
        controller = std::make_unique<Controller>();
    }
    void stopBackend()
    {
        QCOMPARE(backend->placeholderSent(), QString());
        controller.reset();
        backend.reset();
    }
};

//! A new todo's body: no id (the server assigns it).
inline QJsonObject newTodo(const QString &title, int userId = 1)
{
    return {{u"userId"_s, userId}, {u"title"_s, title}, {u"completed"_s, false}};
}

} // namespace PlaceholderFixture
