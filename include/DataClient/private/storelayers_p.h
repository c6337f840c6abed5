// The Store's API for the library's own layers (the Controller, the REST layer's off-thread
// answers): optimistic layers by id, a write prepared on a worker and committed later, and
// garbage-collection passes. Apps write optimistic changes through the Controller
// (docs/optimistic-updates.md) and collect garbage with Controller::collectGarbage().
#pragma once

#include <DataClient/private/preparedwrite_p.h>
#include <DataClient/private/storegarbage_p.h>
#include <DataClient/store.h>

namespace DataClient {

class DATACLIENT_STORE_EXPORT StoreLayers
{
public:
    //! The write of Store::setResponse() into optimistic layer \a layerId of \a store, shown
    //! above the committed data until removeOptimistic(). Layers apply in ascending layerId;
    //! writing the same layer again adds to it.
    static StoreWrite setOptimisticResponse(Store &store, quint64 layerId, const QString &resultKey,
                                            const Schema &schema, const Params &args,
                                            const QJsonValue &value, const Meta &meta);
    static ChangeSet removeOptimistic(Store &store, quint64 layerId);
    /*!
        Gives layer \a layerId the date \a date (its meta.date) and shows what that makes of
        the entities it wrote: a layer dated at or after the committed data shows over it, one
        dated before only fills the fields the data lacks (the race rule, as for setResponse()).
    */
    static ChangeSet redateOptimistic(Store &store, quint64 layerId, qint64 date);

    //! Normalizes and checks a response without touching any store: safe on any thread (a
    //! worker), for a later commit(). Store::setResponse() is prepare() + commit().
    static PreparedWrite prepare(const Schema &schema, const Params &args,
                                 const CompactJson &value);
    static PreparedWrite prepare(const Schema &schema, const Params &args, const QJsonValue &value);
    //! Commits a prepared response (the store's thread): the same outcome as setResponse(). A
    //! write that failed to prepare returns its error; an empty PreparedWrite does nothing.
    static StoreWrite commit(Store &store, const QString &resultKey, PreparedWrite &&write,
                             const Meta &meta);
    //! Commits it into optimistic layer \a layerId, like setOptimisticResponse().
    static StoreWrite commitOptimistic(Store &store, quint64 layerId, const QString &resultKey,
                                       PreparedWrite &&write, const Meta &meta);

    //! One garbage-collection pass (docs/memory.md): drops \a request's results, then every
    //! entity and collection nothing reaches that was last written at or before
    //! \a request.writtenBefore. Views of what is dropped are forgotten; pks stay known.
    static StoreGarbageOutcome collectGarbage(Store &store, const StoreGarbageRequest &request);
};

} // namespace DataClient
