// Key-case conversion of bodies, answers and query keys (the option `keyCase`).
#include "keycase_p.h"

#include <DataClient/entityschema.h>
#include <DataClient/schemaerror.h>

#include <QtCore/QHash>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>

namespace DataClient::detail {

namespace {

QChar separatorOf(KeyCase keyCase)
{
    return keyCase == KeyCase::KebabCase ? u'-' : u'_';
}

enum class Direction { ToApp, ToServer };

// One walk of a value along its schema. Keys repeat across the rows of a list: each distinct
// key is converted once.
class KeyWalk
{
public:
    KeyWalk(KeyCase keyCase, Direction direction) : m_case(keyCase), m_direction(direction) { }

    QJsonValue convert(const QJsonValue &value, const Schema &schema, const QString &path)
    {
        if (value.isArray())
            return convertArray(value.toArray(), schema, path);
        if (value.isObject())
            return convertObject(value.toObject(), schema, path);
        return value;
    }

private:
    QJsonValue convertArray(const QJsonArray &array, const Schema &schema, const QString &path)
    {
        const Schema item
            = schema.kind() == Schema::Kind::Array || schema.kind() == Schema::Kind::Collection
            ? schema.itemSchema()
            : Schema();
        QJsonArray result;
        for (qsizetype i = 0; i < array.size(); ++i)
            result.append(convert(array.at(i), item, path + u'[' + QString::number(i) + u']'));
        return result;
    }

    QJsonValue convertObject(const QJsonObject &object, const Schema &schema, const QString &path)
    {
        const bool isEntity = schema.kind() == Schema::Kind::Entity;
        const EntitySchema entity = isEntity ? schema.entitySchema() : EntitySchema();
        const QStringList kept = entity.keysKept();
        const QHash<QString, Schema> fields
            = schema.kind() == Schema::Kind::Object ? schema.fields() : QHash<QString, Schema>();
        QJsonObject result;
        // The server key each app key came from, to name both when two collide.
        QHash<QString, QString> origins;
        for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
            const QString key = converted(it.key());
            const QString appName = m_direction == Direction::ToApp ? key : it.key();
            if (m_direction == Direction::ToApp && result.contains(key)) {
                throw SchemaError(entity.key(), path,
                                  QStringLiteral("one server key per app key (keyCase %1)")
                                      .arg(keyCaseName(m_case)),
                                  QStringLiteral("both '%1' and '%2' read as '%3'")
                                      .arg(origins.value(key), it.key(), key));
            }
            origins.insert(key, it.key());
            const QString childPath = path.isEmpty() ? appName : path + u'.' + appName;
            if (kept.contains(appName)) {
                result.insert(key, it.value());
                continue;
            }
            const Schema child = isEntity ? entity.nested(appName) : fields.value(appName);
            result.insert(key, convert(it.value(), child, childPath));
        }
        return result;
    }

    QString converted(const QString &key)
    {
        auto found = m_keys.constFind(key);
        if (found != m_keys.constEnd())
            return *found;
        const QString result
            = m_direction == Direction::ToApp ? appKey(key, m_case) : serverKey(key, m_case);
        m_keys.insert(key, result);
        return result;
    }

    KeyCase m_case;
    Direction m_direction;
    QHash<QString, QString> m_keys;
};

} // namespace

QString appKey(const QString &serverKey, KeyCase keyCase)
{
    const QChar separator = separatorOf(keyCase);
    if (keyCase == KeyCase::AsIs || !serverKey.contains(separator))
        return serverKey;
    QString result;
    result.reserve(serverKey.size());
    bool upperNext = false;
    for (const QChar c : serverKey) {
        if (c == separator && !result.isEmpty()) {
            upperNext = true;
            continue;
        }
        result.append(upperNext ? c.toUpper() : c);
        upperNext = false;
    }
    return result;
}

QString serverKey(const QString &appKey, KeyCase keyCase)
{
    if (keyCase == KeyCase::AsIs)
        return appKey;
    const QChar separator = separatorOf(keyCase);
    QString result;
    result.reserve(appKey.size() + 4);
    for (qsizetype i = 0; i < appKey.size(); ++i) {
        const QChar c = appKey.at(i);
        if (!c.isUpper()) {
            result.append(c);
            continue;
        }
        // A word starts at an upper-case letter after a lower-case one or a digit ("userId"),
        // or at the last capital of an acronym followed by lower case ("HTTPCode").
        const QChar before = i > 0 ? appKey.at(i - 1) : QChar();
        const QChar after = i + 1 < appKey.size() ? appKey.at(i + 1) : QChar();
        if (i > 0
            && (before.isLower() || before.isDigit() || (before.isUpper() && after.isLower())))
            result.append(separator);
        result.append(c.toLower());
    }
    return result;
}

QJsonValue keysToApp(const QJsonValue &value, KeyCase keyCase, const Schema &schema)
{
    if (keyCase == KeyCase::AsIs)
        return value;
    return KeyWalk(keyCase, Direction::ToApp).convert(value, schema, {});
}

QJsonValue keysToServer(const QJsonValue &value, KeyCase keyCase, const Schema &schema)
{
    if (keyCase == KeyCase::AsIs)
        return value;
    return KeyWalk(keyCase, Direction::ToServer).convert(value, schema, {});
}

Params paramKeysToServer(const Params &params, KeyCase keyCase)
{
    if (keyCase == KeyCase::AsIs)
        return params;
    Params result;
    for (auto it = params.cbegin(); it != params.cend(); ++it)
        result.insert(serverKey(it.key(), keyCase), it.value());
    return result;
}

} // namespace DataClient::detail
