// Placeholder implementation (interface first, so other layers can compile); replaced by the
// real normalized store.
#include <DataClient/store.h>

namespace DataClient {

class StorePrivate
{
public:
};

Store::Store() : d(new StorePrivate) { }
Store::~Store() = default;

StoreWrite Store::setResponse(const QString &, const Schema &, const Params &, const QJsonValue &,
                              const Meta &)
{
    return {};
}

StoreWrite Store::setOptimisticResponse(quint64, const QString &, const Schema &, const Params &,
                                        const QJsonValue &, const Meta &)
{
    return {};
}

ChangeSet Store::removeOptimistic(quint64)
{
    return {};
}

QList<quint64> Store::optimisticLayers() const
{
    return {};
}

Denormalized Store::denormalize(const QString &, const Schema &, const Params &)
{
    return {};
}

Denormalized Store::query(const Schema &, const Params &)
{
    return {};
}

ChangeSet Store::invalidateResult(const QString &)
{
    return {};
}

ChangeSet Store::removeEntity(const EntityRef &)
{
    return {};
}

ChangeSet Store::reset()
{
    return {};
}

bool Store::hasResult(const QString &) const
{
    return false;
}

Meta Store::resultMeta(const QString &) const
{
    return {};
}

void Store::setResultMeta(const QString &, const Meta &) { }

QStringList Store::resultKeys() const
{
    return {};
}

std::optional<QJsonObject> Store::entity(const EntityRef &) const
{
    return std::nullopt;
}

Meta Store::entityMeta(const EntityRef &) const
{
    return {};
}

qsizetype Store::entityCount(const QString &) const
{
    return 0;
}

} // namespace DataClient
