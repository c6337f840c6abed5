// The seeds of a soak: from DATACLIENT_SOAK_SEED (default 1), one after another while another
// one fits in DATACLIENT_SOAK_SECONDS (default 8; 0 = the first seed alone) at the pace of
// those before. Shared by tst_soak and tst_viewsoak, so both replay and lengthen the same way.
#pragma once

#include <QtCore/QElapsedTimer>
#include <QtCore/QtGlobal>

class SoakSeeds
{
public:
    SoakSeeds()
        : first(quint32(number("DATACLIENT_SOAK_SEED", 1))),
          seed(first),
          m_seconds(number("DATACLIENT_SOAK_SECONDS", 8))
    {
        m_elapsed.start(); // bounds the run's length; nothing is asserted on time
    }

    const quint32 first;
    quint32 seed; //!< the seed to run now

    //! Moves to the next seed; false when it would not end within the budget.
    bool next()
    {
        ++seed;
        return m_elapsed.elapsed() + m_elapsed.elapsed() / (seed - first) <= m_seconds * 1000;
    }
    //! How many seeds ran (after next() returned false).
    quint32 count() const { return seed - first; }

private:
    static qint64 number(const char *name, qint64 fallback)
    {
        bool ok = false;
        const qint64 value = qEnvironmentVariable(name).toLongLong(&ok);
        return ok ? value : fallback;
    }
    qint64 m_seconds;
    QElapsedTimer m_elapsed;
};
