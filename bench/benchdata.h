// Schemas and helpers shared by every scenario group (Todo with a nested User
// author, createdAt a date-time; the list schema Collection([Todo]) with arguments {}).
#pragma once

#include <DataClient/record.h>
#include <DataClient/rowlist.h>
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
    static const int recordType = QMetaType::fromType<DataClient::Record>().id();
    qsizetype sum = 0;
    const int type = value.typeId();
    if (type == recordType) {
        const auto &record = *static_cast<const DataClient::Record *>(value.constData());
        if (nested && seenNested) {
            const qsizetype before = seenNested->size();
            seenNested->insert(record.identity());
            if (seenNested->size() == before)
                return 1; // read already
        }
        const qsizetype size = record.size();
        for (qsizetype i = 0; i < size; ++i)
            sum += touchAll(record.valueAt(i), seenNested, true);
        return sum;
    }
    bool isList = false;
    if (const DataClient::RowList items = DataClient::rowsOf(value, &isList); isList) {
        QSet<const void *> seen; // a Collection's rows (RowList) or a QVariantList
        for (const QVariant &item : items)
            sum += touchAll(item, seenNested ? seenNested : &seen, nested);
        return sum;
    }
    switch (type) {
    case QMetaType::QVariantMap: {
        const QVariantMap map = value.toMap();
        for (auto it = map.cbegin(); it != map.cend(); ++it)
            sum += touchAll(it.value(), seenNested, nested);
        return sum;
    }
    case QMetaType::QString:
        return static_cast<const QString *>(value.constData())->size();
    case QMetaType::QDateTime:
        return static_cast<const QDateTime *>(value.constData())->toMSecsSinceEpoch() & 1;
    default:
        return 1;
    }
}

} // namespace Bench
