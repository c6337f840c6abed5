#include "resourcedefaults_p.h"

#include "logging_p.h"

#include <DataClient/placeholderkey.h>
#include <DataClient/store.h>

#include <QtCore/QJsonObject>

namespace DataClient::detail {

namespace {

QJsonObject paramsAndBody(const Params &params, const QJsonValue &body)
{
    QJsonObject merged = QJsonObject::fromVariantMap(params);
    const QJsonObject fields = body.toObject();
    for (auto it = fields.begin(); it != fields.end(); ++it)
        merged.insert(it.key(), it.value());
    return merged;
}

bool isEmptyAnswer(const QJsonValue &value)
{
    return value.isNull() || value.isUndefined() || (value.isObject() && value.toObject().isEmpty())
        || (value.isString() && value.toString().isEmpty());
}

} // namespace

ProcessFunction deleteProcess(const EntitySchema &entity)
{
    return [pkField = entity.pkField()](const QJsonValue &value, const Params &params) {
        if (isEmptyAnswer(value))
            return QJsonValue(QJsonObject::fromVariantMap(params));
        if ((value.isString() || value.isDouble()) && !pkField.isEmpty())
            return QJsonValue(QJsonObject {{pkField, value}});
        return value;
    };
}

OptimisticFunction optimisticParamsAndBody()
{
    return [](const Params &params, const QJsonValue &body,
              const Store *) -> std::optional<QJsonValue> { return paramsAndBody(params, body); };
}

OptimisticFunction optimisticCreate()
{
    // Without a primary key the Controller shows the row under a placeholder key of its own.
    return optimisticParamsAndBody();
}

OptimisticFunction optimisticPartialUpdate(const EntitySchema &entity)
{
    return [entity](const Params &params, const QJsonValue &body,
                    const Store *store) -> std::optional<QJsonValue> {
        const QJsonObject merged = paramsAndBody(params, body);
        if (store) {
            const QString pk = entity.pk(merged);
            // A placeholder row lives only in an optimistic layer: the edit shows on it at once
            // (and is sent once its create is confirmed).
            if (pk.isEmpty()
                || (!isPlaceholderKey(pk) && !store->entity(EntityRef {entity.key(), pk})))
                return std::nullopt;
        }
        return merged;
    };
}

OptimisticFunction optimisticMove(const EntitySchema &entity)
{
    const OptimisticFunction update = optimisticPartialUpdate(entity);
    return [update, pkField = entity.pkField()](const Params &params, const QJsonValue &body,
                                                const Store *store) {
        // The call's other arguments name the lists the entity leaves, not its fields.
        if (pkField.isEmpty() || !params.contains(pkField))
            return update(params, body, store);
        return update({{pkField, params.value(pkField)}}, body, store);
    };
}

OptimisticFunction optimisticBody()
{
    return [](const Params &, const QJsonValue &body, const Store *) -> std::optional<QJsonValue> {
        if (body.isObject() || body.isArray())
            return body;
        return std::nullopt;
    };
}

OptimisticFunction optimisticDelete()
{
    return
        [](const Params &params, const QJsonValue &, const Store *) -> std::optional<QJsonValue> {
            return QJsonObject::fromVariantMap(params);
        };
}

} // namespace DataClient::detail
