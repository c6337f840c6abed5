// The longest GUI-thread stall of a scenario: a zero-interval timer fires whenever the event loop
// gets control back, so the longest gap between two beats is how long the thread was busy
// (scenarios_qml.cpp, scenarios_reconnect.cpp).
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
        m_heartbeat.setInterval(0);
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
