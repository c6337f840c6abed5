#include "outboxfile_p.h"

#include <DataClient/placeholderkey.h>
#include <DataClient/private/verifiedwrite_p.h>

#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QJsonParseError>

#include <algorithm>

namespace DataClient::detail {

namespace {

const QString FormatName = QStringLiteral("DataClient outbox");

//! Reads one item; an empty result with \a why when a field is missing or of the wrong type.
std::optional<OutboxItem> itemOf(const QJsonValue &value, QString *why)
{
    if (!value.isObject()) {
        *why = QStringLiteral("is not an object");
        return std::nullopt;
    }
    const QJsonObject object = value.toObject();
    const auto text = [&](const QString &field) -> std::optional<QString> {
        const QJsonValue v = object.value(field);
        if (!v.isString() || v.toString().isEmpty()) {
            *why = QStringLiteral("\"%1\" must be a non-empty string").arg(field);
            return std::nullopt;
        }
        return v.toString();
    };
    OutboxItem item;
    const std::optional<QString> endpoint = text(QStringLiteral("endpoint"));
    const std::optional<QString> method = endpoint ? text(QStringLiteral("method")) : std::nullopt;
    const std::optional<QString> url = method ? text(QStringLiteral("url")) : std::nullopt;
    const std::optional<QString> key = url ? text(QStringLiteral("idempotencyKey")) : std::nullopt;
    if (!key)
        return std::nullopt;
    item.endpoint = *endpoint;
    item.method = method->toLatin1();
    item.url = QUrl(*url, QUrl::StrictMode);
    if (!item.url.isValid()) {
        *why = QStringLiteral("\"url\" is not a valid URL");
        return std::nullopt;
    }
    item.idempotencyKey = key->toLatin1();
    const QJsonValue params = object.value(QStringLiteral("params"));
    if (!params.isObject()) {
        *why = QStringLiteral("\"params\" must be an object");
        return std::nullopt;
    }
    item.params = params.toObject().toVariantMap();
    const QJsonValue since = object.value(QStringLiteral("since"));
    if (!since.isDouble() || since.toDouble() < 0) {
        *why = QStringLiteral("\"since\" must be a time in ms (a number, 0 or more)");
        return std::nullopt;
    }
    item.since = qint64(since.toDouble());
    item.body = object.contains(QStringLiteral("body")) ? object.value(QStringLiteral("body"))
                                                        : QJsonValue(QJsonValue::Undefined);
    if (object.contains(QStringLiteral("placeholder"))) {
        const QJsonValue placeholder = object.value(QStringLiteral("placeholder"));
        if (!placeholder.isString() || !isPlaceholderKey(placeholder.toString())) {
            *why = QStringLiteral("\"placeholder\" must be a placeholder key (a string starting "
                                  "with U+0001)");
            return std::nullopt;
        }
        item.placeholder = placeholder.toString();
    }
    if (object.contains(QStringLiteral("waitingFor"))) {
        const QJsonValue waiting = object.value(QStringLiteral("waitingFor"));
        const QJsonArray keys = waiting.toArray();
        const bool allKeys = std::all_of(keys.begin(), keys.end(), [](const QJsonValue &key) {
            return key.isString() && isPlaceholderKey(key.toString());
        });
        if (!waiting.isArray() || keys.isEmpty() || !allKeys) {
            *why = QStringLiteral("\"waitingFor\" must be a non-empty array of placeholder keys");
            return std::nullopt;
        }
        for (const QJsonValue &key : keys)
            item.waitingFor.append(key.toString());
    }
    return item;
}

} // namespace

QByteArray OutboxFile::encode(const QList<OutboxItem> &items)
{
    QJsonArray list;
    for (const OutboxItem &item : items) {
        QJsonObject object {
            {QStringLiteral("endpoint"), item.endpoint},
            {QStringLiteral("method"), QString::fromLatin1(item.method)},
            {QStringLiteral("url"), item.url.toString(QUrl::FullyEncoded)},
            {QStringLiteral("params"), QJsonObject::fromVariantMap(item.params)},
            {QStringLiteral("since"), item.since},
            {QStringLiteral("idempotencyKey"), QString::fromLatin1(item.idempotencyKey)},
        };
        if (!item.body.isUndefined())
            object.insert(QStringLiteral("body"), item.body);
        if (!item.placeholder.isEmpty())
            object.insert(QStringLiteral("placeholder"), item.placeholder);
        if (!item.waitingFor.isEmpty())
            object.insert(QStringLiteral("waitingFor"),
                          QJsonArray::fromStringList(item.waitingFor));
        list.append(object);
    }
    const QJsonObject document {{QStringLiteral("format"), FormatName},
                                {QStringLiteral("version"), Version},
                                {QStringLiteral("items"), list}};
    return QJsonDocument(document).toJson(QJsonDocument::Compact);
}

std::optional<QList<OutboxItem>> OutboxFile::decode(const QByteArray &bytes, QString *why)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *why = QStringLiteral("not JSON (%1 at byte %2 of %3)")
                   .arg(parseError.errorString())
                   .arg(parseError.offset)
                   .arg(bytes.size());
        return std::nullopt;
    }
    const QJsonObject root = document.object();
    if (!document.isObject() || root.value(QStringLiteral("format")).toString() != FormatName) {
        *why = QStringLiteral("not an outbox file (expected an object with \"format\": \"%1\")")
                   .arg(FormatName);
        return std::nullopt;
    }
    const QJsonValue version = root.value(QStringLiteral("version"));
    if (version.toInt(-1) != Version) {
        *why = QStringLiteral("version %1 is not supported (expected %2)")
                   .arg(version.toVariant().toString(), QString::number(Version));
        return std::nullopt;
    }
    const QJsonValue items = root.value(QStringLiteral("items"));
    if (!items.isArray()) {
        *why = QStringLiteral("\"items\" must be an array");
        return std::nullopt;
    }
    QList<OutboxItem> result;
    const QJsonArray list = items.toArray();
    for (qsizetype index = 0; index < list.size(); ++index) {
        QString itemWhy;
        std::optional<OutboxItem> item = itemOf(list.at(index), &itemWhy);
        if (!item) {
            *why = QStringLiteral("item %1: %2").arg(index).arg(itemWhy);
            return std::nullopt;
        }
        result.append(std::move(*item));
    }
    return result;
}

std::optional<QByteArray> OutboxFile::read(const QString &path, QString *why)
{
    QFile file(path);
    if (!file.exists())
        return QByteArray();
    if (!file.open(QIODevice::ReadOnly)) {
        *why = file.errorString();
        return std::nullopt;
    }
    return file.readAll();
}

bool OutboxFile::write(const QString &path, const QByteArray &bytes, QString *why)
{
    *why = VerifiedWrite::replace(path, bytes);
    return why->isEmpty();
}

} // namespace DataClient::detail
