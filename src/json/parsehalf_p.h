// ParseHalf: the second half of a long list, read on a helper thread while the parser reads the
// first (jsonparser.cpp; issue 19, docs/performance.md "Parse: a long list in two halves").
//
// The parser guesses where an item of the top-level array starts near the middle of the text
// and hands the rest to a pool thread. Its own reading stays the authority: only when it arrives
// at exactly that place, between two items, is the helper's reading taken (its items, or its
// error, which is then the first error in the text). A guess that was inside an item (in a
// string, in a nested array) is dropped. Whoever comes first claims the half: a helper that has
// not started when the parser arrives never reads anything, and the parser reads on alone (a
// busy pool costs nothing but the guess).
#pragma once

#include <DataClient/private/jsonparser_p.h>
#include <DataClient/private/node_p.h>

#include <QtCore/QAtomicInt>
#include <QtCore/QSemaphore>
#include <QtCore/QString>

#include <exception>
#include <functional>
#include <memory>

namespace DataClient::detail {

class ParseHalf
{
public:
    //! \a start: the first byte of the item the helper reads from.
    explicit ParseHalf(const char *start) : m_start(start) { }
    ParseHalf(const ParseHalf &) = delete;
    ParseHalf &operator=(const ParseHalf &) = delete;

    const char *start() const { return m_start; }

    //! Runs \a read (which fills items, error or failure, and must not throw) on a pool
    //! thread, unless the parser claims the half first.
    static void start(const std::shared_ptr<ParseHalf> &half,
                      std::function<void(ParseHalf &)> read);

    //! The parser's side: true when the helper had not started (it never will; read on alone);
    //! false when it has, and then waitDone() before reading its result.
    bool takeBack() { return claim(); }
    void waitDone() { m_done.acquire(); }

    NodeBuilder items; //!< the items read from start() to the closing bracket
    QString error; //!< or what was wrong, and where:
    qsizetype errorOffset = 0;
    std::exception_ptr failure; //!< or what else was thrown (std::bad_alloc)

private:
    bool claim() { return m_claimed.testAndSetAcquire(0, 1); }

    const char *m_start;
    QAtomicInt m_claimed = 0;
    QSemaphore m_done;
};

//! Texts of this many bytes and more are read in two halves (setSplitParseFromForTesting()).
qsizetype splitParseFrom();
//! setSplitParseFromForTesting()'s \a waitForHelper.
bool waitForParseHelper();
void noteJoinedParseHalf();

} // namespace DataClient::detail
