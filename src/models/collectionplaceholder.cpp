// CollectionModel's kept data (keepPrevious): re-targeted to a key with nothing stored, the model
// goes on showing the rows and value of the key it showed, as a placeholder, while the new key's
// read is under way (not while it is paused offline or waits out a backoff: then the model shows
// what is stored for the new key, which is nothing). The rows then turn into the new ones through the ordinary diff (collectionrows.cpp),
// so a view sees inserts, removals and changes instead of a reset to an empty list.
//
// While the placeholder shows, the kept rows are still read from the store under the key they
// came from: an entity of theirs that another request updates or deletes changes them as it
// would in any model showing that key.
#include "collectionmodel_p.h"

namespace DataClient {

CollectionModelPrivate::RowShape CollectionModelPrivate::rowShape() const
{
    return {roles, int(listPlace), listField};
}

void CollectionModelPrivate::limitKeptTo(const RowShape &shapeBefore)
{
    // Rows of another controller are another store's: their entities would not follow this
    // one's changes. Rows with other roles cannot stay without a reset of the view.
    if (!keepPrevious || !active || shownController != controller || rowShape() != shapeBefore)
        setShownKey(false);
}

ResponseState
CollectionModelPrivate::keptState(const ResponseState &state,
                                  const std::optional<NetworkError> &targetError) const
{
    // Only while the current key has nothing of its own to show (neither data nor an error: an
    // error ends the placeholder, so the user sees it rather than rows of another key) and its
    // read is actually under way: a read paused offline or waiting out a backoff may wait for
    // ever, and another key's rows must not pass for this key's meanwhile.
    if (!keepPrevious || !isActive() || targetError || state.found || state.error || !state.loading
        || state.paused || state.retrying || shownKey.isEmpty() || shownKey == key
        || !shownEndpoint)
        return {};
    return controller->getResponse(shownEndpoint, shownParams);
}

void CollectionModelPrivate::setShownKey(bool found)
{
    if (found) {
        shownKey = key;
        shownEndpoint = endpoint;
        shownParams = params;
        shownController = controller;
    } else {
        shownKey.clear();
        shownEndpoint.reset();
        shownParams.clear();
        shownController = nullptr;
    }
}

void CollectionModelPrivate::setPlaceholder(bool value)
{
    if (placeholder == value)
        return;
    placeholder = value;
    Q_EMIT q->placeholderChanged();
}

} // namespace DataClient
