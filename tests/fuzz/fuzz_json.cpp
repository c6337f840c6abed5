// Fuzz target: CompactJson::parse() on arbitrary bytes, the value read back in every form
// (docs/reliability.md). Every answer body a server sends goes through this parser.
#include "fuzzsupport.h"

#include <DataClient/compactjson.h>

#include <QtCore/QByteArrayView>
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
    return 0;
}
