#include "qmlcontrollerlookup_p.h"

#include <DataClient/controller.h>
#include <DataClient/qmlcontroller.h>

#include <QtCore/QHash>
#include <QtCore/QPointer>
#include <QtQml/QQmlEngine>

namespace DataClient {

namespace {
// GUI thread only (engines and controllers live there).
QHash<QQmlEngine *, QPointer<Controller>> &engineControllers()
{
    static QHash<QQmlEngine *, QPointer<Controller>> controllers;
    return controllers;
}
} // namespace

void setQmlController(QQmlEngine *engine, Controller *controller)
{
    if (!engine)
        return;
    auto &controllers = engineControllers();
    if (!controller) {
        controllers.remove(engine);
        return;
    }
    if (!controllers.contains(engine))
        QObject::connect(engine, &QObject::destroyed,
                         [engine] { engineControllers().remove(engine); });
    controllers.insert(engine, controller);
}

Controller *qmlController(QQmlEngine *engine)
{
    const QPointer<Controller> chosen = engineControllers().value(engine);
    return chosen ? chosen.data() : Controller::instance();
}

namespace Qml {
Controller *controllerFor(const QObject *qmlObject)
{
    return qmlController(qmlEngine(qmlObject));
}
} // namespace Qml

} // namespace DataClient
