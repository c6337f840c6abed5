#include "fielddeserializer.h"

#include "logging_p.h"

#include <QtCore/QPointer>
#include <QtQml/QJSEngine>
#include <QtQml/qqmlinfo.h>

using namespace Qt::StringLiterals;

namespace DataClient::Qml {

FieldDeserializer::FieldDeserializer(const Deserializer &deserializer, QObject *parent)
    : QObject(parent), m_deserializer(deserializer)
{ }

DeserializeSingleton::DeserializeSingleton(QObject *parent)
    : QObject(parent),
      m_dateTime(new FieldDeserializer(Deserialize::dateTime(), this)),
      m_decimal(new FieldDeserializer(Deserialize::decimal(), this))
{ }

FieldDeserializer *DeserializeSingleton::custom(const QString &expected, const QJSValue &function)
{
    if (!function.isCallable()) {
        qmlWarning(this) << "Deserialize.custom(): the second argument must be a function "
                            "(value) -> deserialized value; got "
                         << function.toString();
        return nullptr;
    }
    // Owned by the singleton: deserializers are few and made once per Entity declaration.
    return new FieldDeserializer(fromFunction(qjsEngine(this), expected, function), this);
}

Deserializer DeserializeSingleton::fromFunction(QJSEngine *engine, const QString &expected,
                                                const QJSValue &function)
{
    const QString description
        = expected.isEmpty() ? u"a value the field's deserializer function accepts"_s : expected;
    // The QJSValue keeps the function alive, but not its engine (app shutdown): check it.
    return Deserialize::custom(
        description,
        [engine = QPointer<QJSEngine>(engine), function](const QJsonValue &value) -> QVariant {
            if (!engine)
                return {};
            const QJSValue result = function.call({engine->toScriptValue(value)});
            if (result.isError()) {
                qCWarning(lcQml).noquote() << "field deserializer threw:" << result.toString();
                return {};
            }
            if (result.isUndefined())
                return {};
            return result.toVariant();
        });
}

} // namespace DataClient::Qml
