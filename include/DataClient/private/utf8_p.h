// Strict UTF-8 (RFC 3629, Unicode table 3-7): the one rule every JSON path applies. Overlong
// forms, surrogates (U+D800..U+DFFF), code points past U+10FFFF, bytes C0, C1 and F5..FF, stray
// continuation bytes and truncated sequences are invalid; noncharacters are valid (as Qt has it).
#pragma once

#include <DataClient/private/jsonglobal_p.h>

#include <QtCore/QByteArrayView>
#include <QtCore/QString>

namespace DataClient::detail {

//! Length (2 to 4) of the valid multi-byte sequence at \a p, or 0 when the bytes at \a p (a
//! byte >= 0x80, before \a end) do not start one.
inline int utf8SequenceLength(const unsigned char *p, const unsigned char *end)
{
    const unsigned char lead = p[0];
    int length = 0;
    unsigned char low = 0x80; // bounds of the second byte (narrower after E0, ED, F0, F4)
    unsigned char high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) {
        length = 2;
    } else if (lead >= 0xe0 && lead <= 0xef) {
        length = 3;
        if (lead == 0xe0)
            low = 0xa0; // below: overlong
        else if (lead == 0xed)
            high = 0x9f; // above: surrogates
    } else if (lead >= 0xf0 && lead <= 0xf4) {
        length = 4;
        if (lead == 0xf0)
            low = 0x90; // below: overlong
        else if (lead == 0xf4)
            high = 0x8f; // above: past U+10FFFF
    } else {
        return 0; // ASCII is not asked about; 80..C1 and F5..FF never start a sequence
    }
    if (end - p < length || p[1] < low || p[1] > high)
        return 0;
    for (int i = 2; i < length; ++i) {
        if (p[i] < 0x80 || p[i] > 0xbf)
            return 0;
    }
    return length;
}

//! Offset of the first byte of \a bytes that does not start a valid UTF-8 sequence, or -1.
DATACLIENT_JSON_EXPORT qsizetype invalidUtf8Offset(QByteArrayView bytes);

/*!
    "invalid UTF-8 at byte offset N" for the first invalid sequence in \a bytes, or a null
    QString when they are valid UTF-8: the message the compact parser (CompactJson::parse) gives
    for the same bytes, for the paths that parse with QJsonDocument to check first.
*/
DATACLIENT_JSON_EXPORT QString utf8Error(QByteArrayView bytes);

//! The message of utf8Error() for \a offset.
QString utf8ErrorAt(qsizetype offset);

} // namespace DataClient::detail
