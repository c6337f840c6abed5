// Which Controller QML code uses: the `Controller` singleton, Suspense and Live of one engine.
#pragma once

#include <DataClient/global.h>

QT_BEGIN_NAMESPACE
class QQmlEngine;
QT_END_NAMESPACE

namespace DataClient {

class Controller;

/*!
    Makes \a controller the one the QML code of \a engine uses (the `Controller` singleton and
    every Suspense / Live created afterwards). Not owned. nullptr (the default) means
    Controller::instance(). Call it before loading QML:

    \code
    QQmlApplicationEngine engine;
    DataClient::setQmlController(&engine, &myController);
    engine.load(QUrl(u"qrc:/qt/qml/App/Main.qml"_s));
    \endcode
*/
DATACLIENT_QML_EXPORT void setQmlController(QQmlEngine *engine, Controller *controller);
//! The Controller QML code of \a engine uses (Controller::instance() unless one was set).
DATACLIENT_QML_EXPORT Controller *qmlController(QQmlEngine *engine);

} // namespace DataClient
