// examples/testing: the todo screen against a real API (argument 1, e.g. http://localhost:3000).
#include "todoscreen.h"

#include <DataClient/controller.h>

#include <QtGui/QGuiApplication>
#include <QtQuick/QQuickView>

int main(int argc, char **argv)
{
    QGuiApplication app(argc, argv);
    const QString api
        = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral("http://localhost:3000");
    TodoScreen screen(DataClient::Controller::instance(), api);
    QQuickView view;
    view.setInitialProperties({{QStringLiteral("screen"), QVariant::fromValue(&screen)}});
    view.setSource(QUrl(QStringLiteral("qrc:/qt/qml/TestingExample/Main.qml")));
    view.show();
    return app.exec();
}
