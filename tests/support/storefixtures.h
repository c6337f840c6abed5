// Schemas and helpers shared by the store tests: Todo (pk id, createdAt a date-time, author a
// nested User) and User (pk id, todos a nested Collection of Todo).
#pragma once

#include <DataClient/record.h>
#include <DataClient/schema.h>
#include <DataClient/store.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

namespace Fixtures {

using namespace DataClient;
using namespace Qt::StringLiterals;

Schema todoSchema();
inline Schema userSchema()
{
    static const Schema schema = Schema::entity(EntitySchema(u"User"_s).withNested(
        u"todos"_s, [] { return Schema::collection(todoSchema()); }));
    return schema;
}
inline Schema todoSchema()
{
    static const Schema schema
        = Schema::entity(EntitySchema(u"Todo"_s)
                             .withField(u"createdAt"_s, Deserialize::dateTime())
                             .withNested(u"author"_s, [] { return userSchema(); }));
    return schema;
}
inline Schema todoList()
{
    static const Schema schema = Schema::collection(Schema::array(todoSchema()));
    return schema;
}

inline QJsonValue json(const char *text)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(QByteArray(text), &error);
    Q_ASSERT_X(error.error == QJsonParseError::NoError, "json()", text);
    return document.isArray() ? QJsonValue(document.array()) : QJsonValue(document.object());
}

inline Meta at(qint64 date)
{
    return Meta {date, date, date + 60000};
}

inline Record recordOf(const QVariant &value)
{
    return value.value<Record>();
}

//! The pks ("id" fields) of a list result, in order.
inline QStringList ids(const QVariant &list)
{
    QStringList result;
    const QVariantList items = list.toList();
    for (const QVariant &item : items)
        result.append(recordOf(item).pk());
    return result;
}

//! Everything a store shows, serialized, to prove a failed write changed nothing.
inline QByteArray snapshot(Store &store, const QStringList &resultKeys, const Schema &schema)
{
    QJsonObject dump;
    for (const QString &key : resultKeys) {
        const Denormalized read = store.denormalize(key, schema, {});
        dump.insert(
            key,
            QJsonValue::fromVariant(read.found ? QVariant(read.data.toList().size()) : QVariant()));
    }
    for (const QString &key : store.resultKeys())
        dump.insert(u"key:"_s + key, true);
    dump.insert(u"entities"_s, store.entityCount());
    for (const char *type : {"Todo", "User"}) {
        for (int id = 0; id < 50; ++id) {
            const auto entity = store.entity({QString::fromLatin1(type), QString::number(id)});
            if (entity)
                dump.insert(QString::fromLatin1(type) + QString::number(id), *entity);
        }
    }
    return QJsonDocument(dump).toJson(QJsonDocument::Compact);
}

} // namespace Fixtures
