#include "guesses_p.h"

#include "controller_p.h"
#include "logging_p.h"

#include <DataClient/record.h>
#include <DataClient/rowlist.h>
#include <DataClient/private/storelayers_p.h>

#include <algorithm>

namespace DataClient::detail {

namespace {

bool pendingIn(const QVariant &value, int depth)
{
    if (value.metaType() == QMetaType::fromType<Record>())
        return static_cast<const Record *>(value.constData())->isPending();
    if (depth > 1)
        return false;
    bool isList = false;
    if (const RowList list = rowsOf(value, &isList); isList) {
        return std::any_of(list.cbegin(), list.cend(),
                           [depth](const QVariant &item) { return pendingIn(item, depth + 1); });
    }
    if (value.metaType().id() == QMetaType::QVariantMap) { // {results: [...], total: n}
        const auto &map = *static_cast<const QVariantMap *>(value.constData());
        return std::any_of(map.cbegin(), map.cend(),
                           [depth](const QVariant &field) { return pendingIn(field, depth + 1); });
    }
    return false;
}

} // namespace

quint64 Guesses::show(const RestEndpoint &endpoint, const Params &params, const QJsonValue &body,
                      qint64 date, ChangeSet *changes, QString *newRowKey)
{
    Store &store = *m_core.store;
    std::optional<QJsonValue> predicted = endpoint.optimisticResponse(params, body, &store);
    if (!predicted)
        return 0; // e.g. partialUpdate of an entity that is not in the store
    // A new row without a primary key (the server assigns ids) shows under a key of this side, in
    // the guess only: the request's body stays the caller's.
    const Schema schema = endpoint.schema();
    const EntitySchema row
        = schema.kind() == Schema::Kind::Entity ? schema.entitySchema() : schema.rowEntity();
    if (schema.kind() != Schema::Kind::Invalidate && !row.isNull() && predicted->isObject()
        && row.pk(predicted->toObject()).isEmpty()) {
        QString key;
        if (newRowKey && !row.pkField().isEmpty()) {
            m_core.each(Lifecycle::NewRowKey, [&key](Lifecycle &manager) {
                if (key.isEmpty())
                    key = manager.newRowKey();
            });
        }
        if (key.isEmpty()) {
            qCDebug(lcController) << "no optimistic row for a new" << row.key()
                                  << "(no key to show it under: a pk function, or a held write);"
                                     " it shows when the server answers";
            return 0;
        }
        *newRowKey = key;
        QJsonObject guess = predicted->toObject();
        guess.insert(row.pkField(), key);
        predicted = guess;
    }
    const quint64 layer = m_layers.allocate();
    const StoreWrite write = StoreLayers::setOptimisticResponse(
        store, layer, QString(), schema, endpoint.storeArguments(params), *predicted,
        Meta {date, m_core.now(), 0});
    if (write.error) {
        qCWarning(lcController).noquote() << "optimistic response of" << endpoint.name()
                                          << "does not fit its schema:" << write.error->message();
        StoreLayers::removeOptimistic(store, layer);
        if (newRowKey && !newRowKey->isEmpty()) {
            const QString unused = std::exchange(*newRowKey, QString());
            m_core.each(Lifecycle::NewRowKey,
                        [&unused](Lifecycle &manager) { manager.newRowKeyUnused(unused); });
        }
        return 0;
    }
    m_layers.record(layer, date, write.changes.entities);
    *changes = write.changes;
    return layer;
}

ChangeSet Guesses::redate(quint64 layer, qint64 date)
{
    m_layers.redate(layer, date);
    return StoreLayers::redateOptimistic(*m_core.store, layer, date);
}

ChangeSet Guesses::remove(quint64 own, qint64 date, const EntityRefSet &committed)
{
    QList<quint64> obsolete;
    if (own)
        obsolete.append(own);
    if (date > 0)
        obsolete += m_layers.supersededBy(date, committed);
    ChangeSet changes;
    for (const quint64 layer : std::as_const(obsolete)) {
        if (!m_layers.contains(layer))
            continue; // already removed by a newer commit
        changes.unite(StoreLayers::removeOptimistic(*m_core.store, layer));
        m_layers.forget(layer);
    }
    return changes;
}

qint64 Guesses::confirmationDate(const InFlightRequest &change, ChangeSet *changes)
{
    // Two changes on the wire at once: the one sent later was applied after this one (the
    // server's order, as far as the client knows), so once it is confirmed this answer keeps
    // its send date and cannot overwrite it.
    if (m_newestConfirmedChange > change.date)
        return change.date;
    m_newestConfirmedChange = change.date;
    const qint64 date = m_core.nextRequestDate();
    // The guesses of the changes sent after this one and not answered yet stay above its answer:
    // they take dates after it, in the order they were sent.
    QList<InFlightRequest *> later;
    for (InFlightRequest *request : m_core.inFlight.all()) {
        if (!request->read && request->layer && request->date > change.date
            && m_layers.date(request->layer) != OptimisticLayers::unsent)
            later.append(request);
    }
    std::sort(later.begin(), later.end(),
              [](const InFlightRequest *a, const InFlightRequest *b) { return a->date < b->date; });
    for (const InFlightRequest *request : std::as_const(later))
        changes->unite(redate(request->layer, m_core.nextRequestDate()));
    return date;
}

bool Guesses::hide(const RestEndpoint &endpoint, const Params &params) const
{
    if (endpoint.sideEffect() || m_layers.size() == 0
        || endpoint.schema().kind() != Schema::Kind::Entity)
        return false;
    const EntitySchema entity = endpoint.schema().entitySchema();
    const QString pk = entity.pk(QJsonObject::fromVariantMap(endpoint.storeArguments(params)));
    return !pk.isEmpty() && m_layers.touches(EntityRef {entity.key(), pk});
}

bool Guesses::pending(const ResponseState &state, const RestEndpoint &endpoint,
                      const Params &params) const
{
    if (m_layers.size() == 0) // nothing unconfirmed: no need to look at 10k rows
        return false;
    if (!state.found) // an entity an optimistic delete hides, until the server answers
        return hide(endpoint, params);
    return pendingIn(state.data, 0);
}

} // namespace DataClient::detail
