// The longest GUI-thread stall of a scenario: a 1 ms timer beats whenever the event loop gets
// control back, so the longest gap between two beats is how long the thread was busy (a stall
// shorter than 1 ms reads as about 1 ms; longer ones as they are). Not a zero-interval timer:
// that kept the GUI thread spinning, a whole core of the 2-core VM taken from the server thread
// and the parse and normalize workers of the very answer being measured, which an
// application's idle event loop does not do.
#pragma once

#include <QtCore/QElapsedTimer>
#include <QtCore/QTimer>

#include <algorithm>

namespace Bench {

class StallMeter
{
public:
    //! Starts the clock and the heartbeat.
    StallMeter()
    {
        m_heartbeat.setInterval(1);
        m_heartbeat.setTimerType(Qt::PreciseTimer);
        QObject::connect(&m_heartbeat, &QTimer::timeout, [this] { beat(); });
        m_clock.start();
        m_heartbeat.start();
    }
    //! Nanoseconds since the start.
    qint64 elapsed() const { return m_clock.nsecsElapsed(); }
    //! Stops; returns the longest stall in ms (up to now, so a last busy stretch counts).
    double stop()
    {
        beat();
        m_heartbeat.stop();
        return double(m_longest) / 1e6;
    }

private:
    void beat()
    {
        const qint64 now = m_clock.nsecsElapsed();
        m_longest = std::max(m_longest, now - m_lastBeat);
        m_lastBeat = now;
    }

    QElapsedTimer m_clock;
    QTimer m_heartbeat;
    qint64 m_lastBeat = 0;
    qint64 m_longest = 0;
};

} // namespace Bench
