// The cost of an expired token (docs/authentication.md, "One refresh, then replay"):
//  a.refresh.50  50 reads racing an expiry: all 50 carry a token the server (on its own thread)
//                no longer accepts and are refused 401; one refresh asks the token endpoint; the
//                50 are replayed with the new token. Per round: "requests" = reads the server
//                got (must be 100) + token requests (must be 1). "total_ms" = wall time of the
//                round, fetch() to the last result; "batch_ms" = 50 reads with a valid token (one
//                round trip of the batch); "refresh_ms" = the token request alone; "ratio" =
//                total_ms / (2 * batch_ms + refresh_ms): the round needs two round trips of the
//                batch and the refresh one after the other, so 1.0 is the floor; "ratio_one" =
//                total_ms / (batch_ms + refresh_ms), against one round trip of the batch.
#include "benchmark.h"
#include "serverthread.h"
#include "threadtime.h"

#include <DataClient/controller.h>
#include <DataClient/restendpoint.h>

#if __has_include(<DataClient/tokensource.h>)
#    include <DataClient/tokensource.h>
#    define BENCH_HAS_TOKEN_SOURCE 1
#endif

#include <QtCore/QElapsedTimer>
#include <QtCore/QEventLoop>
#include <QtCore/QFutureWatcher>
#include <QtCore/QPromise>
#include <QtCore/QTimer>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>

#include <atomic>
#include <memory>

using namespace DataClient;
using namespace Qt::StringLiterals;

namespace {

#ifdef BENCH_HAS_TOKEN_SOURCE

//! The token the server accepts and what it received, shared with the server's thread.
struct Tokens
{
    std::atomic<int> accepted {1};
    std::atomic<int> reads {0};
    std::atomic<int> refreshes {0};
};

//! refresh() asks the token endpoint with its own network access manager, as a real one does.
class EndpointTokenSource : public TokenSource
{
public:
    QUrl tokenUrl;
    QString current = u"t1"_s;
    QNetworkAccessManager network;

    QFuture<QString> token() override
    {
        QPromise<QString> promise;
        promise.start();
        promise.addResult(current);
        promise.finish();
        return promise.future();
    }
    QFuture<QString> refresh() override
    {
        QNetworkRequest request(tokenUrl);
        request.setHeader(QNetworkRequest::ContentTypeHeader,
                          QByteArrayLiteral("application/x-www-form-urlencoded"));
        QNetworkReply *reply = network.post(request, QByteArray("grant_type=refresh_token"));
        auto promise = std::make_shared<QPromise<QString>>();
        promise->start();
        QObject::connect(reply, &QNetworkReply::finished, this, [this, reply, promise] {
            reply->deleteLater();
            current = QString::fromUtf8(reply->readAll());
            promise->addResult(current);
            promise->finish();
        });
        return promise->future();
    }
};

//! Runs the event loop (sleeping) until every future finished; false if one failed.
bool settleAll(const QList<QFuture<QVariant>> &futures)
{
    for (const QFuture<QVariant> &future : futures) {
        if (!future.isFinished()) {
            QEventLoop loop;
            QFutureWatcher<QVariant> watcher;
            QObject::connect(&watcher, &QFutureWatcherBase::finished, &loop, &QEventLoop::quit);
            QTimer::singleShot(10000, &loop, &QEventLoop::quit);
            watcher.setFuture(future);
            if (!future.isFinished())
                loop.exec();
        }
        if (!future.isFinished() || future.resultCount() == 0)
            return false;
    }
    return true;
}

void refresh50(Bench::Runner &bench)
{
    const QString name = u"a.refresh.50"_s;
    if (!bench.wanted(name))
        return;
    auto tokens = std::make_shared<Tokens>();
    Bench::ServerThread server([tokens](Testing::TestServer &routes) {
        routes.route("GET", u"/todos/:id"_s, [tokens](const Testing::RecordedRequest &r) {
            ++tokens->reads;
            const QByteArray expected = "Bearer t" + QByteArray::number(tokens->accepted.load());
            if (r.header("authorization") != expected)
                return Testing::ServerResponse::json(QJsonObject {{u"error"_s, 1}}, 401);
            return Testing::ServerResponse::json(
                QJsonObject {{u"id"_s, r.pathParams.value(u"id"_s)}, {u"title"_s, u"one"_s}});
        });
        routes.route("POST", u"/token"_s, [tokens](const Testing::RecordedRequest &) {
            ++tokens->refreshes;
            return Testing::ServerResponse::raw("t" + QByteArray::number(tokens->accepted.load()),
                                                "text/plain");
        });
    });
    const EndpointPtr get = RestEndpoint::create(
        {.path = u"/todos/:id"_s, .urlPrefix = server.url(), .retry = RetryPolicy {0, 100, 1000}});
    EndpointTokenSource source;
    source.tokenUrl = QUrl(server.url() + u"/token"_s);
    source.setOrigins({QUrl(server.url())});
    QNetworkAccessManager network;
    network.setAutoDeleteReplies(true);
    Controller controller;
    controller.setNetworkAccessManager(&network);
    controller.setTokenSource(&source);

    const auto batch = [&]() -> double {
        QElapsedTimer clock;
        clock.start();
        QList<QFuture<QVariant>> futures;
        for (int id = 1; id <= 50; ++id)
            futures.append(controller.fetch(get, {{u"id"_s, id}}));
        if (!settleAll(futures))
            bench.fail(name, u"a read failed"_s);
        return double(clock.nsecsElapsed()) / 1e6;
    };
    const auto refreshAlone = [&]() -> double {
        QElapsedTimer clock;
        clock.start();
        QFuture<QString> fresh = source.refresh();
        QEventLoop loop;
        QFutureWatcher<QString> watcher;
        QObject::connect(&watcher, &QFutureWatcherBase::finished, &loop, &QEventLoop::quit);
        watcher.setFuture(fresh);
        if (!fresh.isFinished())
            loop.exec();
        return double(clock.nsecsElapsed()) / 1e6;
    };
    const auto expiring = [&](double *cpu) -> double {
        ++tokens->accepted; // the client's token expired: every read is refused once
        const int reads = tokens->reads;
        const int refreshes = tokens->refreshes;
        const double start = Bench::threadCpuMs();
        const double wall = batch();
        *cpu = Bench::threadCpuMs() - start;
        if (tokens->reads - reads != 100 || tokens->refreshes - refreshes != 1)
            bench.fail(name,
                       u"the round sent %1 reads and %2 refreshes; expected 100 and 1"_s
                           .arg(tokens->reads - reads)
                           .arg(tokens->refreshes - refreshes));
        return wall;
    };

    double cpu = 0;
    for (int i = 0; i < 5; ++i) { // warm-up: connections open, code paged in
        batch();
        expiring(&cpu);
    }
    std::vector<double> totals;
    std::vector<double> batches;
    std::vector<double> refreshTimes;
    std::vector<double> cpus;
    const int rounds = 21;
    for (int r = 0; r < rounds; ++r) {
        batches.push_back(batch());
        // The token endpoint alone, with the token it gives back unchanged (no expiry).
        refreshTimes.push_back(refreshAlone());
        --tokens->refreshes;
        totals.push_back(expiring(&cpu));
        cpus.push_back(cpu);
    }
    const double total = Bench::median(totals);
    const double batchMs = Bench::median(batches);
    const double refreshMs = Bench::median(refreshTimes);
    Bench::printLine({{u"name"_s, name},
                      {u"total_ms"_s, total},
                      {u"min_ms"_s, *std::min_element(totals.begin(), totals.end())},
                      {u"max_ms"_s, *std::max_element(totals.begin(), totals.end())},
                      {u"batch_ms"_s, batchMs},
                      {u"refresh_ms"_s, refreshMs},
                      {u"ratio"_s, total / (2 * batchMs + refreshMs)},
                      {u"ratio_one"_s, total / (batchMs + refreshMs)},
                      {u"cpu_ms"_s, Bench::median(cpus)},
                      {u"requests"_s, 100 + 1},
                      {u"rounds"_s, rounds}});
}

#endif

} // namespace

DATACLIENT_BENCH_SCENARIOS(authScenarios)
{
#ifdef BENCH_HAS_TOKEN_SOURCE
    refresh50(bench);
#else
    Q_UNUSED(bench);
#endif
}
