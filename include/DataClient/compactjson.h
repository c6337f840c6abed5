// CompactJson: the JSON value representation the store consumes and keeps.
#pragma once

#include <DataClient/global.h>

#include <QtCore/QByteArrayView>
#include <QtCore/QJsonValue>
#include <QtCore/QString>
#include <QtCore/QVariant>

namespace DataClient {

namespace detail {
struct Node;
struct CompactJsonAccess;
} // namespace detail

/*!
    An immutable, implicitly shared JSON value in the compact form the Store keeps: objects share
    their key lists, strings are stored once in Latin-1 when they fit. Parsing bytes straight into
    it is about 4x faster than QJsonDocument and takes a fraction of the memory (see
    docs/performance.md); Store::setResponse() accepts it as well as a QJsonValue.
*/
class DATACLIENT_SCHEMA_EXPORT CompactJson
{
public:
    //! Undefined (no value).
    CompactJson();
    CompactJson(const CompactJson &other);
    CompactJson(CompactJson &&other) noexcept;
    CompactJson &operator=(const CompactJson &other);
    CompactJson &operator=(CompactJson &&other) noexcept;
    ~CompactJson();

    //! Parses UTF-8 JSON (RFC 8259, nesting up to 512 levels, no duplicate keys, strict UTF-8,
    //! at most 65536 keys per object; docs/schemas.md). On error returns an undefined value and
    //! sets \a errorString ("what at byte offset N") and \a errorOffset (N).
    static CompactJson parse(QByteArrayView utf8, QString *errorString = nullptr,
                             qsizetype *errorOffset = nullptr);
    static CompactJson fromJsonValue(const QJsonValue &value);
    //! A null string when \a bytes are valid UTF-8 (RFC 3629: no overlong forms, surrogates or
    //! code points past U+10FFFF); else "invalid UTF-8 at byte offset N", the message parse()
    //! gives for them. The one UTF-8 rule every reader of a body applies.
    static QString utf8Error(QByteArrayView bytes);

    QJsonValue toJsonValue() const;
    //! QVariantMap / QVariantList / QString / qlonglong (whole numbers in the 64-bit range, kept
    //! exactly) / double / bool / nullptr, like QJsonValue::toVariant().
    QVariant toVariant() const;
    bool isUndefined() const;
    QJsonValue::Type type() const;
    //! Items of an array or fields of an object; 0 otherwise.
    qsizetype size() const;

private:
    friend struct detail::CompactJsonAccess;
    detail::Node *m_holder = nullptr; // a one-element array node holding the value
};

} // namespace DataClient

Q_DECLARE_METATYPE(DataClient::CompactJson)
