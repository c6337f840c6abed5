#include "sseparser_p.h"

#include <utility>

namespace DataClient::detail {

namespace {

bool allDigits(QByteArrayView value)
{
    if (value.isEmpty())
        return false;
    for (const char c : value) {
        if (c < '0' || c > '9')
            return false;
    }
    return true;
}

} // namespace

QList<SseEvent> SseParser::feed(QByteArrayView bytes)
{
    QList<SseEvent> out;
    if (m_overLimit)
        return out;
    if (!m_bomChecked) {
        // A UTF-8 byte order mark at the very start is skipped; it may arrive split too.
        static constexpr QByteArrayView Bom("\xEF\xBB\xBF");
        m_bomPending += bytes;
        if (m_bomPending.size() < Bom.size() && Bom.startsWith(m_bomPending))
            return out; // not known yet: more bytes decide
        m_bomChecked = true;
        QByteArray all = std::exchange(m_bomPending, {});
        if (all.startsWith(Bom))
            all.remove(0, Bom.size());
        return feed(all);
    }
    qsizetype i = 0;
    qsizetype lineStart = i;
    for (; i < bytes.size(); ++i) {
        const char c = bytes[i];
        if (c != '\r' && c != '\n')
            continue;
        const bool lfAfterCr = c == '\n' && m_afterCr && i == lineStart && m_line.isEmpty();
        m_afterCr = c == '\r';
        if (!lfAfterCr) {
            if (m_line.isEmpty()) {
                line(bytes.sliced(lineStart, i - lineStart), &out);
            } else {
                m_line += bytes.sliced(lineStart, i - lineStart);
                const QByteArray whole = std::exchange(m_line, {});
                line(whole, &out);
            }
            if (m_overLimit)
                return out;
        }
        lineStart = i + 1;
    }
    if (lineStart < bytes.size()) {
        m_afterCr = false;
        m_line += bytes.sliced(lineStart);
        if (m_maxEventBytes > 0 && m_eventBytes + m_line.size() > m_maxEventBytes)
            m_overLimit = true;
    }
    return out;
}

void SseParser::restart()
{
    m_line.clear();
    m_afterCr = false;
    m_bomChecked = false;
    m_bomPending.clear();
    m_type.clear();
    m_data.clear();
    m_hasData = false;
    m_eventBytes = 0;
    m_overLimit = false;
}

void SseParser::line(QByteArrayView text, QList<SseEvent> *out)
{
    ++m_lines;
    if (text.isEmpty()) {
        // An empty line dispatches the event; one without data is dropped (only its type).
        if (m_hasData) {
            if (m_data.endsWith(QLatin1Char('\n')))
                m_data.chop(1);
            out->append(
                {m_type.isEmpty() ? QStringLiteral("message") : m_type, m_data, m_lastEventId});
        }
        m_type.clear();
        m_data.clear();
        m_hasData = false;
        m_eventBytes = 0;
        return;
    }
    m_eventBytes += text.size() + 1;
    if (m_maxEventBytes > 0 && m_eventBytes > m_maxEventBytes) {
        m_overLimit = true;
        return;
    }
    if (text.front() == ':')
        return; // a comment: a heartbeat keeps the connection alive, nothing else
    const qsizetype colon = text.indexOf(':');
    if (colon < 0)
        return field(text, {});
    QByteArrayView value = text.sliced(colon + 1);
    if (value.startsWith(' '))
        value = value.sliced(1);
    field(text.first(colon), value);
}

void SseParser::field(QByteArrayView name, QByteArrayView value)
{
    if (name == "event") {
        m_type = QString::fromUtf8(value);
    } else if (name == "data") {
        m_data += QString::fromUtf8(value);
        m_data += QLatin1Char('\n');
        m_hasData = true;
    } else if (name == "id") {
        if (!value.contains('\0'))
            m_lastEventId = QString::fromUtf8(value);
    } else if (name == "retry") {
        if (allDigits(value) && value.size() <= 12)
            m_retryMs = value.toLongLong();
    }
    // Any other field is ignored, as the standard says.
}

} // namespace DataClient::detail
