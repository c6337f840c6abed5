// HTTP validators (docs/networking.md): a refetch sends the stored ETag and
// Last-Modified back, a 304 keeps the stored result (expiry renewed, no model or store signal),
// the option `validators: false` sends nothing, and the bad cases: a 304 with nothing stored or
// to a request without validators refetches once without them, never showing or storing empty.
#include "controllerfixture.h"

#include <DataClient/collectionmodel.h>
#include <DataClient/restendpoint.h>

#include <QtNetwork/QNetworkAccessManager>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace ControllerFixture;
using namespace DataClient::Testing;

namespace {

//! A list that answers with an ETag and a Last-Modified, and 304 when asked with the current
//! ETag (as a real server does); its version changes when the test edits it.
struct VersionedList
{
    int version = 1;
    QJsonArray items = seedTodos();
    //! The next this many requests are answered 304 whatever they ask (a broken proxy).
    int forcedNotModified = 0;
    //! The status of the answers with a body.
    int status = 200;
    //! false: a server that sends Last-Modified only (and compares If-Modified-Since).
    bool withETag = true;

    QByteArray etag() const { return "\"v" + QByteArray::number(version) + '"'; }
    QByteArray lastModified() const
    {
        return "Tue, 24 Nov 2026 10:00:" + QByteArray::number(10 + version) + " GMT";
    }
    ServerResponse answer(const RecordedRequest &request)
    {
        const bool forced = forcedNotModified > 0;
        forcedNotModified -= forced ? 1 : 0;
        const bool unchanged = withETag ? request.header("if-none-match") == etag()
                                        : request.header("if-modified-since") == lastModified();
        ServerResponse reply;
        reply.status = 304;
        if (!forced && !unchanged)
            reply = ServerResponse::json(items, status).withHeader("Last-Modified", lastModified());
        return withETag ? reply.withHeader("ETag", etag()) : reply;
    }
};

//! Counts what a view would react to: row and data signals, and the `data`/`count` properties.
struct ModelSignals
{
    explicit ModelSignals(CollectionModel *model)
    {
        const auto count = [this] { ++total; };
        QObject::connect(model, &QAbstractItemModel::dataChanged, model, count);
        QObject::connect(model, &QAbstractItemModel::rowsInserted, model, count);
        QObject::connect(model, &QAbstractItemModel::rowsRemoved, model, count);
        QObject::connect(model, &QAbstractItemModel::rowsMoved, model, count);
        QObject::connect(model, &QAbstractItemModel::modelReset, model, count);
        QObject::connect(model, &QAbstractItemModel::layoutChanged, model, count);
        QObject::connect(model, &CollectionModel::valueChanged, model, count);
        QObject::connect(model, &CollectionModel::countChanged, model, count);
    }
    int total = 0;
};

// The custom hooks of docs/hooks.md, recording what they saw.
class RecordingEndpoint : public EndpointBase<RecordingEndpoint>
{
public:
    using EndpointBase::EndpointBase;
    mutable QList<QByteArray> ifNoneMatchSeen;
    mutable int parses = 0;

    QFuture<Response> fetchResponse(QNetworkAccessManager *network, const QUrl &url,
                                    const RequestInit &init) const override
    {
        ifNoneMatchSeen.append(init.header("if-none-match"));
        return RestEndpoint::fetchResponse(network, url, init);
    }
    QJsonValue parseResponse(const Response &response) const override
    {
        ++parses;
        return RestEndpoint::parseResponse(response);
    }
};

} // namespace

class tst_Validators : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TestServer> server;
    std::unique_ptr<Controller> controller;
    VersionedList list;
    Resource todos;
    qint64 clock = 1'700'000'000'000;

    QList<RecordedRequest> sent() const { return server->requests("GET", u"/todos"_s); }
    QByteArray ifNoneMatch(qsizetype request) const
    {
        return sent().value(request).header("if-none-match");
    }
    Resource resource(ResourceOptions options = {}) const
    {
        options.path = u"/todos/:id"_s;
        options.schema = todoSchema();
        options.urlPrefix = server->url();
        options.paginationField = u"page"_s;
        // One request per fetch: the errors these tests inject are answers to look at, not
        // failures to retry (retries: tst_retry).
        if (!options.retry)
            options.retry = RetryPolicy::none();
        return createResource(options);
    }

private Q_SLOTS:
    void init()
    {
        server = std::make_unique<TestServer>();
        QVERIFY(server->listen());
        list = VersionedList();
        server->route("GET", u"/todos"_s,
                      [this](const RecordedRequest &request) { return list.answer(request); });
        todos = resource();
        controller = std::make_unique<Controller>();
        controller->setClock([this] { return clock; });
    }
    void cleanup()
    {
        controller.reset();
        server.reset();
    }

    void refetchSendsTheStoredValidators()
    {
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        QVERIFY(!sent().at(0).hasHeader("if-none-match"));
        QVERIFY(!sent().at(0).hasHeader("if-modified-since"));

        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        QCOMPARE(sent().size(), 2);
        QCOMPARE(ifNoneMatch(1), list.etag());
        QCOMPARE(sent().at(1).header("if-modified-since"), list.lastModified());
    }

    void notModifiedKeepsTheResultSilentlyAndRenewsItsExpiry()
    {
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        CollectionModel model(controller.get(), todos.getList, {});
        QTRY_COMPARE(model.status(), CollectionModel::Ready);
        QCOMPARE(model.rowCount(), 5);
        const QVariant before = controller->getResponse(todos.getList, {}).data;

        clock += 60001; // stale: the model refetches it
        ModelSignals modelSignals(&model);
        QSignalSpy storeChanges(controller.get(), &Controller::changed);
        const Outcome outcome = await(controller->fetch(todos.getList, {}));

        QVERIFY(outcome.value);
        QCOMPARE(ids(*outcome.value), (QList<int> {1, 2, 3, 4, 5}));
        QCOMPARE(sent().size(), 2);
        QCOMPARE(ifNoneMatch(1), list.etag());
        QCOMPARE(storeChanges.size(), 0);
        QCOMPARE(modelSignals.total, 0);
        const ResponseState after = controller->getResponse(todos.getList, {});
        QCOMPARE(after.status, ExpiryStatus::Valid);
        QCOMPARE(after.fetchedAt, clock);
        QCOMPARE(after.expiresAt, clock + 60000);
        QVERIFY(!after.loading);
        QCOMPARE(after.data, before);
        QCOMPARE(model.rowCount(), 5);
    }

    void lastModifiedAloneIsEnough()
    {
        list.withETag = false;
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        QSignalSpy storeChanges(controller.get(), &Controller::changed);
        clock += 1000;
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        QVERIFY(!sent().at(1).hasHeader("if-none-match"));
        QCOMPARE(sent().at(1).header("if-modified-since"), list.lastModified());
        QCOMPARE(storeChanges.size(), 0); // answered 304
        QCOMPARE(controller->getResponse(todos.getList, {}).fetchedAt, clock);
    }

    void aChangedListAnswers200WithNewValidators()
    {
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        list.version = 2;
        list.items.removeLast();
        const Outcome outcome = await(controller->fetch(todos.getList, {}));
        QVERIFY(outcome.value);
        QCOMPARE(ids(*outcome.value), (QList<int> {1, 2, 3, 4}));
        QCOMPARE(ifNoneMatch(1), "\"v1\"");

        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        QCOMPARE(ifNoneMatch(2), "\"v2\"");
    }

    // RFC 9111 section 4.3.4: a 304 whose strong ETag is not the stored one confirms nothing;
    // the list is asked for again without validators, and the answer's ETag is remembered.
    void aNotModifiedNamingAnotherVersionIsNotUsed()
    {
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        list.version = 2;
        list.items.removeLast();
        server->route("GET", u"/todos"_s, [this](const RecordedRequest &request) {
            ServerResponse answer = list.answer(request);
            if (request.header("if-none-match") == "\"v1\"") { // a cache that lost its copy
                answer = ServerResponse::noContent();
                answer.status = 304;
                answer.withHeader("ETag", list.etag());
            }
            return answer;
        });
        const Outcome outcome = await(controller->fetch(todos.getList, {}));
        QVERIFY(outcome.value);
        QCOMPARE(ids(*outcome.value), (QList<int> {1, 2, 3, 4}));
        QCOMPARE(sent().size(), 3);
        QCOMPARE(ifNoneMatch(1), "\"v1\"");
        QVERIFY(!sent().at(2).hasHeader("if-none-match"));
        QCOMPARE(ids(controller->getResponse(todos.getList, {}).data), (QList<int> {1, 2, 3, 4}));

        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        QCOMPARE(ifNoneMatch(3), "\"v2\"");
    }

    // A 304 that confirms the stored version updates the validators it carries (RFC 9111
    // section 3.2): the next request sends the new Last-Modified.
    void aNotModifiedUpdatesTheValidators()
    {
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        server->route("GET", u"/todos"_s, [this](const RecordedRequest &request) {
            return list.answer(request).withHeader("Last-Modified",
                                                   "Wed, 25 Nov 2026 08:00:00 GMT");
        });
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        QCOMPARE(sent().size(), 2); // answered 304, kept
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        QCOMPARE(ifNoneMatch(2), list.etag());
        QCOMPARE(sent().at(2).header("if-modified-since"), "Wed, 25 Nov 2026 08:00:00 GMT");
    }

    void optedOutEndpointsSendNoValidators()
    {
        const Resource plain = resource({.validators = false});
        QVERIFY(!plain.getList->validators());
        QVERIFY(await(controller->fetch(plain.getList, {})).value);
        QVERIFY(await(controller->fetch(plain.getList, {})).value);
        QCOMPARE(sent().size(), 2);
        for (const RecordedRequest &request : sent()) {
            QVERIFY(!request.hasHeader("if-none-match"));
            QVERIFY(!request.hasHeader("if-modified-since"));
        }
        QVERIFY(todos.getList->validators()); // the default
    }

    void notModifiedWithNothingStoredRefetchesWithoutValidators()
    {
        // The first answer is a 304 to a request that named no version: asked again.
        list.forcedNotModified = 1;
        QSignalSpy states(controller.get(), &Controller::fetchStateChanged);
        const Outcome outcome = await(controller->fetch(todos.getList, {}));
        QVERIFY(outcome.value);
        QCOMPARE(ids(*outcome.value), (QList<int> {1, 2, 3, 4, 5}));
        QCOMPARE(sent().size(), 2);
        QVERIFY(!sent().at(1).hasHeader("if-none-match"));
        // Loading from the first request to the end of the second: no idle moment in between.
        QCOMPARE(states.size(), 2);
        QCOMPARE(controller->getResponse(todos.getList, {}).status, ExpiryStatus::Valid);
    }

    void notModifiedAgainFailsWithoutStoringEmpty()
    {
        list.forcedNotModified = 2;
        QSignalSpy storeChanges(controller.get(), &Controller::changed);
        const Outcome outcome = await(controller->fetch(todos.getList, {}));
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->status(), 304);
        QVERIFY2(outcome.error->message().contains(u"also when asked again without validators"_s),
                 qPrintable(outcome.error->message()));
        QCOMPARE(sent().size(), 2); // once only
        QCOMPARE(storeChanges.size(), 0);
        QVERIFY(!controller->store().hasResult(todos.getList->key({})));
        QVERIFY(!controller->getResponse(todos.getList, {}).hasData());
    }

    void notModifiedAfterInvalidateRefetchesWithoutValidators()
    {
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        DeferredReplies deferred;
        deferred.install(*server, "GET", u"/todos"_s);
        QFuture<QVariant> refetch = controller->fetch(todos.getList, {});
        QVERIFY(deferred.waitFor(1));
        QCOMPARE(deferred.pending.at(0).request.header("if-none-match"), list.etag());
        controller->invalidate(todos.getList, {}); // the stored result is gone meanwhile
        deferred.pending.at(0).responder.send(list.answer(deferred.pending.at(0).request));
        QVERIFY(deferred.waitFor(2));
        QVERIFY(!deferred.pending.at(1).request.hasHeader("if-none-match"));
        deferred.pending.at(1).responder.send(list.answer(deferred.pending.at(1).request));
        const Outcome outcome = await(refetch);
        QVERIFY(outcome.value);
        QCOMPARE(ids(*outcome.value), (QList<int> {1, 2, 3, 4, 5}));
        QVERIFY(controller->getResponse(todos.getList, {}).hasData());
    }

    void resetAndInvalidateForgetTheValidators()
    {
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        controller->resetEntireStore();
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        QVERIFY(!sent().at(1).hasHeader("if-none-match"));

        controller->invalidate(todos.getList, {});
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        QVERIFY(!sent().at(2).hasHeader("if-none-match"));

        controller->invalidateAll([](const QString &) { return true; });
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        QVERIFY(!sent().at(3).hasHeader("if-none-match"));
        // expireAll() keeps the data, and so its validators: the refetch is conditional.
        controller->expireAll([](const QString &) { return true; });
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        QCOMPARE(ifNoneMatch(4), list.etag());
    }

    void aResultWrittenByHandDropsTheValidators()
    {
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        QVERIFY(
            controller->setResponse(todos.getList, {}, QJsonArray {todo(9, 1, u"local"_s)}).ok());
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        QVERIFY(!sent().at(1).hasHeader("if-none-match"));
    }

    void validatorsOfErrorsAreNotKept()
    {
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        const QByteArray stored = list.etag();
        list.version = 2;
        list.status = 500; // an error that carries an ETag of its own
        QVERIFY(await(controller->fetch(todos.getList, {})).error);
        list.status = 200;
        list.version = 3;
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        QCOMPARE(ifNoneMatch(2), stored);

        // A 2xx body that does not fit the schema is an error too.
        list.version = 4;
        list.items = QJsonArray {u"not a todo"_s};
        QVERIFY(await(controller->fetch(todos.getList, {})).error);
        list.items = seedTodos();
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        QCOMPARE(ifNoneMatch(4), "\"v3\"");
    }

    void theEndpointsOwnIfNoneMatchWins()
    {
        const Resource custom = resource({.headers = {{"If-None-Match", "\"mine\""}}});
        QVERIFY(await(controller->fetch(custom.getList, {})).value);
        QVERIFY(await(controller->fetch(custom.getList, {})).value);
        const RecordedRequest second = sent().at(1);
        QCOMPARE(second.header("if-none-match"), "\"mine\""); // one value, not doubled
        QVERIFY(!second.hasHeader("if-modified-since"));
    }

    void customHooksSeeTheValidatorsAndNo304Body()
    {
        const Resource hooked = resource({.endpoint = endpointFactory<RecordingEndpoint>()});
        const auto *endpoint = dynamic_cast<const RecordingEndpoint *>(hooked.getList.operator->());
        QVERIFY(endpoint);
        QVERIFY(!endpoint->answersOffThread()); // the hooks run: fetch(), not fetchCompact()
        QVERIFY(await(controller->fetch(hooked.getList, {})).value);
        QCOMPARE(endpoint->parses, 1);
        QSignalSpy storeChanges(controller.get(), &Controller::changed);
        const Outcome outcome = await(controller->fetch(hooked.getList, {}));
        QVERIFY(outcome.value);
        QCOMPARE(ids(*outcome.value), (QList<int> {1, 2, 3, 4, 5}));
        // fetchResponse() saw the validators in its init; parseResponse() never saw the 304.
        QCOMPARE(endpoint->ifNoneMatchSeen, (QList<QByteArray> {QByteArray(), list.etag()}));
        QCOMPARE(endpoint->parses, 1);
        QCOMPARE(storeChanges.size(), 0);
    }

    void pagesSendNoValidators()
    {
        // The route answers every page alike, with the list's ETag.
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        QVERIFY(await(controller->fetch(todos.getList.getPage, {{u"page"_s, 2}})).value);
        QVERIFY(await(controller->fetch(todos.getList.getPage, {{u"page"_s, 2}})).value);
        QCOMPARE(sent().size(), 3);
        QVERIFY(!sent().at(1).hasHeader("if-none-match"));
        QVERIFY(!sent().at(2).hasHeader("if-none-match"));
    }

    void directFetchIsUnconditional()
    {
        // Without a context that carries validators, nothing is sent or remembered.
        QNetworkAccessManager network;
        QFuture<QJsonValue> first = todos.getList->fetch(&network, {});
        QTRY_VERIFY(first.isFinished());
        QFuture<QJsonValue> second = todos.getList->fetch(&network, {});
        QTRY_VERIFY(second.isFinished());
        QCOMPARE(sent().size(), 2);
        QVERIFY(!sent().at(1).hasHeader("if-none-match"));
    }
};

QTEST_GUILESS_MAIN(tst_Validators)
#include "tst_validators.moc"
