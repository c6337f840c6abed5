// Controller::fetch() against the in-process server: normalizing into the store, read
// de-duplication (and mutations never de-duplicated), loading state, errors (hard / soft) and
// bad input that must leave the store untouched.
#include "controllerfixture.h"

#include <QtNetwork/QNetworkAccessManager>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace ControllerFixture;
using namespace DataClient::Testing;

class tst_ControllerFetch : public BackendTest
{
    Q_OBJECT

private:
    int requests(const QByteArray &method, const QString &path) const
    {
        return int(backend->server.requests(method, path).size());
    }

private Q_SLOTS:
    void fetchNormalizesAndResolvesWithTheDenormalizedValue()
    {
        ChangeRecorder changes(controller.get());
        const Params args {{u"userId"_s, 1}};
        const Outcome outcome = await(controller->fetch(todos.getList, args));
        QVERIFY(outcome.value);
        QCOMPARE(ids(*outcome.value), (QList<int> {1, 2, 3}));
        QCOMPARE(outcome.value->toList().at(2).toMap().value(u"completed"_s).toBool(), true);

        // One commit, one signal, naming the entities, the collection and the result.
        QCOMPARE(changes.sets.size(), 1);
        const ChangeSet set = changes.sets.constFirst();
        QVERIFY(set.entities.contains(todoRef(1)));
        QVERIFY(set.entities.contains(todoRef(3)));
        QVERIFY(!set.entities.contains(todoRef(4)));
        QVERIFY(set.results.contains(todos.getList->key(args)));

        const ResponseState state = controller->getResponse(todos.getList, args);
        QVERIFY(state.found);
        QCOMPARE(state.status, ExpiryStatus::Valid);
        QVERIFY(!state.loading);
        QVERIFY(!state.error);
        QCOMPARE(ids(state.data), (QList<int> {1, 2, 3}));
        // Reading again without a change gives the identical shared value.
        const ResponseState again = controller->getResponse(todos.getList, args);
        QVERIFY(again.data.toList().constData() == state.data.toList().constData());
    }

    void twoReadsShareOneRequest()
    {
        QFuture<QVariant> first = controller->fetch(todos.getList, {{u"userId"_s, 2}});
        QFuture<QVariant> second = controller->fetch(todos.getList, {{u"userId"_s, 2}});
        const Outcome a = await(first);
        const Outcome b = await(second);
        QVERIFY(a.value && b.value);
        QCOMPARE(ids(*a.value), (QList<int> {4, 5}));
        QCOMPARE(ids(*b.value), (QList<int> {4, 5}));
        QCOMPARE(requests("GET", u"/todos"_s), 1);
        // Once answered, a new read sends a new request.
        QVERIFY(await(controller->fetch(todos.getList, {{u"userId"_s, 2}})).value);
        QCOMPARE(requests("GET", u"/todos"_s), 2);
    }

    void twoMutationsSendTwoRequests()
    {
        const Params id {{u"id"_s, 1}};
        QFuture<QVariant> first
            = controller->fetch(todos.partialUpdate, id, QJsonObject {{u"title"_s, u"a"_s}});
        QFuture<QVariant> second
            = controller->fetch(todos.partialUpdate, id, QJsonObject {{u"title"_s, u"a"_s}});
        QVERIFY(await(first).value);
        QVERIFY(await(second).value);
        QCOMPARE(requests("PATCH", u"/todos/1"_s), 2);
    }

    void aPageRequestNeverJoinsTheFirstPageRequest()
    {
        // Same cache key (pages merge into getList's result), different request URLs.
        QCOMPARE(todos.getList.getPage->key({{u"page"_s, 2}}), todos.getList->key({}));
        QFuture<QVariant> list = controller->fetch(todos.getList, {});
        QFuture<QVariant> page = controller->fetch(todos.getList.getPage, {{u"page"_s, 2}});
        QVERIFY(await(list).value);
        QVERIFY(await(page).value);
        QCOMPARE(requests("GET", u"/todos"_s), 2);
    }

    void loadingStateAndFetchStateChanged()
    {
        const Params id {{u"id"_s, 2}};
        const QString key = todos.get->key(id);
        QSignalSpy stateChanges(controller.get(), &Controller::fetchStateChanged);
        QFuture<QVariant> future = controller->fetch(todos.get, id);
        QVERIFY(controller->isLoading(todos.get, id));
        QVERIFY(controller->getResponse(todos.get, id).loading);
        QCOMPARE(stateChanges.size(), 1);
        QCOMPARE(stateChanges.at(0).at(0).toString(), key);
        // A joined read does not start loading again.
        controller->fetch(todos.get, id);
        QCOMPARE(stateChanges.size(), 1);
        QVERIFY(await(future).value);
        QVERIFY(!controller->isLoading(todos.get, id));
        QCOMPARE(stateChanges.size(), 2);
        QCOMPARE(stateChanges.at(1).at(0).toString(), key);
    }

    void hardErrorIsStoredAndHidesNothingElse()
    {
        QVERIFY(await(controller->fetch(todos.get, {{u"id"_s, 1}})).value);
        const Params missing {{u"id"_s, 99}};
        QSignalSpy stateChanges(controller.get(), &Controller::fetchStateChanged);
        ChangeRecorder changes(controller.get());
        const Outcome outcome = await(controller->fetch(todos.get, missing));
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->status(), 404);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::Http);
        QVERIFY(changes.sets.isEmpty()); // nothing was written

        const std::optional<NetworkError> stored = controller->getError(todos.get, missing);
        QVERIFY(stored);
        QCOMPARE(stored->status(), 404);
        const ResponseState state = controller->getResponse(todos.get, missing);
        QVERIFY(state.showsError());
        QVERIFY(!state.hasData());
        QCOMPARE(state.status, ExpiryStatus::Valid); // a fresh error: don't refetch yet
        // The other key is untouched.
        QVERIFY(!controller->getError(todos.get, {{u"id"_s, 1}}));
        QVERIFY(controller->getResponse(todos.get, {{u"id"_s, 1}}).hasData());
        QVERIFY(stateChanges.size() >= 2); // loading on, then off with the error
    }

    void softErrorKeepsExistingDataVisible()
    {
        const Params id {{u"id"_s, 4}};
        QVERIFY(await(controller->fetch(todos.get, id)).value);
        backend->api.failNext(1, 503);
        // Not retried (docs/networking.md): the 503 is the answer.
        const EndpointPtr once = todos.get->extend({.retry = RetryPolicy::none()});
        const Outcome outcome = await(controller->fetch(once, id));
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->status(), 503);

        const ResponseState state = controller->getResponse(todos.get, id);
        QVERIFY(state.error);
        QVERIFY(state.isSoftError());
        QVERIFY(state.hasData());
        QVERIFY(!state.showsError());
        QCOMPARE(field(state.data).value(u"title"_s).toString(), u"four"_s);

        // A later success clears the error.
        QVERIFY(await(controller->fetch(todos.get, id)).value);
        QVERIFY(!controller->getError(todos.get, id));
    }

    void networkFailureIsAnErrorWithStatusZero()
    {
        // Not retried: the refused connection is the answer (retries: tst_retry).
        const EndpointPtr unreachable = todos.get->extend(
            {.urlPrefix = u"http://127.0.0.1:1"_s, .retry = RetryPolicy::none()});
        const Outcome outcome = await(controller->fetch(unreachable, {{u"id"_s, 1}}));
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->status(), 0);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::Network);
        QVERIFY(controller->getResponse(unreachable, {{u"id"_s, 1}}).showsError());
    }

    void nullEndpointIsAClearErrorEverywhere()
    {
        ChangeRecorder changes(controller.get());
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"endpoint is null"_s));
        const Outcome outcome = await(controller->fetch(EndpointPtr(), {{u"id"_s, 1}}));
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::InvalidRequest);
        QVERIFY(outcome.error->message().contains(u"fetch"_s));
        QVERIFY(outcome.error->message().contains(u"endpoint is null"_s));

        const ResponseState state = controller->getResponse(EndpointPtr(), {});
        QVERIFY(state.error);
        QCOMPARE(state.status, ExpiryStatus::Invalid);
        QVERIFY(controller->getError(EndpointPtr(), {}));
        QVERIFY(!controller->isLoading(EndpointPtr(), {}));

        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"setResponse.*endpoint is null"_s));
        const StoreWrite write = controller->setResponse(EndpointPtr(), {}, QJsonArray());
        QVERIFY(write.error);
        QVERIFY(write.error->message().contains(u"endpoint is null"_s));
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"invalidate.*endpoint is null"_s));
        controller->invalidate(EndpointPtr(), {});
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"subscribe.*endpoint is null"_s));
        QVERIFY(!controller->subscribe(EndpointPtr(), {}));

        QVERIFY(changes.sets.isEmpty());
        QCOMPARE(backend->server.requestCount(), 0);
    }

    void missingParameterSendsNothingAndNamesIt()
    {
        ChangeRecorder changes(controller.get());
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"fetch.*\\bid\\b"_s));
        const Outcome outcome = await(controller->fetch(todos.get, {}));
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::InvalidRequest);
        QVERIFY2(outcome.error->message().contains(u"id"_s), qPrintable(outcome.error->message()));
        QCOMPARE(backend->server.requestCount(), 0);
        QVERIFY(changes.sets.isEmpty());
        QVERIFY(controller->store().resultKeys().isEmpty());

        // getPage without its page parameter: an error, nothing sent, getList's key untouched.
        const Outcome page = await(controller->fetch(todos.getList.getPage, {}));
        QVERIFY(page.error);
        QCOMPARE(page.error->kind(), NetworkError::Kind::InvalidRequest);
        QVERIFY2(page.error->message().contains(u"page"_s), qPrintable(page.error->message()));
        QCOMPARE(backend->server.requestCount(), 0);
        QVERIFY(!controller->getError(todos.getList, {}));
    }

    void responseThatDoesNotFitTheSchemaChangesNothing()
    {
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        const qsizetype entitiesBefore = controller->store().entityCount();
        const QVariant listBefore = controller->getResponse(todos.getList, {}).data;
        backend->server.route("GET", u"/broken"_s, [](const RecordedRequest &) {
            // The second item has no "id": no pk for Todo.
            return ServerResponse::json(
                QJsonArray {QJsonObject {{u"id"_s, 1}, {u"title"_s, u"x"_s}},
                            QJsonObject {{u"title"_s, u"no id"_s}}});
        });
        const EndpointPtr broken = todos.getList->extend({.path = u"/broken"_s});
        ChangeRecorder changes(controller.get());
        const Outcome outcome = await(controller->fetch(broken, {}));
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::InvalidResponse);
        QCOMPARE(outcome.error->status(), 400);
        QVERIFY2(outcome.error->message().contains(u"Todo"_s),
                 qPrintable(outcome.error->message()));
        QVERIFY2(outcome.error->message().contains(u"/broken"_s),
                 qPrintable(outcome.error->message()));
        QVERIFY(changes.sets.isEmpty());
        QCOMPARE(controller->store().entityCount(), entitiesBefore);
        QCOMPARE(controller->getResponse(todos.getList, {}).data, listBefore);
        QCOMPARE(field(controller->get(todoSchema(), {{u"id"_s, 1}}).data).value(u"title"_s),
                 QVariant(u"one"_s));
        QVERIFY(controller->getError(broken, {}));
    }

    void getOfAnEntityLoadedThroughAListNeedsNoRequest()
    {
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        backend->server.clearRequests();
        const ResponseState state = controller->getResponse(todos.get, {{u"id"_s, 2}});
        QVERIFY(state.found);
        QCOMPARE(state.status, ExpiryStatus::Valid);
        QCOMPARE(field(state.data).value(u"title"_s).toString(), u"two"_s);
        const Outcome outcome = await(controller->fetchIfStale(todos.get, {{u"id"_s, 2}}));
        QVERIFY(outcome.value);
        QCOMPARE(field(*outcome.value).value(u"title"_s).toString(), u"two"_s);
        QCOMPARE(backend->server.requestCount(), 0);
        // The entity table directly.
        QCOMPARE(field(controller->get(todoSchema(), {{u"id"_s, 3}}).data).value(u"title"_s),
                 QVariant(u"three"_s));
    }

    void getByAUniqueFieldOfAnEntityLoadedThroughAListNeedsNoRequest()
    {
        // Todo indexed by title: a get by title reads the stored todo, no request.
        const Schema indexed = Schema::entity(EntitySchema(u"Todo"_s)
                                                  .withNested(u"author"_s, userSchema())
                                                  .withIndexes({u"title"_s}));
        const EndpointPtr byTitle = RestEndpoint::create({.name = u"byTitle"_s,
                                                          .path = u"/todos/by-title/:title"_s,
                                                          .urlPrefix = backend->server.url(),
                                                          .schema = indexed});
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        backend->server.clearRequests();
        const ResponseState state = controller->getResponse(byTitle, {{u"title"_s, u"four"_s}});
        QVERIFY(state.found);
        QCOMPARE(field(state.data).value(u"id"_s).toInt(), 4);
        // the index follows a change of the field (an update through another endpoint)
        QVERIFY(await(controller->fetch(todos.update, {{u"id"_s, 4}},
                                        QJsonObject {{u"title"_s, u"quatre"_s}}))
                    .value);
        backend->server.clearRequests();
        QVERIFY(!controller->getResponse(byTitle, {{u"title"_s, u"four"_s}}).found);
        QCOMPARE(field(controller->getResponse(byTitle, {{u"title"_s, u"quatre"_s}}).data)
                     .value(u"id"_s)
                     .toInt(),
                 4);
        QCOMPARE(backend->server.requestCount(), 0);
    }

    void updateShowsInEveryViewWithoutARequest()
    {
        // Update, then get of that entity shows the new value with no new request.
        QVERIFY(await(controller->fetch(todos.getList, {{u"userId"_s, 2}})).value);
        const Outcome updated
            = await(controller->fetch(todos.update, {{u"id"_s, 5}},
                                      QJsonObject {{u"title"_s, u"never"_s}, {u"userId"_s, 2}}));
        QVERIFY(updated.value);
        QCOMPARE(field(*updated.value).value(u"title"_s).toString(), u"never"_s);
        backend->server.clearRequests();
        QCOMPARE(field(controller->getResponse(todos.get, {{u"id"_s, 5}}).data).value(u"title"_s),
                 QVariant(u"never"_s));
        const QVariantList list
            = controller->getResponse(todos.getList, {{u"userId"_s, 2}}).data.toList();
        QCOMPARE(list.size(), 2);
        QCOMPARE(list.at(1).toMap().value(u"title"_s), QVariant(u"never"_s));
        QCOMPARE(backend->server.requestCount(), 0);
    }

    void deleteResolvesWithTheParamsAndRemovesTheEntity()
    {
        // A 204 answer to a delete counts as the URL parameters.
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        ChangeRecorder changes(controller.get());
        const Outcome outcome = await(controller->fetch(todos.remove, {{u"id"_s, 5}}));
        QVERIFY(outcome.value);
        QCOMPARE(field(*outcome.value).value(u"id"_s).toString(), u"5"_s);
        QVERIFY(!controller->get(todoSchema(), {{u"id"_s, 5}}).found);
        QCOMPARE(ids(controller->getResponse(todos.getList, {}).data), (QList<int> {1, 2, 3, 4}));
        QVERIFY(changes.all().entities.contains(todoRef(5)));
    }

    void setResponseWritesWithoutARequest()
    {
        ChangeRecorder changes(controller.get());
        const StoreWrite write
            = controller->setResponse(todos.get, {{u"id"_s, 7}}, todo(7, 3, u"seven"_s));
        QVERIFY(write.ok());
        QVERIFY(write.changes.entities.contains(todoRef(7)));
        QCOMPARE(changes.sets.size(), 1);
        QCOMPARE(changes.sets.constFirst(), write.changes);
        const ResponseState state = controller->getResponse(todos.get, {{u"id"_s, 7}});
        QCOMPARE(state.status, ExpiryStatus::Valid);
        QCOMPARE(field(state.data).value(u"title"_s).toString(), u"seven"_s);

        // The same value again: a no-op, no signal.
        QVERIFY(controller->setResponse(todos.get, {{u"id"_s, 7}}, todo(7, 3, u"seven"_s)).ok());
        QCOMPARE(changes.sets.size(), 1);

        // A value that does not fit: the error, nothing written.
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"setResponse"_s));
        const StoreWrite bad = controller->setResponse(todos.get, {{u"id"_s, 8}},
                                                       QJsonObject {{u"title"_s, u"no pk"_s}});
        QVERIFY(bad.error);
        QVERIFY(bad.error->message().contains(u"Todo"_s));
        QVERIFY(!controller->get(todoSchema(), {{u"id"_s, 8}}).found);
        QCOMPARE(changes.sets.size(), 1);
    }

    void setResponseFromCompactJson()
    {
        const StoreWrite write = controller->setResponse(
            todos.getList, {{u"userId"_s, 9}},
            CompactJson::parse(R"([{"id":8,"userId":9,"title":"compact"}])"_ba));
        QVERIFY(write.ok());
        QVERIFY(write.changes.entities.contains(todoListRef({{u"userId"_s, 9}})));
        const ResponseState state = controller->getResponse(todos.getList, {{u"userId"_s, 9}});
        QCOMPARE(ids(state.data), (QList<int> {8}));
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"setResponse"_s));
        QVERIFY(controller->setResponse(todos.getList, {}, CompactJson::parse(R"([{}])"_ba)).error);
        QVERIFY(!controller->getResponse(todos.getList, {}).found);
    }

    void aLargeAnswerCommitsLikeAnyOther()
    {
        // 300 items: converted to the store's form on a worker before the commit.
        QJsonArray items;
        for (int id = 1; id <= 300; ++id)
            items.append(todo(id, 1, u"todo %1"_s.arg(id)));
        QVERIFY(backend->api.setCollection(u"/todos"_s, items));
        ChangeRecorder changes(controller.get());
        const Outcome outcome = await(controller->fetch(todos.getList, {}));
        QVERIFY(outcome.value);
        QCOMPARE(outcome.value->toList().size(), 300);
        QCOMPARE(outcome.value->toList().at(299).toMap().value(u"title"_s).toString(),
                 u"todo 300"_s);
        QCOMPARE(changes.sets.size(), 1);
        QCOMPARE(changes.sets.constFirst().entities.size(), 301); // 300 todos + the list
        QVERIFY(!controller->isLoading(todos.getList, {}));
        QCOMPARE(controller->getResponse(todos.getList, {}).status, ExpiryStatus::Valid);
    }

    void setErrorIsReportedLikeAFailedRequest()
    {
        QSignalSpy stateChanges(controller.get(), &Controller::fetchStateChanged);
        controller->setError(todos.get, {{u"id"_s, 1}},
                             NetworkError(NetworkError::Kind::Http, 418, u"teapot"_s));
        QCOMPARE(stateChanges.size(), 1);
        const ResponseState state = controller->getResponse(todos.get, {{u"id"_s, 1}});
        QVERIFY(state.showsError());
        QCOMPARE(state.error->status(), 418);
    }

    void controllersAreIndependent()
    {
        QNetworkAccessManager network;
        Controller other(&network);
        QCOMPARE(other.networkAccessManager(), &network);
        QVERIFY(controller->networkAccessManager() != &network);
        QVERIFY(await(other.fetch(todos.getList, {})).value);
        QVERIFY(other.getResponse(todos.getList, {}).found);
        QVERIFY(!controller->getResponse(todos.getList, {}).found);
        QCOMPARE(controller->getResponse(todos.getList, {}).status, ExpiryStatus::Invalid);
    }
};

QTEST_GUILESS_MAIN(tst_ControllerFetch)
#include "tst_controller_fetch.moc"
