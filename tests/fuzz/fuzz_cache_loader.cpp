// Fuzz target: the persisted store's loader (SnapshotCodec::decode(), docs/offline.md) on
// arbitrary bytes, and what it loads restored into a Store and read back. The first byte picks
// the mode: odd, the rest is a whole file (header included); even, the rest is a payload given a
// valid header (right size and checksum), so that mutations reach the decoder itself instead of
// stopping at the checksum.
#include "fuzzsupport.h"

#include <DataClient/entityschema.h>
#include <DataClient/schema.h>
#include <DataClient/store.h>

#include <DataClient/private/snapshotcodec_p.h>

#include <QtCore/QByteArray>

#include <cstring>

using namespace DataClient;
using namespace DataClient::detail;
using namespace Qt::StringLiterals;

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    FuzzSupport::silenceQtMessages();
    return 0;
}

namespace {

QByteArray withHeader(QByteArrayView payload)
{
    QByteArray file(SnapshotCodec::Magic, sizeof SnapshotCodec::Magic);
    const auto append64 = [&file](quint64 v) {
        for (int i = 0; i < 8; ++i)
            file.append(char(v >> (8 * i)));
    };
    append64(SnapshotCodec::FormatVersion);
    append64(0); // fingerprint: refused after the payload decoded (the check runs first)
    append64(quint64(payload.size()));
    append64(SnapshotCodec::checksum(payload));
    file.append(payload);
    return file;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const QByteArrayView rest(data + 1, qsizetype(size - 1));
    const QByteArray file = (data[0] & 1) ? rest.toByteArray() : withHeader(rest);
    const SnapshotCodec::Decoded decoded = SnapshotCodec::decode(file);
    if (decoded.outcome != SnapshotCodec::Outcome::Loaded) {
        // A refusal says why and leaves nothing half-read.
        FUZZ_CHECK(!decoded.reason.isEmpty());
        FUZZ_CHECK(decoded.snapshot.entityTables.empty() && decoded.snapshot.results.empty());
        return 0;
    }
    FUZZ_CHECK(decoded.snapshot.check().isEmpty());
    Store store;
    QString why;
    if (!decoded.snapshot.restoreInto(store, &why)) {
        // Only a pk twice is left to restoreInto(); it leaves the store empty.
        FUZZ_CHECK(why.contains(u" twice in "_s));
        FUZZ_CHECK(store.entityCount() == 0 && store.resultKeys().isEmpty());
        return 0;
    }
    // Everything loaded reads back, with and without the schema it was (maybe) written with.
    const Schema todos = Schema::array(Schema::entity(EntitySchema(u"Todo"_s)));
    for (const SnapshotResult &result : decoded.snapshot.results) {
        (void)store.denormalize(result.key, todos, {});
        (void)store.denormalize(result.key, Schema(), {});
    }
    for (const SnapshotEntityTable &table : decoded.snapshot.entityTables) {
        for (const SnapshotEntity &entity : table.slots)
            (void)store.entity(EntityRef {table.key, entity.pk});
    }
    // What was restored encodes again and decodes to the same.
    const QByteArray again = SnapshotCodec::encode(StoreSnapshot::take(store), decoded.prints);
    FUZZ_CHECK(SnapshotCodec::decode(again).outcome == SnapshotCodec::Outcome::Loaded);
    return 0;
}
