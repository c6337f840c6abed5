// Schemas and helpers shared by every scenario group (SCENARIOS.md: Todo with a nested User
// author, createdAt a date-time; the list schema Collection([Todo]) with arguments {}).
#pragma once

#include <DataClient/record.h>
#include <DataClient/schema.h>

#include <QtCore/QDateTime>
#include <QtCore/QSet>

namespace Bench {

inline DataClient::Schema userSchema()
{
    static const DataClient::Schema schema
        = DataClient::Schema::entity(DataClient::EntitySchema(QStringLiteral("User")));
    return schema;
}

inline DataClient::Schema todoSchema()
{
    using namespace DataClient;
    static const Schema schema
        = Schema::entity(EntitySchema(QStringLiteral("Todo"))
                             .withField(QStringLiteral("createdAt"), Deserialize::dateTime())
                             .withNested(QStringLiteral("author"), userSchema()));
    return schema;
}

inline DataClient::Schema todoCollection()
{
    static const DataClient::Schema schema
        = DataClient::Schema::collection(DataClient::Schema::array(todoSchema()));
    return schema;
}

inline DataClient::Schema todoArray()
{
    static const DataClient::Schema schema = DataClient::Schema::array(todoSchema());
    return schema;
}

//! Reads every field of every item once (what a view does with a lazy result): each todo's
//! fields, and the fields of each distinct nested entity (an author shared by 10 todos is read
//! once, as the reference builds it once). Returns a checksum so the work is not optimized away.
inline qsizetype touchAll(const QVariant &value, QSet<const void *> *seenNested = nullptr,
                          bool nested = false)
{
    qsizetype sum = 0;
    if (value.metaType() == QMetaType::fromType<DataClient::Record>()) {
        const auto &record = *static_cast<const DataClient::Record *>(value.constData());
        if (nested && seenNested) {
            if (seenNested->contains(record.identity()))
                return 1;
            seenNested->insert(record.identity());
        }
        for (qsizetype i = 0; i < record.size(); ++i)
            sum += touchAll(record.valueAt(i), seenNested, true);
    } else if (value.typeId() == QMetaType::QVariantList) {
        QSet<const void *> seen;
        const QVariantList items = value.toList();
        for (const QVariant &item : items)
            sum += touchAll(item, seenNested ? seenNested : &seen, nested);
    } else if (value.typeId() == QMetaType::QVariantMap) {
        const QVariantMap map = value.toMap();
        for (auto it = map.cbegin(); it != map.cend(); ++it)
            sum += touchAll(it.value(), seenNested, nested);
    } else if (value.typeId() == QMetaType::QString) {
        sum += value.toString().size();
    } else if (value.typeId() == QMetaType::QDateTime) {
        sum += value.toDateTime().toMSecsSinceEpoch() & 1;
    } else {
        sum += 1;
    }
    return sum;
}

} // namespace Bench
