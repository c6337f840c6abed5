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

QFuture<BackgroundJson::Result> BackgroundJson::convert(const QJsonValue &value)
{
    return onWorker([value] { return Result {CompactJson::fromJsonValue(value), nullptr}; });
}

void BackgroundJson::release(Result &&result)
{
    if (result.value.isUndefined() && !result.prepared)
        return;
    QThreadPool::globalInstance()->start(
        [dropped = std::move(result)]() mutable { dropped = Result {}; });
}

} // namespace DataClient::detail
