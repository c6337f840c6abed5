// The Controller a QML object uses: the one set for its engine (setQmlController), else the
// global Controller::instance().
#pragma once

#include <QtCore/QObject>

namespace DataClient {
class Controller;
namespace Qml {
Controller *controllerFor(const QObject *qmlObject);
} // namespace Qml
} // namespace DataClient
