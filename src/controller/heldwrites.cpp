#include "heldwrites_p.h"

#include <DataClient/placeholderkey.h>

#include <QtCore/QJsonObject>

#include <algorithm>

namespace DataClient::detail {

namespace {

QString placeholderIn(const QVariant &value)
{
    if (value.metaType().id() != QMetaType::QString)
        return {};
    const QString text = value.toString();
    return isPlaceholderKey(text) ? text : QString();
}

QString placeholderIn(const QJsonValue &value)
{
    return value.isString() && isPlaceholderKey(value.toString()) ? value.toString() : QString();
}

// The server's key as a parameter (text: URLs), or as a body field (a number when it is one, as
// the server sent it).
template<typename Value> Value asValue(const QString &pk);
template<> QVariant asValue<QVariant>(const QString &pk)
{
    return pk;
}
template<> QJsonValue asValue<QJsonValue>(const QString &pk)
{
    bool isNumber = false;
    const qint64 number = pk.toLongLong(&isNumber);
    return isNumber && QString::number(number) == pk ? QJsonValue(number) : QJsonValue(pk);
}

} // namespace

QString HeldWrites::allocate()
{
    const QString pk = placeholderKey(++m_last);
    m_waiting.insert(pk);
    return pk;
}

QList<std::shared_ptr<HeldWrite>> HeldWrites::confirm(const QString &pk, const QString &serverPk)
{
    m_waiting.remove(pk);
    m_confirmed.insert(pk, serverPk);
    QList<std::shared_ptr<HeldWrite>> ready;
    for (auto it = m_held.begin(); it != m_held.end();) {
        HeldWrite &write = **it;
        if (write.waitingFor.remove(pk) && write.waitingFor.isEmpty()) {
            QString unknown;
            substitute(&write.params, &write.body, &unknown);
            ready.append(*it);
            it = m_held.erase(it);
        } else {
            ++it;
        }
    }
    return ready;
}

QList<std::shared_ptr<HeldWrite>> HeldWrites::refuse(const QString &pk)
{
    m_waiting.remove(pk);
    QList<std::shared_ptr<HeldWrite>> dropped;
    for (auto it = m_held.begin(); it != m_held.end();) {
        if ((*it)->waitingFor.contains(pk)) {
            dropped.append(*it);
            it = m_held.erase(it);
        } else {
            ++it;
        }
    }
    return dropped;
}

QList<std::shared_ptr<HeldWrite>> HeldWrites::clear()
{
    m_waiting.clear();
    m_confirmed.clear();
    return std::exchange(m_held, {});
}

template<typename Value>
void HeldWrites::substituteOne(Value *value, QSet<QString> *waiting, QString *unknown) const
{
    const QString pk = placeholderIn(*value);
    if (pk.isEmpty())
        return;
    if (const QString confirmed = m_confirmed.value(pk); !confirmed.isEmpty())
        *value = asValue<Value>(confirmed);
    else if (m_waiting.contains(pk))
        waiting->insert(pk);
    else if (unknown->isEmpty())
        *unknown = pk;
}

QSet<QString> HeldWrites::substitute(Params *params, QJsonValue *body, QString *unknown) const
{
    QSet<QString> waiting;
    const Params &given = *params;
    if (std::any_of(given.cbegin(), given.cend(),
                    [](const QVariant &value) { return !placeholderIn(value).isEmpty(); })) {
        for (auto it = params->begin(); it != params->end(); ++it) // detaches: only then
            substituteOne(&*it, &waiting, unknown);
    }
    const auto named = [](const QJsonValue &field) { return !placeholderIn(field).isEmpty(); };
    const QJsonObject fields = body->isObject() ? body->toObject() : QJsonObject();
    if (std::any_of(fields.begin(), fields.end(), named)) { // no copy of a body without one
        QJsonObject object = fields;
        bool replaced = false;
        for (auto it = object.begin(); it != object.end(); ++it) {
            QJsonValue field = *it;
            substituteOne(&field, &waiting, unknown);
            if (field != *it) {
                *it = field;
                replaced = true;
            }
        }
        if (replaced)
            *body = object;
    }
    return waiting;
}

void HeldWrites::rename(Params *params, QJsonValue *body, QStringList *keys,
                        const QHash<QString, QString> &renamed)
{
    for (auto it = params->begin(); it != params->end(); ++it) {
        if (const QString pk = placeholderIn(*it); renamed.contains(pk))
            *it = renamed.value(pk);
    }
    if (body->isObject()) {
        QJsonObject object = body->toObject();
        for (auto it = object.begin(); it != object.end(); ++it) {
            if (const QString pk = placeholderIn(QJsonValue(*it)); renamed.contains(pk))
                *it = renamed.value(pk);
        }
        *body = object;
    }
    for (QString &key : *keys)
        key = renamed.value(key, key);
}

} // namespace DataClient::detail
