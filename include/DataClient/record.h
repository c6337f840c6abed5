// Record: one denormalized entity as read from the store.
#pragma once

#include <DataClient/entityschema.h>
#include <DataClient/global.h>

// QDebug complete: QMetaType then finds operator<< below, and qDebug() << QVariant uses it.
#include <QtCore/QDebug>
#include <QtCore/QJsonObject>
#include <QtCore/QMetaType>
#include <QtCore/QSharedDataPointer>
#include <QtCore/QStringList>
#include <QtCore/QVariant>

namespace DataClient {

class RecordPrivate;

/*!
    One entity of a denormalized result: an immutable snapshot that reads its fields on demand.
    value() gives a field deserialized (QDateTime, Decimal, ...) with nested entities resolved
    (a nested entity is a QVariant holding a Record, a list of them a QVariantList, the rows of a
    nested Collection a RowList).

    Records are what lists of 10k entities are made of, so they are small (one allocation over
    the store's own copy of the data) and reading one field costs nanoseconds. A QVariant holding
    a Record converts to QVariantMap (toMap(), QVariant::toMap(), qvariant_cast) for code and QML
    that want a plain map, and DataClient::fromVariant<T>() builds a gadget from it; it converts
    to QJsonObject and QJsonValue too (toJsonObject(), QVariant::toJsonValue(),
    `value<QJsonObject>()`; DataClient::toJsonValue() in tojson.h converts any value the store
    hands out). `qDebug() << record` shows its fields.

    Two Records compare equal when they show the same stored data read with the same schema
    (whether they are pending aside: compare isPending() for that).
*/
class DATACLIENT_SCHEMA_EXPORT Record
{
public:
    Record();
    Record(const Record &other);
    Record(Record &&other) noexcept;
    Record &operator=(const Record &other);
    Record &operator=(Record &&other) noexcept;
    ~Record();

    bool isNull() const;
    QString entityKey() const;
    QString pk() const;
    EntitySchema schema() const;
    /*!
        Whether this record shows an unconfirmed optimistic change: a row created optimistically
        (its pk() is then a placeholder key, see isPlaceholderKey()) or an entity an optimistic
        update wrote, until the server answers. A confirmed or refused write reads a new Record
        with isPending() false (docs/optimistic-updates.md).
    */
    bool isPending() const;

    //! Field names: the server's fields in the order it sent them, then defaults it lacked.
    QStringList keys() const;
    bool contains(QStringView field) const;
    //! The field read for the app; an invalid QVariant when the record has no such field.
    QVariant value(QStringView field) const;
    QVariant operator[](QStringView field) const { return value(field); }
    //! The server's fields by position (defaults not included): 0 <= index < size().
    qsizetype size() const;
    QString keyAt(qsizetype index) const;
    QVariant valueAt(qsizetype index) const;
    //! Every field; nested Records become QVariantMaps too (for QML and JSON-like use).
    QVariantMap toMap() const;
    //! Every field as JSON: the server's fields as it sent them (a date is the server's text,
    //! not a QDateTime), nested entities as objects (null when missing), then the defaults the
    //! schema fills in (converted by DataClient::toJsonValue()). Null records give {}.
    QJsonObject toJsonObject() const;

    //! True when both are the same snapshot object (what memoization preserves).
    bool isSharedWith(const Record &other) const { return d == other.d; }
    //! The snapshot's identity: the same for copies of one Record (a cheap hash key for views).
    const void *identity() const noexcept { return d.data(); }
    friend DATACLIENT_SCHEMA_EXPORT bool operator==(const Record &a, const Record &b);
    friend bool operator!=(const Record &a, const Record &b) { return !(a == b); }

    void swap(Record &other) noexcept { d.swap(other.d); }

private:
    friend class RecordPrivate;
    explicit Record(RecordPrivate *data); // adopts data's first reference
    QExplicitlySharedDataPointer<RecordPrivate> d;
};

//! Prints the entity key and the fields, JSON-like: `DataClient::Record(todo {"id": 1, ...})`
//! (strings quoted, nested records as objects, dates and other types as their own qDebug()).
DATACLIENT_SCHEMA_EXPORT QDebug operator<<(QDebug debug, const Record &record);

} // namespace DataClient

Q_DECLARE_SHARED(DataClient::Record)
Q_DECLARE_METATYPE(DataClient::Record)
