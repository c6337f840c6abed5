// Testing::await and Testing::waitForStatus: the value, or a failed test that says
// why (the error, "canceled", the timeout) and where it was awaited — never a hang;
// Testing::awaitOutcome: how it ended, without failing.
#include "failurerecorder.h"

#include <DataClient/controller.h>
#include <DataClient/createresource.h>
#include <DataClient/testing/await.h>
#include <DataClient/testing/mocknetwork.h>
#include <DataClient/testing/outcome.h>

#include <QtCore/QJsonObject>
#include <QtCore/QPromise>
#include <QtCore/QTimer>
#include <QTest>

using namespace DataClient;
using namespace DataClient::Testing;
using namespace Qt::StringLiterals;

//! Anything with a status enum property, as CollectionModel and the QML FetchResult have.
class StatusHolder : public QObject
{
    Q_OBJECT
    Q_PROPERTY(Status status READ status NOTIFY statusChanged)

public:
    enum Status { Idle, Loading, Ready, Error };
    Q_ENUM(Status)

    Status status() const { return m_status; }
    void setStatus(Status status)
    {
        m_status = status;
        Q_EMIT statusChanged();
    }

Q_SIGNALS:
    void statusChanged();

private:
    Status m_status = Idle;
};

class tst_Await : public QObject
{
    Q_OBJECT

    const Resource todos = createResource({.path = u"/todos/:id"_s,
                                           .schema = Schema::entity(EntitySchema(u"Todo"_s)),
                                           .urlPrefix = u"http://api.test"_s,
                                           .retry = RetryPolicy::none()});

private Q_SLOTS:
    void returnsTheValue()
    {
        MockNetwork network({{.endpoint = todos.get,
                              .params = {{u"id"_s, 1}},
                              .response = QJsonObject {{u"id"_s, 1}}}});
        Controller controller(&network);
        const std::optional<QVariant> todo = await(controller.fetch(todos.get, {{u"id"_s, 1}}));
        QVERIFY(todo);
        QCOMPARE(todo->toMap().value(u"id"_s), QVariant(1));
        // A future that is already finished (makeReadyFuture() is deprecated since Qt 6.6).
        QPromise<int> ready;
        ready.start();
        ready.addResult(42);
        ready.finish();
        QCOMPARE(await(ready.future()), std::optional(42));
    }

    void aFailureFailsTheTestWithTheErrorAndWhere()
    {
        MockNetwork network({{.endpoint = todos.get,
                              .params = {{u"id"_s, 2}},
                              .response = QJsonObject {{u"message"_s, u"no such todo"_s}},
                              .status = 404}});
        Controller controller(&network);
        FailureRecorder recorder;
        const int line = __LINE__ + 1;
        const std::optional<QVariant> todo = await(controller.fetch(todos.get, {{u"id"_s, 2}}));
        QVERIFY(!todo);
        QCOMPARE(recorder.failures.size(), 1);
        QVERIFY2(recorder.last().contains(u"failed"_s) && recorder.last().contains(u"404"_s),
                 qPrintable(recorder.last()));
        QVERIFY2(recorder.last().contains(u"http://api.test/todos/2"_s),
                 qPrintable(recorder.last()));
        QVERIFY(recorder.failures.first().file.endsWith(u"tst_await.cpp"_s));
        QCOMPARE(recorder.failures.first().line, line);
    }

    void aCanceledFutureFailsWithCanceledNotAHang()
    {
        MockNetwork network({{.endpoint = todos.get,
                              .params = {{u"id"_s, 3}},
                              .response = QJsonObject {{u"id"_s, 3}},
                              .delayMs = 600'000}});
        Controller controller(&network);
        QFuture<QVariant> future = controller.fetch(todos.get, {{u"id"_s, 3}});
        // resetEntireStore() drops the answers of requests already started: canceled.
        QTimer::singleShot(0, &controller, [&] { controller.resetEntireStore(); });
        FailureRecorder recorder;
        QVERIFY(!await(future, 60'000));
        QCOMPARE(recorder.failures.size(), 1);
        QVERIFY2(recorder.last().contains(u"canceled"_s), qPrintable(recorder.last()));

        QPromise<int> promise;
        QFuture<int> plain = promise.future();
        promise.start();
        plain.cancel();
        promise.finish();
        QVERIFY(!await(plain, 60'000));
        QCOMPARE(recorder.failures.size(), 2);
        QVERIFY(recorder.last().contains(u"canceled"_s));
    }

    void aFutureThatNeverFinishesTimesOut()
    {
        QPromise<int> promise;
        promise.start();
        FailureRecorder recorder;
        QVERIFY(!await(promise.future(), 20));
        QCOMPARE(recorder.last(), u"Testing::await: the future did not finish within 20 ms"_s);
        promise.finish();
    }

    void withoutAHandlerTheTestFails()
    {
        QPromise<int> promise;
        promise.start();
        promise.setException(
            std::make_exception_ptr(NetworkError(NetworkError::Kind::Network, 0, u"boom"_s)));
        promise.finish();
        QEXPECT_FAIL("", "await fails the running test", Continue);
        QVERIFY(!await(promise.future()));
        QVERIFY(true); // XPASS here if no failure was reported
    }

    void awaitOutcomeSaysHowItEndedWithoutFailing()
    {
        MockNetwork network({{.endpoint = todos.get,
                              .params = {{u"id"_s, 4}},
                              .response = QJsonObject {{u"message"_s, u"no such todo"_s}},
                              .status = 404},
                             {.endpoint = todos.get,
                              .params = {{u"id"_s, 5}},
                              .response = QJsonObject {{u"id"_s, 5}}}});
        Controller controller(&network);
        FailureRecorder recorder;
        const Outcome<QVariant> refused = awaitOutcome(controller.fetch(todos.get, {{u"id"_s, 4}}));
        QVERIFY(refused.finished);
        QVERIFY(!refused.value);
        QVERIFY(refused.error);
        QCOMPARE(refused.error->status(), 404);
        const Outcome<QVariant> found = awaitOutcome(controller.fetch(todos.get, {{u"id"_s, 5}}));
        QVERIFY(found.finished && !found.error && !found.canceled());
        QCOMPARE(found.value->toMap().value(u"id"_s), QVariant(5));

        QPromise<int> canceled;
        canceled.start();
        canceled.future().cancel();
        canceled.finish();
        const Outcome<int> gone = awaitOutcome(canceled.future());
        QVERIFY(gone.canceled());

        QPromise<int> never;
        never.start();
        const Outcome<int> late = awaitOutcome(never.future(), 20);
        QVERIFY(!late.finished && !late.value && !late.error);
        never.finish();
        QVERIFY2(recorder.failures.isEmpty(), qPrintable(recorder.last()));
    }

    void waitForStatusWaitsOrSaysWhereItStayed()
    {
        StatusHolder holder;
        QTimer::singleShot(0, &holder, [&] { holder.setStatus(StatusHolder::Ready); });
        QVERIFY(waitForStatus(&holder, StatusHolder::Ready));

        holder.setStatus(StatusHolder::Loading);
        FailureRecorder recorder;
        QVERIFY(!waitForStatus(&holder, StatusHolder::Error, 20));
        QCOMPARE(
            recorder.last(),
            u"Testing::waitForStatus: StatusHolder stayed Loading for 20 ms; expected Error"_s);
        QObject noStatus;
        QVERIFY(!waitForStatus(&noStatus, 0, 20));
        QCOMPARE(recorder.last(), u"Testing::waitForStatus: QObject has no status property"_s);
    }
};

QTEST_GUILESS_MAIN(tst_Await)
#include "tst_await.moc"
