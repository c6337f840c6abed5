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
        m_previous = qInstallMessageHandler(&LogCapture::handle);
        // A filter, not setFilterRules(): QT_LOGGING_RULES (set by ctest) would override rules.
        s_previousFilter = QLoggingCategory::installFilter(&LogCapture::filter);
    }
    ~LogCapture()
    {
        QLoggingCategory::installFilter(s_previousFilter);
        qInstallMessageHandler(m_previous);
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
    bool waitFor(const QString &text, int timeoutMs = 30000) const
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

    static void filter(QLoggingCategory *category)
    {
        if (s_previousFilter)
            s_previousFilter(category);
        const char *name = category->categoryName();
        if (qstrcmp(name, "dataclient.rest") == 0 || qstrcmp(name, "dataclient.controller") == 0)
            category->setEnabled(QtDebugMsg, true);
    }

    static inline LogCapture *s_current = nullptr;
    static inline QLoggingCategory::CategoryFilter s_previousFilter = nullptr;
    QtMessageHandler m_previous = nullptr;
    mutable QMutex m_mutex;
    QStringList m_messages;
};
