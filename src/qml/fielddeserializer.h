// `Deserialize` QML singleton and the deserializer objects it hands out, used in an Entity's
// `fields`: `fields: ({ createdAt: Deserialize.dateTime, price: Deserialize.decimal })`.
#pragma once

#include <DataClient/deserializer.h>
#include <DataClient/global.h>

#include <QtCore/QObject>
#include <QtQml/QJSValue>

QT_BEGIN_NAMESPACE
class QJSEngine;
QT_END_NAMESPACE
#include <QtQml/qqmlregistration.h>

namespace DataClient::Qml {

//! One field deserializer as a QML value (a DataClient::Deserializer inside a QObject).
class DATACLIENT_QML_EXPORT FieldDeserializer : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("Get deserializers from the Deserialize singleton, e.g. Deserialize.dateTime")
    //! What valid input looks like, e.g. "an ISO 8601 date-time string".
    Q_PROPERTY(QString expected READ expected CONSTANT)
public:
    FieldDeserializer(const Deserializer &deserializer, QObject *parent);
    Deserializer deserializer() const { return m_deserializer; }
    QString expected() const { return m_deserializer.expected(); }

private:
    Deserializer m_deserializer;
};

/*!
    `Deserialize.dateTime` (ISO 8601 -> date), `Deserialize.decimal` (exact decimal; shows as its
    digits in text) and `Deserialize.custom(expected, function)`. A plain JS function in `fields`
    is a custom deserializer too. Custom functions run on the GUI thread; they return `undefined`
    for input they reject (the write is then refused with an error naming the field).
*/
class DATACLIENT_QML_EXPORT DeserializeSingleton : public QObject
{
    Q_OBJECT
    QML_NAMED_ELEMENT(Deserialize)
    QML_SINGLETON
    Q_PROPERTY(DataClient::Qml::FieldDeserializer *dateTime READ dateTime CONSTANT)
    Q_PROPERTY(DataClient::Qml::FieldDeserializer *decimal READ decimal CONSTANT)
public:
    explicit DeserializeSingleton(QObject *parent = nullptr);
    FieldDeserializer *dateTime() const { return m_dateTime; }
    FieldDeserializer *decimal() const { return m_decimal; }
    //! A deserializer calling \a function (value) -> deserialized value, or undefined to reject.
    Q_INVOKABLE DataClient::Qml::FieldDeserializer *custom(const QString &expected,
                                                           const QJSValue &function);

    //! The C++ deserializer calling a JS function (also used for functions given in `fields`).
    //! Call only on \a engine's thread (the GUI thread), like every JS function.
    static Deserializer fromFunction(QJSEngine *engine, const QString &expected,
                                     const QJSValue &function);

private:
    FieldDeserializer *m_dateTime;
    FieldDeserializer *m_decimal;
};

} // namespace DataClient::Qml
