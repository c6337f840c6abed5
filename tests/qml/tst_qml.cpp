// Runs the Qt Quick tests in tests/qml/tst_*.qml against an in-process REST backend (`backend`
// in QML). Every test file gets a fresh engine; they share the backend and the default
// Controller, so each test case resets both in init().
#include "testbackend.h"

#include <QtQml/QQmlContext>
#include <QtQml/QQmlEngine>
#include <QtQuickTest/quicktest.h>

class Setup : public QObject
{
    Q_OBJECT

public Q_SLOTS:
    void qmlEngineAvailable(QQmlEngine *engine)
    {
        if (!m_backend) {
            m_backend = new TestBackend(this);
            if (!m_backend->isListening())
                qFatal("tst_qml: the test server could not listen on 127.0.0.1");
        }
        engine->rootContext()->setContextProperty(QStringLiteral("backend"), m_backend);
    }

private:
    TestBackend *m_backend = nullptr;
};

QUICK_TEST_MAIN_WITH_SETUP(tst_qml, Setup)

#include "tst_qml.moc"
