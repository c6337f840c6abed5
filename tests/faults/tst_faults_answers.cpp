// The fault suite, answers that never come whole: too slow, cut short, 5xx.
// One data-driven test per family; every row aims the fault at each kind of request and checks
// the error reported (kind, status, message) and that the Controller then shows exactly what the
// server holds (faultsuite.h, serverview.h).
#include "faultsuite.h"

#include <QTest>

using namespace FaultSuite;
using Ending = ServerResponse::Ending;

class tst_FaultsAnswers : public FaultTest
{
    Q_OBJECT

private Q_SLOTS:
    // An answer slower than the endpoint's timeout: whole but late, or stalled mid-body.
    void slowerThanTheTimeout_data()
    {
        addColumns();
        const QString deadline = u"%1 ms"_s.arg(TimeoutMs);
        for (const Aim &aim : everyRequest) {
            QTest::addRow("%s late", aim.name)
                << aim.request << goodAnswer(aim.request).withDelay(TimeoutMs * 4)
                << NetworkError::Kind::Timeout << 0 << deadline;
            if (aim.request != Request::Delete) // its answer has no body to stall in
                QTest::addRow("%s stalled mid-body", aim.name)
                    << aim.request << goodAnswer(aim.request).cutAfter(6, Ending::Stall)
                    << NetworkError::Kind::Timeout << 0 << deadline;
        }
    }
    void slowerThanTheTimeout() { runRow(); }

    // The connection dropped: before any answer, or after the head and part of the body.
    void connectionDropped_data()
    {
        addColumns();
        for (const Aim &aim : everyRequest) {
            QTest::addRow("%s dropped before answering", aim.name)
                << aim.request << ServerResponse::drop() << NetworkError::Kind::Network << 0
                << u"closed"_s;
            if (aim.request != Request::Delete)
                QTest::addRow("%s dropped mid-body", aim.name)
                    << aim.request << goodAnswer(aim.request).cutAfter(6, Ending::Close)
                    << NetworkError::Kind::Network << 0 << u"closed"_s;
        }
    }
    void connectionDropped() { runRow(); }

    // 500, 502, 503: reads keep their data (a soft error beside it), optimistic mutations roll
    // back.
    void serverErrors_data()
    {
        addColumns();
        // 500 on every request; 502 and 503 on a read of each kind and a mutation.
        for (const int status : {500, 502, 503}) {
            for (const Aim &aim : everyRequest) {
                if (status != 500 && aim.request != Request::ReadList
                    && aim.request != Request::ReadOne && aim.request != Request::Patch)
                    continue;
                QTest::addRow("%s %d", aim.name, status)
                    << aim.request << ServerResponse::json(errorBody(status), status)
                    << NetworkError::Kind::Http << status << QString::number(status);
            }
        }
        QTest::newRow("patch 503 as an HTML page")
            << Request::Patch
            << ServerResponse::raw("<html><body>Service Unavailable</body></html>", "text/html",
                                   503)
            << NetworkError::Kind::Http << 503 << u"503"_s;
    }
    void serverErrors() { runRow(); }
};

QTEST_GUILESS_MAIN(tst_FaultsAnswers)
#include "tst_faults_answers.moc"
