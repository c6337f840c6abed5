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

} // namespace DataClient::detail
