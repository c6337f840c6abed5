// Base of the tests of the application's managers (Controller::addManager()): the virtual-time
// fixture (server with a scripted /items, VirtualClock, manual Connectivity) plus the todo
// resource on a FakeRestApi, and a manager that records every step it is given and does what the
// test tells it at each.
#pragma once

#include "virtualtimefixture.h"

#include <DataClient/manager.h>
#include <DataClient/testing/fakerestapi.h>

#include <QtCore/QStringList>

#include <functional>
#include <stdexcept>

//! One step a Recorder was given.
struct Seen
{
    QString step;
    quint64 id = 0;
    int attempt = 0;
    QString key;
};

class Recorder : public DataClient::Manager
{
    Q_OBJECT

public:
    using DataClient::Manager::Manager;

    QList<Seen> seen;
    //! What beforeSend() decides (Send when unset).
    std::function<Decision(const DataClient::ManagedRequest &)> decide;
    //! Headers decorate() adds.
    DataClient::Headers headers;
    //! The step that throws, and what.
    QString throwAt;
    bool throwNetworkError = false;
    //! The last error failed() was given.
    std::optional<DataClient::NetworkError> lastFailure;

    //! The steps seen, as "step#attempt" for the steps that concern one attempt.
    QStringList steps(quint64 id = 0) const
    {
        QStringList result;
        for (const Seen &s : seen) {
            if (id == 0 || s.id == id)
                result.append(s.attempt ? QStringLiteral("%1#%2").arg(s.step).arg(s.attempt)
                                        : s.step);
        }
        return result;
    }
    QList<quint64> ids() const
    {
        QList<quint64> result;
        for (const Seen &s : seen) {
            if (s.id && !result.contains(s.id))
                result.append(s.id);
        }
        return result;
    }

protected:
    void requestStarted(const DataClient::ManagedRequest &r) override
    {
        record(QStringLiteral("requestStarted"), r);
    }
    Decision beforeSend(const DataClient::ManagedRequest &r) override
    {
        record(QStringLiteral("beforeSend"), r);
        return decide ? decide(r) : Decision::Send;
    }
    void decorate(const DataClient::ManagedRequest &r, DataClient::Headers *added) override
    {
        record(QStringLiteral("decorate"), r);
        added->append(headers);
    }
    void attemptFailed(const DataClient::ManagedRequest &r, const DataClient::NetworkError &,
                       bool retrying) override
    {
        record(retrying ? QStringLiteral("attemptFailed(retrying)")
                        : QStringLiteral("attemptFailed"),
               r);
    }
    void answered(const DataClient::ManagedRequest &r) override
    {
        record(QStringLiteral("answered"), r);
    }
    void committed(const DataClient::ManagedRequest &r, const DataClient::ChangeSet &) override
    {
        record(QStringLiteral("committed"), r);
    }
    void failed(const DataClient::ManagedRequest &r, const DataClient::NetworkError &e) override
    {
        lastFailure = e;
        record(QStringLiteral("failed"), r);
    }
    void invalidated(const QStringList &) override
    {
        seen.append({QStringLiteral("invalidated"), 0, 0, {}});
    }
    void storeReset() override { seen.append({QStringLiteral("storeReset"), 0, 0, {}}); }

private:
    void record(const QString &step, const DataClient::ManagedRequest &r)
    {
        const bool perAttempt = step == u"beforeSend" || step == u"decorate"
            || step.startsWith(u"attemptFailed") || step == u"answered";
        seen.append({step, r.id(), perAttempt ? r.attempt() : 0, r.key()});
        if (step == throwAt) {
            if (throwNetworkError)
                throw DataClient::NetworkError(DataClient::NetworkError::Kind::InvalidRequest, 0,
                                               QStringLiteral("the recorder refuses"));
            throw std::runtime_error("the recorder broke");
        }
    }
};

class AppManagerTest : public VirtualTimeTest
{
    Q_OBJECT

protected:
    std::unique_ptr<DataClient::Testing::FakeRestApi> api;
    DataClient::Resource todos;

    void setUp() override
    {
        using namespace Qt::StringLiterals;
        api = std::make_unique<DataClient::Testing::FakeRestApi>(server.get());
        QVERIFY(api->addCollection(u"/todos"_s, ControllerFixture::seedTodos()));
        todos = DataClient::createResource({.path = u"/todos/:id"_s,
                                            .schema = ControllerFixture::todoSchema(),
                                            .urlPrefix = server->url(),
                                            .optimistic = true});
        QVERIFY(todos.isValid());
    }
    //! A read of /items that is not retried (a failure is final at once).
    DataClient::EndpointPtr once(int timeout = 30000) const
    {
        return endpoint("GET", DataClient::RetryPolicy {0, 100, 1000})
            ->extend({.timeout = timeout});
    }
    //! The value \a future resolved with; an invalid QVariant (and the error, logged) otherwise.
    static QVariant resolved(QFuture<QVariant> future)
    {
        const ControllerFixture::Outcome outcome = ControllerFixture::await(future);
        if (outcome.error)
            qWarning().noquote() << "failed:" << outcome.error->message();
        return outcome.value.value_or(QVariant());
    }
    //! A Recorder owned by the Controller (deleted with it, after it let its managers go).
    Recorder *recorder() { return new Recorder(controller.get()); }
    //! Holds every request but receivedExactly()'s sentinel (beforeSend() returns Hold).
    static void holdAll(Recorder &manager)
    {
        manager.decide = [](const DataClient::ManagedRequest &request) {
            return request.url().path() == QLatin1StringView("/sentinel")
                ? DataClient::Manager::Decision::Send
                : DataClient::Manager::Decision::Hold;
        };
    }
    //! Nothing loading for \a items (no stray loading state).
    bool atRest(const DataClient::EndpointPtr &items) const
    {
        return !controller->isLoading(items) && !controller->getResponse(items).loading;
    }
};
