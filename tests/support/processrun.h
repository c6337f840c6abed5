// Runs an example program the way a user does, while this test process keeps serving its own
// event loop (some tests answer the program's requests from an in-process server).
#pragma once

#include <QtCore/QProcess>
#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QSignalSpy>

//! How a program run ended: exit code (-1 did not start, -2 timed out, -3 crashed) and output.
struct ProcessRun
{
    int exitCode = -1;
    QString out;
    QString err;
};

inline ProcessRun runProcess(const QString &program, const QStringList &arguments,
                             int timeoutMs = 60000)
{
    QProcess process;
    process.start(program, arguments);
    QSignalSpy finished(&process, &QProcess::finished);
    if (!process.waitForStarted(10000))
        return {-1, {}, QStringLiteral("could not start ") + program};
    if (!finished.wait(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        return {-2, {}, program + QStringLiteral(" did not exit within %1 ms").arg(timeoutMs)};
    }
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -3,
            QString::fromLocal8Bit(process.readAllStandardOutput()),
            QString::fromLocal8Bit(process.readAllStandardError())};
}
