// Counts the warnings that match a pattern while it lives, and lets the others through: for a
// promise of "one warning" however often the cause repeats.
#pragma once

#include <QtCore/QRegularExpression>
#include <QtCore/QStringList>
#include <QtCore/QtGlobal>

//! Counts the warnings that match a pattern while it lives (and lets the others through).
class WarningCounter
{
public:
    explicit WarningCounter(const QString &pattern) : m_pattern(pattern)
    {
        s_current = this;
        m_previous = qInstallMessageHandler(&WarningCounter::handle);
    }
    ~WarningCounter()
    {
        qInstallMessageHandler(m_previous);
        s_current = nullptr;
    }
    Q_DISABLE_COPY_MOVE(WarningCounter)
    int count = 0;
    QStringList messages;

private:
    static void handle(QtMsgType type, const QMessageLogContext &context, const QString &message)
    {
        WarningCounter *self = s_current;
        if (self && type == QtWarningMsg && self->m_pattern.match(message).hasMatch()) {
            ++self->count;
            self->messages.append(message);
            return;
        }
        if (self && self->m_previous)
            self->m_previous(type, context, message);
    }
    QRegularExpression m_pattern;
    QtMessageHandler m_previous = nullptr;
    static inline WarningCounter *s_current = nullptr;
};
