// The snapshot file's codec (docs/offline.md, "Format and versioning"): a fixed header (magic,
// format version, schema fingerprint, payload size and checksum), then the store's tables in its
// own compact form. Decoding is total: any byte string gives a checked snapshot or the reason it
// was refused, never a crash or a half-read store (fuzz_cache_loader).
#pragma once

#include <DataClient/private/persistglobal_p.h>
#include <DataClient/private/storesnapshot_p.h>

#include <DataClient/schema.h>

#include <QtCore/QByteArray>
#include <QtCore/QByteArrayView>
#include <QtCore/QHash>
#include <QtCore/QSet>
#include <QtCore/QString>

namespace DataClient::detail {

//! Fingerprint of each entity key's schema (key, pk field, declared fields), 0 when unknown.
using SchemaPrints = QHash<QString, quint64>;

struct DATACLIENT_PERSIST_EXPORT SnapshotCodec
{
    static constexpr char Magic[8] = {'D', 'C', 'S', 'T', 'O', 'R', 'E', '\x1a'};
    static constexpr quint32 FormatVersion = 1;
    static constexpr qsizetype HeaderSize = 40;

    //! Header and payload of \a snapshot with the fingerprints of its entity keys (any thread).
    static QByteArray encode(const StoreSnapshot &snapshot, const SchemaPrints &prints);

    enum class Outcome {
        Loaded,
        Corrupt, // truncated, torn, foreign, zero-length, inconsistent: a warning
        WrongVersion, // another format version: a warning
    };
    struct Decoded
    {
        Outcome outcome = Outcome::Corrupt;
        QString reason; // why it was refused (empty when Loaded)
        StoreSnapshot snapshot;
        SchemaPrints prints;
    };
    //! Reads \a bytes (any thread). A snapshot returned is check()ed.
    static Decoded decode(QByteArrayView bytes);
    //! The fingerprint of all \a prints together (the header's).
    static quint64 combined(const SchemaPrints &prints);
    //! Adds the fingerprint of every entity schema \a schema holds (never 0) not in \a prints yet,
    //! and to \a leftOut (if given) the keys of those with withPersist(false).
    static void addPrints(const Schema &schema, SchemaPrints *prints,
                          QSet<QString> *leftOut = nullptr);
    //! A 64-bit checksum of \a bytes (not cryptographic: it detects torn and damaged files).
    static quint64 checksum(QByteArrayView bytes);
};

} // namespace DataClient::detail
