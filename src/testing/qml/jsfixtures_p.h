// Fixtures written in QML (`{ endpoint: todos.get, params: { id: 1 }, response: {...} }`) as
// Testing::Fixture, and the Controller a QML testing element attaches to.
#pragma once

#include <DataClient/testing/fixture.h>

#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtQml/QJSValue>

namespace DataClient {
class Controller;
}

namespace DataClient::Testing::Qml {

/*!
    Reads a JS array of fixture objects. Keys: endpoint (an Endpoint, e.g. todos.get) or
    method + url, params, body, response, error (bool), status, headers ({name: value}),
    delayMs, networkError (true or a QNetworkReply::NetworkError number). An unknown key or a
    value of the wrong kind is an error (\a error says which fixture and key); returns the
    fixtures read so far.
*/
QList<Fixture> fixturesFromJs(const QJSValue &fixtures, QString *error);

//! \a chosen when set, else the Controller of \a qmlObject's engine (DataClient::qmlController).
Controller *controllerOf(const QObject *qmlObject, QObject *chosen);

} // namespace DataClient::Testing::Qml
