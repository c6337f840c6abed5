// The cost of the option keyCase on a large answer (docs/performance.md):
//  p.keycase.10k.off      parseResponse() of todos-10k.json (camelCase, no conversion) by an
//                         endpoint without keyCase, then normalize it into an empty store
//  p.keycase.10k.on       the same answer written in snake_case (user_id, created_at, nested
//                         author.address too), read by an endpoint with keyCase snake_case:
//                         parse, convert every key at every depth, normalize
//  p.keycase.10k.compact  what an endpoint without keyCase does with an answer this large:
//                         CompactJson::parse (on a worker thread in an app) + normalize
#include "benchdata.h"
#include "benchmark.h"

#include <DataClient/compactjson.h>
#include <DataClient/restendpoint.h>
#include <DataClient/store.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

#include <memory>

using namespace DataClient;
using namespace Qt::StringLiterals;

namespace {

const QString listKey = u"GET http://bench/todos"_s;
const Meta meta {1, 1, 60001};

QString snake(const QString &key)
{
    QString out;
    for (const QChar c : key) {
        if (c.isUpper())
            out += u'_';
        out += c.toLower();
    }
    return out;
}

QJsonValue snakeKeys(const QJsonValue &value)
{
    if (value.isArray()) {
        QJsonArray out;
        for (const QJsonValue &item : value.toArray())
            out.append(snakeKeys(item));
        return out;
    }
    if (!value.isObject())
        return value;
    QJsonObject out;
    const QJsonObject object = value.toObject();
    for (auto it = object.begin(); it != object.end(); ++it)
        out.insert(snake(it.key()), snakeKeys(it.value()));
    return out;
}

Response jsonAnswer(const QByteArray &body)
{
    Response response;
    response.method = "GET";
    response.url = QUrl(u"http://bench/todos"_s);
    response.status = 200;
    response.headers = {{"Content-Type", "application/json"}};
    response.body = body;
    return response;
}

} // namespace

DATACLIENT_BENCH_SCENARIOS(keyCaseScenarios)
{
    if (!bench.wanted(u"p.keycase"_s))
        return;
    const QByteArray camelBytes = bench.file(u"todos-10k.json"_s);
    const QByteArray snakeBytes
        = QJsonDocument(snakeKeys(QJsonDocument::fromJson(camelBytes).array()).toArray())
              .toJson(QJsonDocument::Compact);
    const Response camel = jsonAnswer(camelBytes);
    const Response snaked = jsonAnswer(snakeBytes);
    const EndpointPtr plain = RestEndpoint::create(
        {.path = u"/todos"_s, .urlPrefix = u"http://bench"_s, .schema = Bench::todoCollection()});
    const EndpointPtr converting = plain->extend({.keyCase = KeyCase::SnakeCase});

    // Both read the same value: a wrong conversion would make the comparison meaningless.
    if (plain->parseResponse(camel) != converting->parseResponse(snaked))
        bench.fail(u"p.keycase.10k.on"_s, u"the converted answer differs from the camelCase one"_s);

    std::unique_ptr<Store> store;
    const auto freshStore = [&] { store = std::make_unique<Store>(); };
    bench.time(u"p.keycase.10k.off"_s, freshStore, [&] {
        store->setResponse(listKey, Bench::todoCollection(), {}, plain->parseResponse(camel), meta);
    });
    bench.time(u"p.keycase.10k.on"_s, freshStore, [&] {
        store->setResponse(listKey, Bench::todoCollection(), {}, converting->parseResponse(snaked),
                           meta);
    });
    bench.time(u"p.keycase.10k.compact"_s, freshStore, [&] {
        store->setResponse(listKey, Bench::todoCollection(), {}, CompactJson::parse(camelBytes),
                           meta);
    });
}
