// RestEndpoint::fetchCompact(): the answer as CompactJson, a large body parsed on a worker thread;
// the same value and the same errors as fetch(); custom hooks keep running on this thread.
#include "logcapture.h"
#include "restfixture.h"
#include "servertest.h"

#include <DataClient/restendpoint.h>
#include <DataClient/rowlist.h>
#include <DataClient/store.h>
#include <DataClient/private/storelayers_p.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QThread>
#include <QtCore/QThreadPool>
#include <QTest>

#include <memory>
#include <optional>

using namespace DataClient;
using namespace DataClient::Testing;
using namespace Qt::StringLiterals;

namespace {

//! \a count todos with a nested author, about 100 bytes each.
QByteArray todosBody(int count)
{
    QJsonArray list;
    for (int i = 1; i <= count; ++i) {
        list.append(QJsonObject {{u"id"_s, i},
                                 {u"title"_s, u"todo number %1 with some text"_s.arg(i)},
                                 {u"author"_s, QJsonObject {{u"id"_s, i % 7}}}});
    }
    return QJsonDocument(list).toJson(QJsonDocument::Compact);
}

Schema todoList()
{
    const Schema user = Schema::entity(EntitySchema(u"User"_s));
    return Schema::collection(
        Schema::array(Schema::entity(EntitySchema(u"Todo"_s).withNested(u"author"_s, user))));
}

using RestFixture::Outcome;

// Large bodies under sanitizers take longer than the fixture's default wait.
template<typename T> Outcome<T> await(QFuture<T> future)
{
    return RestFixture::await(std::move(future), 30000);
}

//! Overrides both hooks: they must see the QJsonValue, on the thread that called fetch.
class HookedEndpoint : public EndpointBase<HookedEndpoint>
{
public:
    using EndpointBase::EndpointBase;
    QJsonValue parseResponse(const Response &response) const override
    {
        parseThread = QThread::currentThread();
        return RestEndpoint::parseResponse(response);
    }
    QJsonValue process(const QJsonValue &value, const Params &params) const override
    {
        processThread = QThread::currentThread();
        processedItems = value.toArray().size();
        return RestEndpoint::process(value, params);
    }
    mutable QThread *parseThread = nullptr;
    mutable QThread *processThread = nullptr;
    mutable qsizetype processedItems = -1;
};

} // namespace

class tst_RestCompact : public ServerTest
{
    Q_OBJECT

    EndpointOptions options(const QString &path, const Schema &schema = todoList()) const
    {
        EndpointOptions o;
        o.path = path;
        o.urlPrefix = server.url();
        o.schema = schema;
        return o;
    }

private Q_SLOTS:
    void largeBodyIsParsedOnAWorkerToTheSameValue()
    {
        const QByteArray body = todosBody(1000);
        QVERIFY(body.size() >= RestEndpoint::OffThreadBodySize);
        server.route("GET", u"/todos"_s, [body](const RecordedRequest &) {
            return ServerResponse::raw(body, "application/json");
        });
        const EndpointPtr endpoint = RestEndpoint::create(options(u"/todos"_s));
        QVERIFY(endpoint->answersOffThread());
        LogCapture log;
        const auto compact = await(endpoint->fetchCompact(&network, {}));
        QCOMPARE(log.count(u"bytes off the GUI thread"_s), 1);
        QVERIFY(compact.value);
        QVERIFY(compact.value->parsedOffThread);
        const auto plain = await(endpoint->fetch(&network, {}));
        QVERIFY(plain.value);
        QCOMPARE(compact.value->value.toJsonValue(), *plain.value);
        QCOMPARE(compact.value->value.size(), 1000);
    }

    // ParseAndPrepare: the worker that parsed a large answer also normalizes it, with the
    // store's arguments (the page field dropped); committing that write equals setResponse().
    void parseAndPrepareNormalizesOnTheSameWorker_data()
    {
        QTest::addColumn<int>("todos");
        QTest::addColumn<bool>("pkFunction"); // a C++ pk function: may not run off the GUI thread
        QTest::addColumn<int>("work");
        QTest::addColumn<bool>("prepared");
        QTest::newRow("large, plain schema")
            << 1000 << false << int(CompactAnswer::ParseAndPrepare) << true;
        QTest::newRow("large, Parse only") << 1000 << false << int(CompactAnswer::Parse) << false;
        QTest::newRow("small: parsed here")
            << 3 << false << int(CompactAnswer::ParseAndPrepare) << false;
        QTest::newRow("a pk function")
            << 1000 << true << int(CompactAnswer::ParseAndPrepare) << false;
    }
    void parseAndPrepareNormalizesOnTheSameWorker()
    {
        QFETCH(int, todos);
        QFETCH(bool, pkFunction);
        QFETCH(int, work);
        QFETCH(bool, prepared);
        server.route("GET", u"/todos"_s, [todos](const RecordedRequest &) {
            return ServerResponse::raw(todosBody(todos), "application/json");
        });
        EntitySchema todo(u"Todo"_s);
        if (pkFunction)
            todo = todo.withPrimaryKey(
                [](const QJsonObject &o) { return o.value(u"id"_s).toVariant().toString(); });
        const Schema schema = Schema::collection(Schema::array(Schema::entity(todo)));
        EndpointOptions o = options(u"/todos"_s, schema);
        o.paginationField = u"page"_s;
        const EndpointPtr endpoint = RestEndpoint::create(o);
        const Params params {{u"userId"_s, 1}, {u"page"_s, 2}};
        QCOMPARE(endpoint->storeArguments(params), (Params {{u"userId"_s, 1}}));
        LogCapture log;
        const auto compact
            = await(endpoint->fetchCompact(&network, params, {}, {}, CompactAnswer::Work(work)));
        QVERIFY(compact.value);
        QCOMPARE(bool(compact.value->prepared), prepared);
        QCOMPARE(log.contains(u"normalizing off the GUI thread"_s), prepared);
        if (!prepared)
            return;
        QVERIFY(compact.value->prepared->ok());
        Store fromWorker;
        const StoreWrite write = StoreLayers::commit(
            fromWorker, u"k"_s, std::move(*compact.value->prepared), Meta {1, 1, 60000});
        QVERIFY(write.ok());
        Store here;
        QVERIFY(here.setResponse(u"k"_s, schema, {{u"userId"_s, 1}}, compact.value->value,
                                 Meta {1, 1, 60000})
                    .ok());
        const Denormalized a = fromWorker.denormalize(u"k"_s, schema, {{u"userId"_s, 1}});
        const Denormalized b = here.denormalize(u"k"_s, schema, {{u"userId"_s, 1}});
        QVERIFY(a.found);
        QCOMPARE(rowsOf(a.data).size(), todos);
        QCOMPARE(a.data, b.data); // the same rows (Records compare by their data)
    }

    // A body the schema refuses: the worker's prepared write carries the error, as
    // StoreLayers::prepare() here would; committing it writes nothing.
    void parseAndPrepareOfAMismatchCarriesTheError()
    {
        const QByteArray body
            = QJsonDocument(QJsonObject {{u"not"_s, u"a list"_s}, {u"pad"_s, QString(40000, u'x')}})
                  .toJson(QJsonDocument::Compact);
        server.route("GET", u"/todos"_s, [body](const RecordedRequest &) {
            return ServerResponse::raw(body, "application/json");
        });
        const EndpointPtr endpoint = RestEndpoint::create(options(u"/todos"_s));
        const auto compact
            = await(endpoint->fetchCompact(&network, {}, {}, {}, CompactAnswer::ParseAndPrepare));
        QVERIFY(compact.value);
        QVERIFY(compact.value->prepared);
        QVERIFY(!compact.value->prepared->ok());
        QVERIFY(compact.value->prepared->error());
        Store store;
        const StoreWrite write = StoreLayers::commit(
            store, u"k"_s, std::move(*compact.value->prepared), Meta {1, 1, 60000});
        QVERIFY(!write.ok());
        QCOMPARE(store.entityCount(), 0);
    }

    void smallBodyIsParsedHere()
    {
        server.route("GET", u"/todos"_s, [](const RecordedRequest &) {
            return ServerResponse::raw(todosBody(3), "application/json");
        });
        const EndpointPtr endpoint = RestEndpoint::create(options(u"/todos"_s));
        const auto compact = await(endpoint->fetchCompact(&network, {}));
        QVERIFY(compact.value);
        QVERIFY(!compact.value->parsedOffThread);
        QCOMPARE(compact.value->value.toJsonValue(), QJsonDocument::fromJson(todosBody(3)).array());
    }

    void malformedLargeBodyFailsLikeFetch()
    {
        QByteArray body = todosBody(1000);
        body.chop(40); // cut inside the last object
        server.route("GET", u"/todos"_s, [body](const RecordedRequest &) {
            return ServerResponse::raw(body, "application/json");
        });
        const EndpointPtr endpoint = RestEndpoint::create(options(u"/todos"_s));
        const auto compact = await(endpoint->fetchCompact(&network, {}));
        const auto plain = await(endpoint->fetch(&network, {}));
        QVERIFY(compact.error);
        QVERIFY(plain.error);
        QCOMPARE(compact.error->kind(), NetworkError::Kind::InvalidResponse);
        QCOMPARE(compact.error->status(), 400);
        QVERIFY2(compact.error->message().contains(u"the response is not valid JSON"_s),
                 qPrintable(compact.error->message()));
        QVERIFY2(compact.error->message().contains(u"at offset"_s),
                 qPrintable(compact.error->message()));
        QCOMPARE(compact.error->message(), plain.error->message());
    }

    void largeTextBodyForASchemaFails()
    {
        const QByteArray body(RestEndpoint::OffThreadBodySize + 10, 'x');
        server.route("GET", u"/todos"_s, [body](const RecordedRequest &) {
            return ServerResponse::raw(body, "text/plain");
        });
        const EndpointPtr endpoint = RestEndpoint::create(options(u"/todos"_s));
        const auto compact = await(endpoint->fetchCompact(&network, {}));
        QVERIFY(compact.error);
        QVERIFY2(compact.error->message().contains(u"unexpected text response"_s),
                 qPrintable(compact.error->message()));
        QVERIFY(compact.error->message().contains(u"The body starts with: xxxx"_s));
    }

    void largeTextBodyWithoutSchemaIsAString()
    {
        const QByteArray body(RestEndpoint::OffThreadBodySize + 10, 'y');
        server.route("GET", u"/text"_s, [body](const RecordedRequest &) {
            return ServerResponse::raw(body, "text/plain");
        });
        const EndpointPtr endpoint = RestEndpoint::create(options(u"/text"_s, Schema()));
        const auto compact = await(endpoint->fetchCompact(&network, {}));
        QVERIFY(compact.value);
        QVERIFY(!compact.value->parsedOffThread);
        QCOMPARE(compact.value->value.toJsonValue(), QJsonValue(QString::fromLatin1(body)));
    }

    void emptyAndNoContentAreNull()
    {
        server.route("GET", u"/empty"_s, [](const RecordedRequest &) {
            return ServerResponse::raw({}, "application/json");
        });
        server.route("DELETE", u"/todos/:id"_s,
                     [](const RecordedRequest &) { return ServerResponse::noContent(); });
        EndpointOptions del = options(u"/todos/:id"_s);
        del.method = "DELETE";
        for (const auto &[endpoint, params] :
             {std::pair {RestEndpoint::create(options(u"/empty"_s)), Params {}},
              std::pair {RestEndpoint::create(del), Params {{u"id"_s, 1}}}}) {
            const auto compact = await(endpoint->fetchCompact(&network, params));
            QVERIFY(compact.value);
            QCOMPARE(compact.value->value.toJsonValue(), QJsonValue(QJsonValue::Null));
        }
    }

    void errorStatusFailsBeforeParsing()
    {
        server.route("GET", u"/todos"_s, [](const RecordedRequest &) {
            return ServerResponse::raw(todosBody(1000), "application/json", 500);
        });
        const auto compact
            = await(RestEndpoint::create(options(u"/todos"_s))->fetchCompact(&network, {}));
        QVERIFY(compact.error);
        QCOMPARE(compact.error->status(), 500);
    }

    void cppHooksGetTheirJsonValueOnThisThread()
    {
        const QByteArray body = todosBody(1000);
        server.route("GET", u"/todos"_s, [body](const RecordedRequest &) {
            return ServerResponse::raw(body, "application/json");
        });
        const auto endpoint = std::make_shared<HookedEndpoint>(options(u"/todos"_s));
        QVERIFY(!endpoint->answersOffThread());
        const auto compact = await(endpoint->fetchCompact(&network, {}));
        QVERIFY(compact.value);
        QVERIFY(!compact.value->parsedOffThread);
        QCOMPARE(endpoint->parseThread, QThread::currentThread());
        QCOMPARE(endpoint->processThread, QThread::currentThread());
        QCOMPARE(endpoint->processedItems, 1000);
        QCOMPARE(compact.value->value.size(), 1000);
    }

    void processOptionKeepsTheAnswerOnThisThread()
    {
        server.route("GET", u"/todos"_s, [](const RecordedRequest &) {
            return ServerResponse::raw(todosBody(1000), "application/json");
        });
        EndpointOptions o = options(u"/todos"_s);
        QThread *ranOn = nullptr;
        o.process = [&ranOn](const QJsonValue &value, const Params &) {
            ranOn = QThread::currentThread();
            const QJsonArray all = value.toArray();
            return QJsonValue(QJsonArray {all.at(0), all.at(1)});
        };
        const EndpointPtr endpoint = RestEndpoint::create(o);
        QVERIFY(!endpoint->answersOffThread());
        const auto compact = await(endpoint->fetchCompact(&network, {}));
        QVERIFY(compact.value);
        QCOMPARE(ranOn, QThread::currentThread());
        QCOMPARE(compact.value->value.size(), 2);
    }

    void endpointDestroyedWhileTheWorkerParses()
    {
        const QByteArray body = todosBody(5000);
        server.route("GET", u"/todos"_s, [body](const RecordedRequest &) {
            return ServerResponse::raw(body, "application/json");
        });
        LogCapture log;
        EndpointPtr endpoint = RestEndpoint::create(options(u"/todos"_s));
        QFuture<CompactAnswer> future = endpoint->fetchCompact(&network, {});
        // Once the body is handed to the worker, drop the endpoint: the worker uses copies only.
        QVERIFY(log.waitFor(u"off the GUI thread"_s));
        endpoint.reset();
        const auto compact = await(future);
        QVERIFY(compact.value);
        QCOMPARE(compact.value->value.size(), 5000);
        QThreadPool::globalInstance()->waitForDone();
    }

    void canceledWhileTheWorkerParses()
    {
        const QByteArray body = todosBody(5000);
        server.route("GET", u"/todos"_s, [body](const RecordedRequest &) {
            return ServerResponse::raw(body, "application/json");
        });
        const EndpointPtr endpoint = RestEndpoint::create(options(u"/todos"_s));
        LogCapture log;
        QFuture<CompactAnswer> future = endpoint->fetchCompact(&network, {});
        QVERIFY(log.waitFor(u"off the GUI thread"_s));
        future.cancel();
        QVERIFY(QTest::qWaitFor([&] { return future.isFinished(); }, 30000));
        QVERIFY(future.isCanceled());
        QThreadPool::globalInstance()->waitForDone();
        // The endpoint still works afterwards.
        QVERIFY(await(endpoint->fetchCompact(&network, {})).value);
    }
};

QTEST_GUILESS_MAIN(tst_RestCompact)
#include "tst_restcompact.moc"
