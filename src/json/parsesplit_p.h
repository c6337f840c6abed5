// ParseSplit: a long top-level list read by the parser and a helper thread together
// (jsonparser.cpp, docs/performance.md "What makes it fast").
//
// The parser guesses where items of the top-level array start at seven places through the text
// (an item's opening, '{"id":', after '},') and cuts it into chunks there. It reads from the
// front; a thread of the application's pool reads chunks from the back, each into its own
// items. Each chunk goes to whoever claims it first, so a helper that starts late only takes
// fewer chunks, and one that never starts costs a claim per chunk. The parser's reading stays
// the authority: a chunk the helper read is taken only when the parser arrives exactly at its
// start, between two items, and its reading then counts as the parser's (its items, or its
// error, then the first in the text). A guess that fell inside an item (a nested list) ends the
// split there, and the parser reads the rest alone.
#pragma once

#include <DataClient/private/jsonparser_p.h>
#include <DataClient/private/node_p.h>

#include <QtCore/QAtomicInt>
#include <QtCore/QSemaphore>
#include <QtCore/QString>

#include <exception>
#include <functional>
#include <memory>
#include <vector>

namespace DataClient::detail {

class ParseSplit
{
public:
    struct Chunk
    {
        explicit Chunk(const char *start) : start(start) { }
        const char *const start; //!< the guessed start of an item
        // The helper's reading, from start to the first item at or past the next chunk's start:
        NodeBuilder items;
        const char *stop = nullptr; //!< where it stopped, when not at the end
        bool toEnd = false; //!< it read to the closing bracket and the end of the text
        QString error; //!< or what was wrong, and where:
        qsizetype errorOffset = 0;
        std::exception_ptr failure; //!< or what else was thrown (std::bad_alloc)

    private:
        friend class ParseSplit;
        enum Owner { Free, Parser, Helper };
        QAtomicInt owner = Free;
        QSemaphore done; // released by the helper when it has read a chunk it owns
        bool waited = false;
    };

    //! Where chunks of the list \a list (its '[', to \a end) could start: after each of \a parts
    //! equal parts of the text, the next "},{"key": that repeats the first item's opening up to
    //! its first colon (the '{' of that item). Empty when the text is not a list of objects.
    static std::vector<const char *> guessItemStarts(const char *list, const char *end, int parts);
    //! Chunks starting at \a starts (increasing, after the parser's first item).
    explicit ParseSplit(const std::vector<const char *> &starts);
    ParseSplit(const ParseSplit &) = delete;
    ParseSplit &operator=(const ParseSplit &) = delete;

    int count() const { return int(m_chunks.size()); }
    Chunk &chunk(int index) { return *m_chunks[size_t(index)]; }

    //! The helper: claims chunks from the last one down and runs \a read on each (it fills the
    //! chunk's reading and must not throw), until a chunk is the parser's already.
    static void start(const std::shared_ptr<ParseSplit> &split,
                      std::function<void(ParseSplit &, int)> read);

    //! The parser, arriving at chunk \a index: true when it is the parser's now (read on); false
    //! when the helper has it (and every chunk after it): waitFor() each before taking it.
    bool claim(int index)
    {
        return chunk(index).owner.testAndSetAcquire(Chunk::Free, Chunk::Parser);
    }
    void waitFor(int index);
    //! Claims or waits for every chunk: after this the helper reads nothing more of the text.
    void settle();

private:
    std::vector<std::unique_ptr<Chunk>> m_chunks;
};

//! Texts of this many bytes and more are split (setSplitParseFromForTesting()).
qsizetype splitParseFrom();
//! setSplitParseFromForTesting()'s \a waitForHelper: the parser never claims a chunk.
bool waitForParseHelper();
void noteJoinedParseChunk();

} // namespace DataClient::detail
