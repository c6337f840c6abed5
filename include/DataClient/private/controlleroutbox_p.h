// Private API of the controller layer: the outbox file hook. The persisted store
// calls ControllerPrivate::setOutboxFile() with "<persistence file>.outbox"; tests reach it here.
#pragma once

#include <DataClient/private/testexport_p.h>

#include <QtCore/QString>

namespace DataClient {
class Controller;
}

namespace DataClient::detail {

/*!
    Loads \a controller's outbox from \a path (its items are shown optimistically and replayed)
    and rewrites the file, synchronously, whenever the outbox changes. An empty path: memory
    only. A corrupt file is dropped with a warning; an unwritable one warns once.
*/
DATACLIENT_TEST_EXPORT void setOutboxFile(Controller *controller, const QString &path);

} // namespace DataClient::detail
