#include "parsesplit_p.h"

#include <DataClient/private/vectorstate_p.h>

#include <QtCore/QThreadPool>

#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>

namespace DataClient::detail {

namespace {
// Below this a thread's wake-up (tens of microseconds, more in a virtual machine) outweighs
// what it could read meanwhile.
constexpr qsizetype DefaultSplitFrom = 256 * 1024;
QAtomicInteger<qint64> g_joined;
QAtomicInteger<qsizetype> g_splitFrom;
QAtomicInt g_waitForHelper;
} // namespace

std::vector<const char *> ParseSplit::guessItemStarts(const char *list, const char *end, int parts)
{
    const char *first = list + 1;
    const char *colon = first + 1 < end && *first == '{' && first[1] == '"'
        ? static_cast<const char *>(
            std::memchr(first, ':', size_t(std::min<qsizetype>(end - first, 256))))
        : nullptr;
    if (!colon)
        return {};
    const std::string opening = "}," + std::string(first, size_t(colon + 1 - first));
    const std::string_view text(list, size_t(end - list));
    std::vector<const char *> starts;
    for (int part = 1; part < parts; ++part) {
        const size_t from = std::max(text.size() * size_t(part) / size_t(parts),
                                     starts.empty() ? size_t(0) : size_t(starts.back() - list));
        const size_t found = text.find(opening, from);
        if (found == std::string_view::npos)
            break;
        starts.push_back(list + found + 2);
    }
    return starts;
}

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
