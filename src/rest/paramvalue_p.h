// How one parameter value (a QVariant from Params) is written into a URL: absent, one string,
// or a list of strings. Shared by path templates and the query-string serializer.
#pragma once

#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QtCore/QVariant>

#include <optional>

namespace DataClient::detail {

struct ParamValue
{
    enum Kind { Absent, Scalar, List, Unsupported };
    Kind kind = Absent;
    QString scalar; //!< Scalar: the value as text ("5", "true", "a b")
    QStringList list; //!< List: each element as text (absent elements dropped)
    QString typeName; //!< Unsupported: the type found, for the error message
};

//! null, an invalid QVariant, a null QJsonValue -> Absent; strings, numbers, booleans -> Scalar;
//! lists of those -> List; maps and other types -> Unsupported.
ParamValue readParamValue(const QVariant &value);

//! Percent-encodes everything except the unreserved characters (RFC 3986: ALPHA DIGIT - . _ ~),
//! as UTF-8. Spaces become %20 (never '+'), so '+' always means a literal plus.
QString percentEncode(const QString &text);

//! Literal template text: keeps URL delimiters and existing %XX escapes, encodes the rest.
QString encodeLiteral(const QString &text);

} // namespace DataClient::detail
