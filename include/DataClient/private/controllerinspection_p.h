// Private API of the controller layer for the store inspector (docs/inspector.md): what the
// Controller knows of one cache key besides the store (loading, error, viewers, polling, the
// endpoint a view reads it with) and dropping one entity. Read by the inspector layer only.
#pragma once

#include <DataClient/endpointoptions.h>
#include <DataClient/entityref.h>
#include <DataClient/expirystatus.h>
#include <DataClient/global.h>
#include <DataClient/networkerror.h>
#include <DataClient/params.h>

#include <QtCore/QString>
#include <QtCore/QStringList>

#include <optional>

namespace DataClient {
class Controller;
}

namespace DataClient::detail {

//! What made a change the Controller emitted (Controller::changed()): the inspector's timeline.
enum class ChangeOrigin {
    Other,
    Answer, //!< a request's answer was committed
    Write, //!< setResponse(), set(), remove() (no request)
    Invalidation, //!< invalidate(), invalidateAll(), expireAll()
    Reset, //!< resetEntireStore(), or a persisted store dropped
    Push, //!< a live source's messages
    GarbageCollection,
    Hydration, //!< read from the persisted store
    Dropped, //!< dropEntity() below
    Optimistic, //!< a guess shown (or dated again as its request is sent)
    Rollback, //!< a guess taken back (its request failed or was given up)
};

//! One garbage-collection pass: when, and what it dropped.
struct GcPass
{
    qint64 at = 0; //!< ms since the epoch (the Controller's clock); 0: no pass yet
    qsizetype results = 0;
    qsizetype entities = 0;
    qsizetype collections = 0;
    //! The result keys and entities ("Todo:5") dropped, the first MaxNames of each.
    QStringList resultKeys;
    QStringList entityNames;
    static constexpr qsizetype MaxNames = 20;
};

struct KeyInspection
{
    ExpiryStatus status = ExpiryStatus::Invalid;
    //! Requests for the key in flight.
    int loading = 0;
    std::optional<NetworkError> error;
    //! Views that watch() the key, and polling subscribers.
    int viewers = 0;
    int subscribers = 0;
    //! The endpoint and params a view or a poll reads the key with (null when none does).
    EndpointPtr endpoint;
    Params params;
};

//! Every key the Controller knows: stored results, and keys loading or with an error; sorted.
DATACLIENT_CONTROLLER_EXPORT QStringList inspectedKeys(const Controller *controller);
DATACLIENT_CONTROLLER_EXPORT KeyInspection inspectKey(const Controller *controller,
                                                      const QString &key);
/*!
    Forgets one entity (Store::removeEntity(): lists drop it, results holding it report it
    missing) and emits changed(). Not a delete: the server is not told, a later answer brings
    it back. Returns false when the store does not hold it.
*/
DATACLIENT_CONTROLLER_EXPORT bool dropEntity(Controller *controller, const EntityRef &ref);
//! What made the change being emitted now (read in a slot of Controller::changed()), and in
//! \a request the id of the request that made it (ManagedRequest::id(); 0: none).
DATACLIENT_CONTROLLER_EXPORT ChangeOrigin changeOrigin(const Controller *controller,
                                                       quint64 *request = nullptr);
//! The last garbage-collection pass that ran (at == 0: none yet).
DATACLIENT_CONTROLLER_EXPORT GcPass lastGcPass(const Controller *controller);

} // namespace DataClient::detail
