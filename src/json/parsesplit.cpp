#include "parsesplit_p.h"

#include <DataClient/private/vectorstate_p.h>

#include <QtCore/QThreadPool>

namespace DataClient::detail {

namespace {
// Below this a thread's wake-up (tens of microseconds, more in a virtual machine) outweighs
// what it could read meanwhile.
constexpr qsizetype DefaultSplitFrom = 256 * 1024;
QAtomicInteger<qint64> g_joined;
QAtomicInteger<qsizetype> g_splitFrom;
QAtomicInt g_waitForHelper;
} // namespace

ParseSplit::ParseSplit(const std::vector<const char *> &starts)
{
    m_chunks.reserve(starts.size());
    for (const char *start : starts)
        m_chunks.push_back(std::make_unique<Chunk>(start));
}

void ParseSplit::start(const std::shared_ptr<ParseSplit> &split,
                       std::function<void(ParseSplit &, int)> read)
{
    // The application's global pool: the helper takes a thread the application allows, and
    // when none is free the parser reads every chunk itself.
    QThreadPool::globalInstance()->start([split, read = std::move(read)] {
        bool cleared = false;
        for (int i = split->count() - 1; i >= 0; --i) {
            Chunk &chunk = split->chunk(i);
            if (!chunk.owner.testAndSetAcquire(Chunk::Free, Chunk::Helper))
                return; // the parser got here first: the rest is its
            if (!std::exchange(cleared, true))
                clearUpperVectorState(); // a pool thread may have hashed a QString
            read(*split, i);
            chunk.done.release();
        }
    });
}

void ParseSplit::waitFor(int index)
{
    Chunk &c = chunk(index);
    if (!c.waited) {
        c.done.acquire();
        c.waited = true;
    }
}

void ParseSplit::settle()
{
    for (int i = 0; i < count(); ++i) {
        if (!claim(i) && chunk(i).owner.loadAcquire() == Chunk::Helper)
            waitFor(i);
    }
}

qint64 joinedParseChunks()
{
    return g_joined.loadRelaxed();
}

void noteJoinedParseChunk()
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
