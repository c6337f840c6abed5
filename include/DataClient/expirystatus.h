// ExpiryStatus: how usable a stored response is right now (docs/controller.md).
#pragma once

#include <QtCore/QMetaType>

namespace DataClient {

//! Freshness of a stored response, as Controller::getResponse() reports it.
enum class ExpiryStatus {
    //! Fresh (or an error that is still fresh): show it, don't fetch.
    Valid,
    //! Past its expiry (dataExpiryLength / errorExpiryLength) or expired with expireAll():
    //! show it and refetch in the background (stale-while-revalidate).
    Stale,
    //! Nothing usable: never fetched, invalidated, or reset. A query must fetch before it can
    //! show data.
    Invalid,
};

} // namespace DataClient

Q_DECLARE_METATYPE(DataClient::ExpiryStatus)
