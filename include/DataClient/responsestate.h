// ResponseState: everything a view needs to know about one endpoint + params
// (Controller::getResponse).
#pragma once

#include <DataClient/expirystatus.h>
#include <DataClient/networkerror.h>

#include <QtCore/QVariant>

#include <optional>

namespace DataClient {

/*!
    What Controller::getResponse() reports for one cache key. A value; reading it again after a
    change gives a new value, reading it without a change gives the identical `data` (the store's
    memoization: the same rows — RowList::isSharedWith() — the same Record snapshot — see
    Record::isSharedWith()), so a view can compare cheaply.

    How a view should show it:
    - `status == Invalid` (and not `loading`): fetch; show a placeholder.
    - `hasData()`: show `data`; if `status == Stale`, also refetch in the background.
    - `showsError()`: show `error` instead of (or, for a soft error, next to) the data.
*/
struct ResponseState
{
    //! The denormalized value, also while stale or loading: an entity is a DataClient::Record
    //! (QVariant::toMap() gives a QVariantMap), a Collection's rows a DataClient::RowList of them
    //! (QVariant::toList() gives a QVariantList; rowsOf() the RowList).
    //! Null when nothing is stored.
    QVariant data;
    //! Whether `data` holds a stored response (or an entity of the entity table, for a get
    //! endpoint whose entity was loaded through another request).
    bool found = false;
    //! Valid (fresh), Stale (show and refetch) or Invalid (nothing usable: fetch).
    ExpiryStatus status = ExpiryStatus::Invalid;
    //! When `status` turns Stale (ms since the epoch; the error's expiry when there is an error).
    qint64 expiresAt = 0;
    //! When the shown data was received (ms since the epoch; 0 when there is none).
    qint64 fetchedAt = 0;
    //! The last error of this key, until a later response (or setResponse/invalidate/reset)
    //! clears it; also set when the endpoint or parameters are unusable (kind InvalidRequest).
    std::optional<NetworkError> error;
    //! A request for this key is in flight (also while it waits to retry or to be sent).
    bool loading = false;
    //! The key's read waits for connectivity: nothing is sent while offline.
    bool paused = false;
    //! The key's read failed and waits (backoff) to try again; `data` stays shown meanwhile.
    bool retrying = false;
    //! The attempt of the key's read under way or waited for (1 = the first, 2 = the first
    //! retry, ...); 0 when no read is in flight.
    int attempt = 0;
    /*!
        What `data` shows includes an unconfirmed optimistic change: a row created under a
        placeholder key, an entity an optimistic update wrote (Record::isPending()), or, for a
        read of one entity, that entity hidden by an optimistic delete. false once the server
        has answered (docs/optimistic-updates.md).
    */
    bool pending = false;

    //! HTTP status >= 500: a soft error, existing data stays visible.
    bool isSoftError() const { return error && error->status() >= 500; }
    //! Data to show: stored, and no hard error hides it.
    bool hasData() const { return found && (!error || isSoftError()); }
    //! An error to show: any hard error, or a soft one when there is no data behind it.
    bool showsError() const { return error && (!isSoftError() || !found); }
};

} // namespace DataClient

Q_DECLARE_METATYPE(DataClient::ResponseState)
