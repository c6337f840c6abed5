// Fuzz target: CompactJson::parse() on arbitrary bytes, the value read back in every form and
// compared with QJsonDocument's reading of the same bytes (docs/reliability.md), and with a
// reading split between two threads. Every answer body a server sends goes through this parser.
#include "fuzzsupport.h"

#include <DataClient/compactjson.h>
#include <DataClient/private/jsonparser_p.h>

#include <QtCore/QByteArrayView>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QJsonValue>

using namespace DataClient;

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    FuzzSupport::silenceQtMessages();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView bytes(data, qsizetype(size));
    QString error;
    qsizetype offset = -1;
    const CompactJson value = CompactJson::parse(bytes, &error, &offset);

    // Read again with a top-level list split in chunks, read by the parser and a helper thread
    // (src/json/parsesplit_p.h): the same value, or the same error at the same offset.
    detail::setSplitParseFromForTesting(2, true);
    QString splitError;
    qsizetype splitOffset = -1;
    const CompactJson split = CompactJson::parse(bytes, &splitError, &splitOffset);
    detail::setSplitParseFromForTesting(0);
    FUZZ_CHECK(splitError == error && splitOffset == offset);
    FUZZ_CHECK(split.toJsonValue() == value.toJsonValue());

    if (value.isUndefined()) {
        // A refusal says what and where, within the input.
        FUZZ_CHECK(!error.isEmpty());
        FUZZ_CHECK(offset >= 0 && offset <= bytes.size());
        return 0;
    }
    FUZZ_CHECK(error.isEmpty());
    // The parser is strict UTF-8: what it accepts, the shared UTF-8 rule accepts too.
    FUZZ_CHECK(CompactJson::utf8Error(bytes).isNull());

    const QJsonValue json = value.toJsonValue();
    FUZZ_CHECK(json.type() == value.type());
    (void)value.toVariant();
    // The conversion back from QJsonValue (what Store::setResponse(QJsonValue) does).
    const CompactJson again = CompactJson::fromJsonValue(json);
    FUZZ_CHECK(again.type() == value.type());
    FUZZ_CHECK(again.size() == value.size());

    // What QJsonDocument also accepts, it reads the same (the parser reads keys against
    // the last object's and strings 16 bytes at a time). Not compared: numbers with 16
    // or more digits in a row, which we keep exactly and QJsonDocument rounds to a double.
    int digitRun = 0;
    for (const char c : bytes) {
        digitRun = c >= '0' && c <= '9' ? digitRun + 1 : 0;
        if (digitRun >= 16)
            return 0;
    }
    const QJsonDocument document = QJsonDocument::fromJson(bytes.toByteArray());
    if (document.isArray())
        FUZZ_CHECK(json == QJsonValue(document.array()));
    else if (document.isObject())
        FUZZ_CHECK(json == QJsonValue(document.object()));
    return 0;
}
