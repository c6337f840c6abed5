// Readers of endpoint options written in JS (see jsoptionreaders_p.h).
#include "jsoptionreaders_p.h"

#include <DataClient/requestinit.h>

#include <QtCore/QVariantMap>
#include <QtQml/QJSValueIterator>

#include <limits>

using namespace Qt::StringLiterals;

namespace DataClient::Qml::detail {

// What a read of a JS option says when the value does not fit: " must be <what>; got <value>".
QString expected(const QJSValue &value, const char *what)
{
    return u" must be %1; got %2"_s.arg(QString::fromLatin1(what), value.toString());
}

// One reader per C++ type of the shared options (DATACLIENT_SHARED_ENDPOINT_OPTIONS).
Problem readJs(const QJSValue &v, std::optional<int> &target)
{
    if (!v.isNumber() || v.toNumber() < 0 || v.toNumber() > std::numeric_limits<int>::max())
        return expected(v, "a number of milliseconds (0 or more)");
    target = v.toInt();
    return std::nullopt;
}

Problem readJs(const QJSValue &v, std::optional<qint64> &target)
{
    // Up to 2^53: what a JS number holds exactly.
    if (!v.isNumber() || v.toNumber() < 0 || v.toNumber() > 9007199254740992.0)
        return expected(v, "a number of bytes (0 or more)");
    target = qint64(v.toNumber());
    return std::nullopt;
}

Problem readJs(const QJSValue &v, std::optional<Credentials> &target)
{
    const auto credentials = v.isString() ? credentialsFromName(v.toString()) : std::nullopt;
    if (!credentials)
        return expected(v, "\"omit\", \"same-origin\" or \"include\"");
    target = *credentials;
    return std::nullopt;
}

Problem readJs(const QJSValue &v, std::optional<Headers> &target)
{
    if (!v.isObject() || v.isArray() || v.isCallable() || v.isQObject())
        return expected(v, "an object of header names to values");
    Headers headers;
    QJSValueIterator it(v);
    while (it.hasNext()) {
        it.next();
        headers.append({it.name().toUtf8(), it.value().toString().toUtf8()});
    }
    target = headers;
    return std::nullopt;
}

Problem readString(const QJSValue &v, std::optional<QString> &target)
{
    if (!v.isString())
        return expected(v, "a string");
    target = v.toString();
    return std::nullopt;
}

Problem readBool(const QJSValue &v, std::optional<bool> &target)
{
    if (!v.isBool())
        return expected(v, "true or false");
    target = v.toBool();
    return std::nullopt;
}

Problem readJs(const QJSValue &v, std::optional<bool> &target)
{
    return readBool(v, target);
}

// `retry: { count: 3, delay: 1000, maxDelay: 30000 }` (fields left out keep the read default),
// `false` (no retries) or null (the default of the endpoint's kind).
Problem readJs(const QJSValue &v, std::optional<std::optional<RetryPolicy>> &target)
{
    if (v.isNull()) {
        target = std::optional<RetryPolicy>();
        return std::nullopt;
    }
    if (v.isBool() && !v.toBool()) {
        target = RetryPolicy::none();
        return std::nullopt;
    }
    if (!v.isObject() || v.isArray() || v.isCallable() || v.isQObject())
        return expected(v, "an object { count, delay, maxDelay }, false or null");
    RetryPolicy policy = RetryPolicy::forReads();
    const std::pair<QLatin1StringView, int *> fields[] = {{"count"_L1, &policy.count},
                                                          {"delay"_L1, &policy.baseDelayMs},
                                                          {"maxDelay"_L1, &policy.maxDelayMs}};
    for (const auto &[name, field] : fields) {
        const QJSValue value = v.property(QString(name));
        if (value.isUndefined())
            continue;
        if (!value.isNumber() || value.toNumber() < std::numeric_limits<int>::min()
            || value.toNumber() > std::numeric_limits<int>::max())
            return u".%1"_s.arg(name) + expected(value, "a number");
        *field = value.toInt();
    }
    if (const QString problem = policy.problem(); !problem.isEmpty())
        return u": "_s + problem;
    target = policy;
    return std::nullopt;
}

// `keyCase: "snake_case"` (or "kebab-case", "asIs").
Problem readJs(const QJSValue &v, std::optional<KeyCase> &target)
{
    const auto keyCase = v.isString() ? keyCaseFromName(v.toString()) : std::nullopt;
    if (!keyCase)
        return expected(v, "\"snake_case\", \"kebab-case\" or \"asIs\"");
    target = *keyCase;
    return std::nullopt;
}

// `csrf: "django"` (or "rails", "laravel"), `{ cookie, header, tokenPath }`, or null (none).
Problem readJs(const QJSValue &v, std::optional<Csrf> &target)
{
    if (v.isNull()) {
        target = Csrf();
        return std::nullopt;
    }
    if (v.isString()) {
        const QString name = v.toString();
        if (name == u"django")
            target = Csrf::django();
        else if (name == u"rails")
            target = Csrf::rails();
        else if (name == u"laravel")
            target = Csrf::laravel();
        else
            return expected(v, "\"django\", \"rails\", \"laravel\" or { cookie, header }");
        return std::nullopt;
    }
    if (!v.isObject() || v.isArray() || v.isCallable() || v.isQObject())
        return expected(v, "\"django\", \"rails\", \"laravel\" or { cookie, header }");
    Csrf csrf {v.property(u"cookie"_s).toString().toUtf8(),
               v.property(u"header"_s).toString().toUtf8(),
               {}};
    if (const QJSValue path = v.property(u"tokenPath"_s); path.isString())
        csrf.tokenPath = path.toString();
    if (csrf.isNull())
        return expected(v, "an object with both a cookie and a header name");
    target = csrf;
    return std::nullopt;
}

// `pagination: "pageNumber"` (see paginationName()).
Problem readJs(const QJSValue &v, std::optional<Pagination> &target)
{
    const auto pagination = v.isString() ? paginationFromName(v.toString()) : std::nullopt;
    if (!pagination)
        return expected(v,
                        "\"none\", \"pageNumber\", \"limitOffset\", \"cursor\", "
                        "\"laravel\", \"spring\", \"jsonApi\" or \"linkHeader\"");
    target = *pagination;
    return std::nullopt;
}

// The value QML reads for a shared option nobody set.
QVariant toVariant(int value)
{
    return value;
}
QVariant toVariant(qint64 value)
{
    return value;
}
QVariant toVariant(bool value)
{
    return value;
}
QVariant toVariant(const std::optional<RetryPolicy> &value)
{
    if (!value)
        return {};
    return QVariantMap {{u"count"_s, value->count},
                        {u"delay"_s, value->baseDelayMs},
                        {u"maxDelay"_s, value->maxDelayMs}};
}
QVariant toVariant(KeyCase value)
{
    return keyCaseName(value);
}
QVariant toVariant(Pagination value)
{
    return paginationName(value);
}
QVariant toVariant(const Csrf &value)
{
    if (value.isNull())
        return {};
    return QVariantMap {{u"cookie"_s, QString::fromUtf8(value.cookie)},
                        {u"header"_s, QString::fromUtf8(value.header)},
                        {u"tokenPath"_s, value.tokenPath}};
}
QVariant toVariant(Credentials value)
{
    return credentialsName(value);
}
QVariant toVariant(const Headers &headers)
{
    QVariantMap map;
    for (const auto &[name, value] : headers)
        map.insert(QString::fromUtf8(name), QString::fromUtf8(value));
    return map;
}

} // namespace DataClient::Qml::detail
