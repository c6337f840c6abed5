// The apps of docs/getting-started.md do what the page says, against an in-process API shaped
// like the demo's: the C++ app lists user 1's todos and completes the first one; the QML app's
// ListView shows them, with dates from the Deserialize.dateTime field.
#include <DataClient/testing/fakerestapi.h>
#include <DataClient/testing/sampledata.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtQml/QQmlApplicationEngine>
#include <QtQuick/QQuickItem>
#include <QSignalSpy>
#include <QTest>

using namespace DataClient::Testing;
using namespace Qt::StringLiterals;

class tst_GettingStarted : public QObject
{
    Q_OBJECT

private:
    TestServer server;
    FakeRestApi api {&server};

    QList<QJsonObject> todosOfUser(int userId) const
    {
        QList<QJsonObject> todos;
        for (const QJsonValue &todo : api.collection(u"/todos"_s)) {
            if (todo[u"userId"_s].toInt() == userId)
                todos.append(todo.toObject());
        }
        return todos;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(SampleData::install(&api, 3, 24));
        QVERIFY(server.listen());
        QVERIFY(todosOfUser(1).size() >= 2);
    }

    void cppAppListsAndCompletes()
    {
        const QList<QJsonObject> before = todosOfUser(1);
        QJsonObject first = before.constFirst();
        first[u"completed"_s] = false; // so that completing it is a visible change
        QVERIFY(api.setItem(u"/todos"_s, first));

        QProcess process;
        process.start(QStringLiteral(TODOS_EXECUTABLE), {server.url()});
        QSignalSpy finished(&process, &QProcess::finished);
        QVERIFY(finished.wait(60000));
        const QString out = QString::fromLocal8Bit(process.readAllStandardOutput());
        QVERIFY2(process.exitCode() == 0, qPrintable(out));

        for (const QJsonObject &todo : before) {
            const QString date
                = QDateTime::fromString(todo[u"createdAt"_s].toString(), Qt::ISODateWithMs)
                      .toLocalTime()
                      .toString(u"yyyy-MM-dd"_s);
            const QString mark = todo[u"id"_s] == first[u"id"_s] || !todo[u"completed"_s].toBool()
                ? u"[ ] "_s
                : u"[x] "_s;
            QVERIFY2(out.contains(mark + todo[u"title"_s].toString() + u"  ("_s + date + u')'),
                     qPrintable(out));
        }
        QVERIFY2(out.contains(u"completed: "_s + first[u"title"_s].toString()), qPrintable(out));
        QVERIFY(out.contains(u"store changed: "_s));
        QCOMPARE(api.item(u"/todos"_s, first[u"id"_s])[u"completed"_s], QJsonValue(true));
        const auto patches = server.requests("PATCH", u"/todos/%1"_s.arg(first[u"id"_s].toInt()));
        QCOMPARE(patches.size(), 1);
        QCOMPARE(patches.constFirst().json(), QJsonValue(QJsonObject {{u"completed"_s, true}}));
    }

    void qmlAppShowsTheList()
    {
        QQmlApplicationEngine engine;
        engine.addImportPath(QStringLiteral(DATACLIENT_QML_DIR));
        engine.setInitialProperties({{u"apiUrl"_s, server.url()}});
        engine.load(QUrl::fromLocalFile(QStringLiteral(GETTING_STARTED_DIR "/Main.qml")));
        QCOMPARE(engine.rootObjects().size(), 1);
        auto *list = engine.rootObjects().constFirst()->findChild<QQuickItem *>(u"todoList"_s);
        QVERIFY(list);
        const QList<QJsonObject> expected = todosOfUser(1);
        QTRY_COMPARE_WITH_TIMEOUT(list->property("count").toInt(), int(expected.size()), 10000);

        // The first delegate shows the title and the date of the first todo.
        QQuickItem *contentItem = list->property("contentItem").value<QQuickItem *>();
        QTRY_VERIFY(contentItem && !contentItem->childItems().isEmpty());
        const QString firstTitle = expected.constFirst()[u"title"_s].toString();
        QStringList texts;
        for (QQuickItem *delegate : contentItem->childItems())
            texts.append(delegate->property("text").toString());
        QVERIFY2(std::any_of(texts.cbegin(), texts.cend(),
                             [&](const QString &text) {
                                 return text.startsWith(firstTitle + u"  ("_s)
                                     && text.contains(u"2023"_s);
                             }),
                 qPrintable(texts.join(u" | "_s)));
    }
};

QTEST_MAIN(tst_GettingStarted)
#include "tst_gettingstarted.moc"
