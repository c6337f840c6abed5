// Which Controller QML uses: Controller::instance() by default, or the one an application sets for
// its engine with DataClient::setQmlController().
#include <DataClient/collectionmodel.h>
#include <DataClient/controller.h>
#include <DataClient/qmlcontroller.h>

#include <QtQml/QQmlComponent>
#include <QtQml/QQmlEngine>
#include <QTest>

using namespace Qt::StringLiterals;

class tst_QmlController : public QObject
{
    Q_OBJECT

private:
    static std::unique_ptr<QObject> create(QQmlEngine &engine, const QByteArray &qml)
    {
        QQmlComponent component(&engine);
        component.setData(qml, QUrl::fromLocalFile(u"inline.qml"_s));
        std::unique_ptr<QObject> object(component.create());
        if (!object)
            qWarning() << component.errors();
        return object;
    }

private Q_SLOTS:
    void defaultIsTheGlobalInstance()
    {
        QQmlEngine engine;
        auto root = create(engine,
                           "import QtQml; import DataClient\n"
                           "QtObject { property QtObject c: Controller.controller }");
        QVERIFY(root);
        QCOMPARE(root->property("c").value<QObject *>(), DataClient::Controller::instance());
        QCOMPARE(DataClient::qmlController(&engine), DataClient::Controller::instance());
    }

    void anApplicationSetsItsOwn()
    {
        DataClient::Controller myController;
        QQmlEngine engine;
        DataClient::setQmlController(&engine, &myController);
        auto root = create(engine,
                           "import QtQml; import DataClient\n"
                           "QtObject {\n"
                           "    property QtObject c: Controller.controller\n"
                           "    property Suspense query: Suspense { params: null }\n"
                           "}");
        QVERIFY(root);
        QCOMPARE(root->property("c").value<QObject *>(), &myController);
        auto *query = root->property("query").value<DataClient::CollectionModel *>();
        QVERIFY(query);
        QCOMPARE(query->controller(), &myController);
        root.reset();
        DataClient::setQmlController(&engine, nullptr);
        QCOMPARE(DataClient::qmlController(&engine), DataClient::Controller::instance());
    }

    void aDestroyedControllerFallsBackToTheGlobalOne()
    {
        QQmlEngine engine;
        {
            DataClient::Controller shortLived;
            DataClient::setQmlController(&engine, &shortLived);
            QCOMPARE(DataClient::qmlController(&engine), &shortLived);
        }
        QCOMPARE(DataClient::qmlController(&engine), DataClient::Controller::instance());
    }
};

QTEST_MAIN(tst_QmlController)
#include "tst_qmlcontroller.moc"
