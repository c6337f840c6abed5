#include "screenshot.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QMetaProperty>
#include <QtCore/QTextStream>
#include <QtGui/QImage>
#include <QtQuick/QQuickWindow>

using namespace Qt::StringLiterals;

Screenshot::Screenshot(QQuickWindow *window, const QString &file, int timeoutMs,
                       const char *readyProperty, const char *statusProperty)
    : QObject(window),
      m_window(window),
      m_file(file),
      m_timeoutMs(timeoutMs),
      m_readyProperty(readyProperty),
      m_statusProperty(statusProperty)
{
    const QMetaObject *meta = window->metaObject();
    const int index = meta->indexOfProperty(readyProperty);
    if (index < 0 || !meta->property(index).hasNotifySignal()) {
        finish(
            1,
            u"the window has no notifying property '%1'"_s.arg(QLatin1StringView(readyProperty)));
        return;
    }
    const QMetaMethod checkSlot
        = staticMetaObject.method(staticMetaObject.indexOfMethod("check()"));
    // Queued: look once the change that made the property true (e.g. a model being filled
    // row by row) has finished.
    connect(window, meta->property(index).notifySignal(), this, checkSlot, Qt::QueuedConnection);
    m_timeout.setSingleShot(true);
    connect(&m_timeout, &QTimer::timeout, this, &Screenshot::timedOut);
    m_timeout.start(timeoutMs);
    // The data may already be there (e.g. bindings settled during load).
    QMetaObject::invokeMethod(this, &Screenshot::check, Qt::QueuedConnection);
}

void Screenshot::check()
{
    if (m_done || !m_window || !m_window->property(m_readyProperty).toBool())
        return;
    // grabWindow() polishes (creates the delegates), syncs and renders the scene itself.
    const QImage image = m_window->grabWindow();
    if (image.isNull())
        return finish(1, u"rendering the window failed (QQuickWindow::grabWindow)"_s);
    if (!image.save(m_file, "PNG"))
        return finish(1, u"cannot write '%1'"_s.arg(m_file));
    // What the picture shows, in words too: the test of --offline reads it.
    finish(0,
           u"saved %1 (%2x%3): %4"_s.arg(m_file)
               .arg(image.width())
               .arg(image.height())
               .arg(m_window->property(m_statusProperty).toString()));
}

void Screenshot::timedOut()
{
    const QString status
        = m_window ? m_window->property(m_statusProperty).toString() : u"no window"_s;
    finish(1, u"no data shown within %1 ms (%2)"_s.arg(m_timeoutMs).arg(status));
}

void Screenshot::finish(int exitCode, const QString &message)
{
    m_done = true;
    m_timeout.stop();
    QTextStream(exitCode == 0 ? stdout : stderr)
        << (exitCode == 0 ? u""_s : u"dataclient-demo: error: "_s) << message << Qt::endl;
    // Queued: exit() before exec() is ignored, and the constructor may be where we fail.
    QMetaObject::invokeMethod(
        qApp, [exitCode] { QCoreApplication::exit(exitCode); }, Qt::QueuedConnection);
}
