// mockInitialState: the store filled from fixtures, so a screen renders its data
// synchronously without a request.
#pragma once

#include <DataClient/global.h>
#include <DataClient/testing/fixture.h>

#include <QtCore/QList>
#include <QtCore/QString>

namespace DataClient {
class Controller;
}

namespace DataClient::Testing {

/*!
    Stores each fixture's answer in \a controller as if its endpoint had answered now
    (Controller::setResponse), and each error fixture's error (Controller::setError): queries
    and models then show them at once, and fetchIfStale() sends nothing while they are fresh.
    Every fixture needs an endpoint. A fixture whose params cannot build the endpoint's URL (the
    missing parameter is named) or whose response does not fit the schema (the SchemaError's
    path) fails the running test, or, with \a error given, is reported there instead; the
    fixtures after it are not stored. Returns whether all were stored.
*/
DATACLIENT_TESTING_EXPORT bool mockInitialState(DataClient::Controller *controller,
                                                const QList<Fixture> &fixtures,
                                                QString *error = nullptr,
                                                const char *file = __builtin_FILE(),
                                                int line = __builtin_LINE());

} // namespace DataClient::Testing
