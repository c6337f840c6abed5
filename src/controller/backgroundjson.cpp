#include "backgroundjson_p.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QPromise>
#include <QtCore/QThreadPool>

#include <memory>

namespace DataClient::detail {

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

QFuture<CompactJson> BackgroundJson::convert(const QJsonValue &value)
{
    auto promise = std::make_shared<QPromise<CompactJson>>();
    QFuture<CompactJson> future = promise->future();
    promise->start();
    // The worker reads its own copy of the (implicitly shared, immutable) value.
    QThreadPool::globalInstance()->start([promise, value] {
        promise->addResult(CompactJson::fromJsonValue(value));
        promise->finish();
    });
    return future;
}

} // namespace DataClient::detail
