// A strict JSON (RFC 8259) parser that builds the compact Node tree directly, without a
// QJsonDocument in between (about 4x faster, and no second copy of the data).
#pragma once

#include <DataClient/private/node_p.h>
#include <DataClient/private/testexport_p.h>

#include <QtCore/QByteArrayView>

namespace DataClient::detail {

struct ParseResult
{
    NodeRef holder; //!< one-element array holding the value; null on error
    QString error; //!< what was wrong and where, e.g. "unterminated string at byte offset 5"
    qsizetype offset = 0; //!< byte offset of the error
};

//! Nesting deeper than this is an error (it would only come from a broken or hostile server).
constexpr int MaxJsonDepth = 512;

DATACLIENT_JSON_EXPORT ParseResult parseJson(QByteArrayView utf8);

//! How many chunks a long top-level list is cut into: guesses at 1/8, 2/8, ... 7/8 of the text
//! (src/json/parsesplit_p.h).
constexpr int SplitParts = 8;
//! Chunks of long lists that a helper thread read and the parser took (parsesplit_p.h; tests:
//! the split really happened).
DATACLIENT_TEST_EXPORT qint64 joinedParseChunks();
//! Texts from \a bytes on are split (0: the default, 256 KB; tests lower it). \a waitForHelper:
//! the parser leaves every chunk after its first to the helper and waits for it, so that a
//! test's short text is read by both for sure.
DATACLIENT_TEST_EXPORT void setSplitParseFromForTesting(qsizetype bytes,
                                                        bool waitForHelper = false);

} // namespace DataClient::detail
