#include "backgroundjson_p.h"

#include <DataClient/deserializer.h>
#include <DataClient/entityschema.h>
#include <DataClient/store.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QPromise>
#include <QtCore/QSet>
#include <QtCore/QThreadPool>

#include <memory>

namespace DataClient::detail {

namespace {

bool runsAnywhere(const Schema &schema, QSet<QString> *seen)
{
    switch (schema.kind()) {
    case Schema::Kind::None:
        return true;
    case Schema::Kind::Array:
    case Schema::Kind::Collection:
        return runsAnywhere(schema.itemSchema(), seen);
    case Schema::Kind::Object: {
        const QHash<QString, Schema> fields = schema.fields();
        for (auto it = fields.cbegin(); it != fields.cend(); ++it) {
            if (!runsAnywhere(it.value(), seen))
                return false;
        }
        return true;
    }
    case Schema::Kind::Entity:
    case Schema::Kind::Invalidate:
        break;
    }
    const EntitySchema entity = schema.entitySchema();
    if (entity.isNull() || seen->contains(entity.key()))
        return true; // entity types refer to each other: each is checked once
    seen->insert(entity.key());
    if (entity.pkField().isEmpty() || entity.hasProcess() || entity.hasMerge())
        return false;
    const QStringList deserialized = entity.deserializedFields();
    for (const QString &field : deserialized) {
        if (!entity.deserializer(field).isBuiltIn())
            return false;
    }
    const QStringList nested = entity.nestedFields();
    for (const QString &field : nested) {
        if (!runsAnywhere(entity.nested(field), seen))
            return false;
    }
    return true;
}

template<typename Work> QFuture<BackgroundJson::Result> onWorker(Work work)
{
    auto promise = std::make_shared<QPromise<BackgroundJson::Result>>();
    QFuture<BackgroundJson::Result> future = promise->future();
    promise->start();
    // The worker owns copies of its inputs (implicitly shared, immutable values) and the
    // promise: nothing of the Controller, which may be destroyed before it finishes.
    QThreadPool::globalInstance()->start([promise, work = std::move(work)] {
        promise->addResult(work());
        promise->finish();
    });
    return future;
}

} // namespace

bool BackgroundJson::isLarge(const QJsonValue &value)
{
    if (value.isArray())
        return value.toArray().size() >= LargeListSize;
    if (value.isObject()) {
        // A wrapper such as {"results": [...], "total": 10000}.
        const QJsonObject object = value.toObject();
        for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
            if (it->isArray() && it->toArray().size() >= LargeListSize)
                return true;
        }
    }
    return false;
}

bool BackgroundJson::runsAnywhere(const Schema &schema)
{
    QSet<QString> seen;
    return detail::runsAnywhere(schema, &seen);
}

QFuture<BackgroundJson::Result> BackgroundJson::convert(const QJsonValue &value)
{
    return onWorker([value] { return Result {CompactJson::fromJsonValue(value), nullptr}; });
}

QFuture<BackgroundJson::Result> BackgroundJson::prepare(const CompactJson &value,
                                                        const Schema &schema, const Params &args)
{
    return onWorker([value, schema, args] {
        return Result {value, std::make_shared<PreparedWrite>(Store::prepare(schema, args, value))};
    });
}

} // namespace DataClient::detail
