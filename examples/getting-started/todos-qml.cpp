// Getting started, QML (docs/getting-started.md): the same todos in a ListView. Pass the API's
// base URL as the first argument (e.g. from `dataclient-demo --serve`).
#include <QtGui/QGuiApplication>
#include <QtQml/QQmlApplicationEngine>

using namespace Qt::StringLiterals;

int main(int argc, char **argv)
{
    QGuiApplication app(argc, argv);
    QQmlApplicationEngine engine;
    engine.addImportPath(QStringLiteral(DATACLIENT_QML_DIR)); // where `import DataClient` lives
    engine.setInitialProperties(
        {{u"apiUrl"_s, app.arguments().value(1, u"http://127.0.0.1:8080"_s)}});
    engine.load(QUrl(u"qrc:/qt/qml/Todos/Main.qml"_s)); // Qt 6.4: no loadFromModule yet
    if (engine.rootObjects().isEmpty())
        return 1;
    return app.exec();
}
