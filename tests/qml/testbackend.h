// The in-process REST backend the Qt Quick tests talk to, exposed to QML as `backend`:
// a TestServer + FakeRestApi with seeded todos, plus controls to shape its answers.
#pragma once

#include <DataClient/testing/fakerestapi.h>
#include <DataClient/testing/testserver.h>

#include <DataClient/testing/websockettestserver.h>

#include <QtCore/QObject>
#include <QtCore/QVariant>

class TestBackend : public QObject
{
    Q_OBJECT
    //! "http://127.0.0.1:<port>"
    Q_PROPERTY(QString url READ url CONSTANT)
    //! "ws://127.0.0.1:<port>/live": an in-process WebSocket server the tests push through.
    Q_PROPERTY(QString pushUrl READ pushUrl CONSTANT)

public:
    //! Todos served at /todos (12 of users 1..3; ids 1..12) and, page by page (5 per page,
    //! `?page=N`, no page = page 1), at /pages/todos, and the first ten as Django REST
    //! Framework pages ({count, next, previous, results}) at /drf/todos; two products (decimal price, comma-list
    //! tags, a date, a nested owner) at /products.
    explicit TestBackend(QObject *parent = nullptr);

    QString url() const;
    QString pushUrl() const;
    bool isListening() const;

    //! Seed data back, no latency, no pending failures, request log cleared.
    Q_INVOKABLE void reset();
    //! The next \a count requests fail with \a status.
    Q_INVOKABLE void failNext(int count, int status);
    //! Every answer waits \a ms.
    Q_INVOKABLE void setLatency(int ms);
    //! Requests received with \a method whose path equals \a path.
    Q_INVOKABLE int requestCount(const QString &method, const QString &path) const;
    //! All requests received since reset().
    Q_INVOKABLE int totalRequests() const;
    //! The last request: {method, path, query, body (parsed JSON), headers {lower-case name:
    //! value}}.
    Q_INVOKABLE QVariantMap lastRequest() const;
    //! The todo as the server stores it (an empty object if absent).
    Q_INVOKABLE QVariantMap todo(int id) const;
    //! Changes a todo on the server only (the client learns it on its next fetch).
    Q_INVOKABLE void setTodo(const QVariantMap &todo);

    //! Sends \a message (as JSON) on every open WebSocket connection; returns how many.
    Q_INVOKABLE int push(const QVariantMap &message);
    //! WebSocket connections open now.
    Q_INVOKABLE int pushConnections() const;
    //! The text frames the WebSocket server received since reset().
    Q_INVOKABLE QStringList pushReceived() const;

private:
    DataClient::Testing::WebSocketTestServer m_push;
    DataClient::Testing::TestServer m_server;
    DataClient::Testing::FakeRestApi m_api {&m_server};
};
