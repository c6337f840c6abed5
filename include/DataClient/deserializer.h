// Field deserializers: turn a field's serialized JSON value into the value
// the app computes with. They run when reading; the store keeps what the server sent.
#pragma once

#include <DataClient/global.h>

#include <QtCore/QJsonValue>
#include <QtCore/QSharedDataPointer>
#include <QtCore/QString>
#include <QtCore/QVariant>

#include <functional>

namespace DataClient {

class DeserializerPrivate;

/*!
    One field deserializer: a function from the serialized QJsonValue to a QVariant, plus a
    description of what it expects (used in error messages). A function signals bad input by
    returning an invalid QVariant. JSON null is never passed to it: null stays null.
    A default-constructed Deserializer is "none": the value keeps its serialized form.
*/
class DATACLIENT_SCHEMA_EXPORT Deserializer
{
public:
    using Function = std::function<QVariant(const QJsonValue &value)>;

    //! None: the value is read as QJsonValue::toVariant().
    Deserializer();
    //! \a expected describes valid input, e.g. "an ISO 8601 date-time string".
    Deserializer(const QString &expected, Function function);
    Deserializer(const Deserializer &other);
    Deserializer(Deserializer &&other) noexcept;
    Deserializer &operator=(const Deserializer &other);
    Deserializer &operator=(Deserializer &&other) noexcept;
    ~Deserializer();

    bool isNull() const;
    //! True for Deserialize::dateTime() and Deserialize::decimal() (and copies of them): library
    //! code that may run on any thread, unlike a custom function (which may be JavaScript).
    bool isBuiltIn() const;
    QString expected() const;
    //! The deserialized value, or an invalid QVariant if \a value is not valid input.
    //! Null and undefined come back as a null QVariant (std::nullptr_t) without calling the
    //! function.
    QVariant operator()(const QJsonValue &value) const;
    //! The same check without keeping the result (used when writing, to reject bad input early).
    bool accepts(const QJsonValue &value) const;

private:
    friend class DeserializerPrivate;
    QExplicitlySharedDataPointer<DeserializerPrivate> d;
};

namespace Deserialize {
//! ISO 8601 string ("2023-05-15T15:36:43.144Z", "...+02:00", date only) to a QDateTime in UTC.
DATACLIENT_SCHEMA_EXPORT Deserializer dateTime();
//! Decimal string or JSON number to DataClient::Decimal, every digit kept.
DATACLIENT_SCHEMA_EXPORT Deserializer decimal();
//! Any function; \a expected names valid input for error messages.
DATACLIENT_SCHEMA_EXPORT Deserializer custom(const QString &expected,
                                             Deserializer::Function function);
} // namespace Deserialize

} // namespace DataClient
