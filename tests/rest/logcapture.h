// Captures the library's debug messages (dataclient.rest, dataclient.controller) so a test can
// assert which path a request took, without timing anything.
#pragma once

#include <QtCore/QLoggingCategory>
#include <QtCore/QMutex>
#include <QtCore/QStringList>
#include <QTest>

class LogCapture
{
public:
    LogCapture()
    {
        s_current = this;
        QLoggingCategory::setFilterRules(
            QStringLiteral("dataclient.rest.debug=true\ndataclient.controller.debug=true"));
        m_previous = qInstallMessageHandler(&LogCapture::handle);
    }
    ~LogCapture()
    {
        qInstallMessageHandler(m_previous);
        QLoggingCategory::setFilterRules(QString());
        s_current = nullptr;
    }
    LogCapture(const LogCapture &) = delete;
    LogCapture &operator=(const LogCapture &) = delete;

    //! How many captured messages contain \a text.
    qsizetype count(const QString &text) const
    {
        QMutexLocker lock(&m_mutex);
        qsizetype n = 0;
        for (const QString &message : m_messages)
            n += message.contains(text) ? 1 : 0;
        return n;
    }
    bool contains(const QString &text) const { return count(text) > 0; }
    //! Spins the event loop until a message contains \a text.
    bool waitFor(const QString &text, int timeoutMs = 10000) const
    {
        return QTest::qWaitFor([&] { return contains(text); }, timeoutMs);
    }
    void clear()
    {
        QMutexLocker lock(&m_mutex);
        m_messages.clear();
    }

private:
    static void handle(QtMsgType type, const QMessageLogContext &context, const QString &message)
    {
        LogCapture *self = s_current;
        if (self && type == QtDebugMsg) {
            QMutexLocker lock(&self->m_mutex);
            self->m_messages.append(message);
            return;
        }
        if (self && self->m_previous)
            self->m_previous(type, context, message);
    }

    static inline LogCapture *s_current = nullptr;
    QtMessageHandler m_previous = nullptr;
    mutable QMutex m_mutex;
    QStringList m_messages;
};
