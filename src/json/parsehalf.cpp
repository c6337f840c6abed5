#include "parsehalf_p.h"

#include <DataClient/private/vectorstate_p.h>

#include <QtCore/QThreadPool>

namespace DataClient::detail {

namespace {
// Below this a thread's wake-up (tens of microseconds) outweighs half a parse.
constexpr qsizetype DefaultSplitFrom = 256 * 1024;
QAtomicInteger<qint64> g_joined;
QAtomicInteger<qsizetype> g_splitFrom;
QAtomicInt g_waitForHelper;
} // namespace

void ParseHalf::start(const std::shared_ptr<ParseHalf> &half, std::function<void(ParseHalf &)> read)
{
    // The application's global pool: the helper takes a thread the application allows, and
    // when none is free the parser reads the half itself.
    QThreadPool::globalInstance()->start([half, read = std::move(read)] {
        if (!half->claim())
            return; // the parser got there first
        clearUpperVectorState(); // a pool thread may have hashed a QString (vectorstate_p.h)
        read(*half);
        half->m_done.release();
    });
}

qint64 joinedParseHalves()
{
    return g_joined.loadRelaxed();
}

void noteJoinedParseHalf()
{
    g_joined.fetchAndAddRelaxed(1);
}

void setSplitParseFromForTesting(qsizetype bytes, bool waitForHelper)
{
    g_splitFrom.storeRelaxed(bytes);
    g_waitForHelper.storeRelaxed(waitForHelper ? 1 : 0);
}

bool waitForParseHelper()
{
    return g_waitForHelper.loadRelaxed() != 0;
}

qsizetype splitParseFrom()
{
    const qsizetype set = g_splitFrom.loadRelaxed();
    return set > 0 ? set : DefaultSplitFrom;
}

} // namespace DataClient::detail
