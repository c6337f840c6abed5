// Call parameters: the URL parameters object of an endpoint call, also the arguments
// that identify a Collection.
#pragma once

#include <QtCore/QVariantMap>

namespace DataClient {

//! Parameters of one call, e.g. {{"id", "5"}} or {{"userId", 1}, {"orderBy", "title"}}.
//! Values are strings, numbers, booleans or lists of those; they are compared as strings.
using Params = QVariantMap;

} // namespace DataClient
