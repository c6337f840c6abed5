// What tst_offthreadanswers (the outcome of large answers, their errors, C++ hooks) and
// tst_offthreadlifetime (destroying, resetting and replacing things while a worker runs; where
// the parsed answer is released) share: a TestServer serving a large list of todos with authors,
// the schemas, and endpoint subclasses whose answers take the GUI-thread path.
#pragma once

#include "logcapture.h"
#include "controllerfixture.h"
#include "utcdatetime.h"

#include <DataClient/collectionmodel.h>
#include <DataClient/controller.h>
#include <DataClient/createresource.h>
#include <DataClient/store.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QCoreApplication>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QThread>
#include <QtCore/QSemaphore>
#include <QtCore/QThreadPool>
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <memory>
#include <optional>

namespace OffThreadFixture {

using namespace DataClient;
using namespace DataClient::Testing;
using namespace Qt::StringLiterals;

inline const QString parsedOff = u"bytes off the GUI thread"_s; // RestEndpoint::fetchCompact()
inline const QString normalizedOff
    = u"off the GUI thread"_s; // "<endpoint>: normalizing off the GUI thread"

/*!
    Holds a worker thread at the debug message it writes when it starts \a stage (e.g.
    "normalizing", RestEndpoint::fetchCompact()'s worker) until release(): the test acts while the
    worker is known to be there, not after it has finished. Make it after a LogCapture (which
    turns the debug messages on); messages reach the LogCapture first.
*/
class WorkerGate
{
public:
    explicit WorkerGate(const QString &stage) : m_stage(stage)
    {
        s_current = this;
        m_previous = qInstallMessageHandler(&WorkerGate::handle);
    }
    ~WorkerGate()
    {
        release();
        qInstallMessageHandler(m_previous);
        s_current = nullptr;
    }
    WorkerGate(const WorkerGate &) = delete;
    WorkerGate &operator=(const WorkerGate &) = delete;

    //! Spins the event loop until a worker is held at the stage.
    bool waitForWorker(int timeoutMs = 30000)
    {
        return QTest::qWaitFor([this] { return m_held.load() > 0; }, timeoutMs);
    }
    //! Lets the held worker (and any later one) go on.
    void release()
    {
        if (!m_open.exchange(true))
            m_go.release(1000);
    }

private:
    static void handle(QtMsgType type, const QMessageLogContext &context, const QString &message)
    {
        WorkerGate *self = s_current;
        if (!self)
            return;
        if (self->m_previous)
            self->m_previous(type, context, message);
        if (QThread::currentThread() != QCoreApplication::instance()->thread()
            && message.contains(self->m_stage) && !self->m_open.load()) {
            ++self->m_held;
            self->m_go.tryAcquire(1, 30000); // never forever: a failing test must end
        }
    }

    static inline WorkerGate *s_current = nullptr;
    QString m_stage;
    QtMessageHandler m_previous = nullptr;
    std::atomic<int> m_held {0};
    std::atomic<bool> m_open {false};
    QSemaphore m_go;
};

inline QJsonObject todo(int id)
{
    return {{u"id"_s, id},
            {u"title"_s, u"todo number %1 with some text"_s.arg(id)},
            {u"createdAt"_s, u"2024-01-02T03:04:05Z"_s},
            {u"author"_s, QJsonObject {{u"id"_s, id % 7}, {u"name"_s, u"user %1"_s.arg(id % 7)}}}};
}

inline QByteArray todosBody(int from, int count)
{
    QJsonArray list;
    for (int i = from; i < from + count; ++i)
        list.append(todo(i));
    return QJsonDocument(list).toJson(QJsonDocument::Compact);
}

inline Schema userSchema()
{
    return Schema::entity(EntitySchema(u"User"_s));
}

inline EntitySchema todoEntity()
{
    return EntitySchema(u"Todo"_s)
        .withField(u"createdAt"_s, Deserialize::dateTime())
        .withNested(u"author"_s, userSchema());
}

using ControllerFixture::Outcome;

// Large answers under sanitizers take longer than the fixture's default wait.
inline Outcome<QVariant> await(QFuture<QVariant> future)
{
    return ControllerFixture::await(std::move(future), 30000);
}

//! No hook overridden: only the type differs, so the answer takes the GUI-thread path.
class PlainSubclass : public EndpointBase<PlainSubclass>
{
public:
    using EndpointBase::EndpointBase;
};

//! Overrides both hooks: they must see the QJsonValue, on the GUI thread.
class HookedEndpoint : public EndpointBase<HookedEndpoint>
{
public:
    using EndpointBase::EndpointBase;
    QJsonValue parseResponse(const Response &response) const override
    {
        threads.append(QThread::currentThread());
        return RestEndpoint::parseResponse(response);
    }
    QJsonValue process(const QJsonValue &value, const Params &params) const override
    {
        threads.append(QThread::currentThread());
        items = value.toArray().size();
        return RestEndpoint::process(value, params);
    }
    static inline QList<QThread *> threads;
    static inline qsizetype items = -1;
};

//! Rows of a denormalized list as plain maps (Records compared field by field).
inline QVariantList plain(const QVariant &list)
{
    QVariantList rows;
    const QVariantList items = list.toList();
    for (const QVariant &item : items) {
        QVariantMap row = item.toMap();
        row[u"author"_s] = row.value(u"author"_s).toMap();
        rows.append(row);
    }
    return rows;
}

//! The server of one test function and its large body (made in init(), gone in cleanup()).
class Fixture : public QObject
{
protected:
    std::unique_ptr<TestServer> server;
    QByteArray largeBody;

    EndpointOptions options(const QString &path, const Schema &schema) const
    {
        EndpointOptions o;
        o.path = path;
        o.urlPrefix = server->url();
        o.schema = schema;
        return o;
    }
    Schema listSchema() const
    {
        return Schema::collection(Schema::array(Schema::entity(todoEntity())));
    }
    void serve(const QByteArray &body, const QByteArray &type = "application/json")
    {
        server->route("GET", u"/todos"_s, [body, type](const RecordedRequest &) {
            return ServerResponse::raw(body, type);
        });
    }
    //! For init(): a server on an ephemeral port and a body large enough for the worker path.
    void startServer()
    {
        server = std::make_unique<TestServer>();
        QVERIFY(server->listen());
        largeBody = todosBody(1, 1000);
        QVERIFY(largeBody.size() >= RestEndpoint::OffThreadBodySize);
    }
    //! For cleanup(): no worker still running, then the server gone.
    void stopServer()
    {
        QThreadPool::globalInstance()->waitForDone();
        server.reset();
    }
};

} // namespace OffThreadFixture
