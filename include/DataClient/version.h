// Library version, for apps that print or check it.
#pragma once

#include <DataClient/global.h>

#include <QtCore/QString>

namespace DataClient {

//! The version of the DataClient library the app runs against, e.g. "0.1.0".
DATACLIENT_SCHEMA_EXPORT QString version();

} // namespace DataClient
