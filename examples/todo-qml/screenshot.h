// --screenshot: waits (on a signal, never a sleep) until the root item says its data is shown,
// renders the window to a PNG and quits; quits with 1 and a message if that never happens.
#pragma once

#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtCore/QString>
#include <QtCore/QTimer>

QT_BEGIN_NAMESPACE
class QQuickWindow;
QT_END_NAMESPACE

class Screenshot : public QObject
{
    Q_OBJECT
public:
    /*!
      Watches \a window's bool property \a readyProperty (with a NOTIFY signal); when it is true,
      saves the window to \a file and quits the application with 0. After \a timeoutMs without
      it, prints the window's \a statusProperty (a string saying what is missing) and quits with 1.
    */
    Screenshot(QQuickWindow *window, const QString &file, int timeoutMs,
               const char *readyProperty = "dataShown", const char *statusProperty = "statusText");

private Q_SLOTS:
    void check();

private:
    void timedOut();
    void finish(int exitCode, const QString &message);

    QPointer<QQuickWindow> m_window;
    QString m_file;
    int m_timeoutMs;
    const char *m_readyProperty;
    const char *m_statusProperty;
    QTimer m_timeout;
    bool m_done = false;
};
