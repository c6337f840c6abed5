// Uses the C++ API and the QML module from the installed package; exits non-zero on any failure.
#include <DataClient/DataClient.h>

#include <QtCore/QCoreApplication>
#include <QtCore/QTextStream>
#include <QtQml/QQmlComponent>
#include <QtQml/QQmlEngine>

#include <memory>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QTextStream out(stdout);
    out << "DataClient " << DataClient::version() << '\n';

    QQmlEngine engine;
    engine.addImportPath(QStringLiteral(DATACLIENT_QML_DIR));
    QQmlComponent component(&engine);
    component.setData(
        "import QtQml\nimport DataClient\nQtObject { property string v: DataClientInfo.version }",
        QUrl(QStringLiteral("inline.qml")));
    std::unique_ptr<QObject> object(component.create());
    if (!object) {
        out << "QML module failed to load: " << component.errorString() << '\n';
        return 1;
    }
    const QString qmlVersion = object->property("v").toString();
    out << "QML module DataClient " << qmlVersion << '\n';
    return qmlVersion == DataClient::version() ? 0 : 2;
}
