// The app-wide defaults (the default Controller, REST's default network manager) are children of
// the application object. They must be gone before ~QCoreApplication clears
// QCoreApplication::instance(): a network manager deleted later still runs its network thread,
// which can be delivering an event through the application object just then (a crash at exit
// seen once in CI, in tst_customresponses). The probe program reports when each is destroyed.
#include "processrun.h"

#include <QTest>

class tst_ControllerTeardown : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void defaultsAreDeletedWhileTheApplicationIsWhole()
    {
        const ProcessRun run = runProcess(QStringLiteral(TEARDOWN_PROBE), {});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.out.startsWith(QStringLiteral("started\n")), qPrintable(run.out));
        for (const char *what : {"REST default network manager", "default Controller",
                                 "default Controller's network manager"}) {
            const QString line = QString::fromLatin1(what) + QStringLiteral(": destroyed ");
            QVERIFY2(run.out.contains(line + QStringLiteral("before the application")),
                     qPrintable(run.out));
            QVERIFY2(!run.out.contains(line + QStringLiteral("after the application")),
                     qPrintable(run.out));
        }
    }
};

QTEST_GUILESS_MAIN(tst_ControllerTeardown)
#include "tst_controller_teardown.moc"
