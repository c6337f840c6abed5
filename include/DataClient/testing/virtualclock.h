// VirtualClock: time a test moves by hand, for every Controller it is installed on
// (the base of the testing kit).
#pragma once

#include <DataClient/global.h>

#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtCore/QPointer>

namespace DataClient {
class Controller;
}

namespace DataClient::Testing {

/*!
    A clock that stands still until advance() moves it. Installed on a Controller, it becomes the
    Controller's clock: expiry, polling, retry backoff and every other wait of the Controller's
    scheduler follow it, so a test checks what happens after 30 s without waiting 30 s:

    \code
    Testing::VirtualClock clock(&controller); // installed at once
    controller.fetch(todos.getList);   // fails with 503: retry 1 waits its backoff
    clock.advance(1000);               // runs the retry now, synchronously
    \endcode

    advance() moves time to each due wait in turn and runs it there, in due order, so a task
    sees now() equal to its due time. Requests it starts still need the event loop to be
    answered (wait for a signal: QSignalSpy::wait, QTRY_*). The clock never sleeps.
*/
class DATACLIENT_TESTING_EXPORT VirtualClock : public QObject
{
    Q_OBJECT

public:
    //! A clock at \a startMs (ms since the epoch; default 2024-01-01T00:00:00Z).
    explicit VirtualClock(qint64 startMs = 1704067200000, QObject *parent = nullptr);
    //! A clock at the default start, installed on \a controller at once (and a child of nothing:
    //! declare it after the Controller so that it is destroyed first, or uninstall it).
    explicit VirtualClock(DataClient::Controller *controller);
    ~VirtualClock() override;

    qint64 now() const { return m_now; }
    //! Makes this the clock of \a controller (Controller::setClock); uninstalled when this clock
    //! is destroyed (the Controller's system clock returns).
    void install(DataClient::Controller *controller);
    void uninstall(DataClient::Controller *controller);

    /*!
        Moves time forward by \a ms (>= 0), stopping at every wait due on the way to run it (and
        what it schedules for the same moment). Returns how many waits ran. A negative \a ms is
        refused: time never goes back (a warning, time unchanged, returns -1).
    */
    int advance(qint64 ms);
    //! advance() to the earliest wait of the installed Controllers, if any; returns its wait in
    //! ms or -1 when nothing waits.
    qint64 advanceToNext();

Q_SIGNALS:
    //! After each advance(), with the new time.
    void advanced(qint64 now);

private:
    //! The earliest due time over the installed Controllers, or -1.
    qint64 nextDue() const;
    //! Runs what is due now on every installed Controller, until nothing more is.
    int runDue();

    qint64 m_now;
    QList<QPointer<DataClient::Controller>> m_controllers;
};

} // namespace DataClient::Testing
