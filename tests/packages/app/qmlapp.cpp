// Shows the todos of a server in a QML ListView (run with QT_QPA_PLATFORM=offscreen) and exits
// 0 once the view has the three seeded rows. `import DataClient` works with no import path.
#include <DataClient/testing/fakerestapi.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QTextStream>
#include <QtCore/QTimer>
#include <QtGui/QGuiApplication>
#include <QtQml/QQmlApplicationEngine>

int main(int argc, char **argv)
{
    QGuiApplication app(argc, argv);
    QTextStream out(stdout);
    DataClient::Testing::TestServer server;
    DataClient::Testing::FakeRestApi api(&server);
    QJsonArray todos;
    for (int id = 1; id <= 3; ++id)
        todos.append(QJsonObject {{QStringLiteral("id"), id},
                                  {QStringLiteral("title"), QStringLiteral("todo %1").arg(id)}});
    if (!server.listen() || !api.addCollection(QStringLiteral("/todos"), todos))
        return 3;
    QQmlApplicationEngine engine;
    engine.setInitialProperties({{QStringLiteral("serverUrl"), server.url()}});
    engine.load(QUrl::fromLocalFile(QStringLiteral(APP_QML)));
    if (engine.rootObjects().isEmpty())
        return 2;
    QObject *root = engine.rootObjects().constFirst();
    QObject::connect(root, SIGNAL(rowsShown()), &app, SLOT(quit()));
    QTimer::singleShot(20000, &app, [&] { app.exit(1); }); // a failure, not a wait: never hit
    const int code = app.exec();
    out << "QML app: " << root->property("rows").toInt() << " rows shown\n";
    return code;
}
