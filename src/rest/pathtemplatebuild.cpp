// PathTemplate: building a path from parameters, matching a path, and the getList template.
// Values are percent-encoded: a value can never add a segment, a query, a fragment
// or a header, and a value that is exactly a dot segment is refused instead of being resolved.
#include "paramvalue_p.h"
#include "pathtemplate_p.h"

#include <QtCore/QRegularExpression>
#include <QtCore/QUrl>
#include <QtCore/QUrlQuery>

namespace DataClient {

namespace {

using Data = PathTemplatePrivate;
using Token = Data::Token;
using detail::ParamValue;

bool isDotSegment(const QString &segment)
{
    return segment == u"." || segment == u"..";
}

class Builder
{
public:
    Builder(const Data &data, const Params &params) : d(data), params(params) { }

    QString error;

    // An empty string, or a list of one (a wildcard given {""}), writes nothing: the parameter
    // is missing, so build() never writes a path that match() cannot read back ("/files/").
    bool isPresent(const Token &token) const
    {
        const QVariant raw = params.value(token.text);
        const ParamValue value = detail::readParamValue(raw);
        return value.kind != ParamValue::Absent
            && !(raw.typeId() == QMetaType::QString && raw.toString().isEmpty())
            && !(value.kind == ParamValue::List && value.list.size() == 1
                 && value.list.constFirst().isEmpty());
    }

    // Appends the encoded tokens to out; false (with error) when a value cannot be written.
    bool write(const Data::Tokens &tokens, QString &out)
    {
        for (const Token &token : tokens) {
            if (token.kind == Token::Literal) {
                out += detail::encodeLiteral(token.text);
                continue;
            }
            const ParamValue value = detail::readParamValue(params.value(token.text));
            if (value.kind == ParamValue::Unsupported)
                return fail(QStringLiteral("parameter '%1' has a value of type %2; expected a "
                                           "string, number or boolean%3")
                                .arg(token.text, value.typeName,
                                     token.kind == Token::Wildcard
                                         ? QStringLiteral(" or a list of those")
                                         : QString()));
            QStringList segments;
            if (value.kind == ParamValue::List) {
                if (token.kind != Token::Wildcard)
                    return fail(QStringLiteral("parameter '%1' is a list; expected one string, "
                                               "number or boolean (only '*%1' wildcards take "
                                               "lists)")
                                    .arg(token.text));
                segments = value.list;
            } else {
                segments = {value.scalar};
            }
            for (qsizetype i = 0; i < segments.size(); ++i) {
                if (isDotSegment(segments.at(i)))
                    return fail(QStringLiteral("parameter '%1' is '%2', a dot segment that would "
                                               "change the path; expected a name")
                                    .arg(token.text, segments.at(i)));
                if (i > 0)
                    out += u'/';
                out += detail::percentEncode(segments.at(i));
            }
        }
        return true;
    }

    // Writes a run of tokens that is either required (group < 0) or one optional group.
    bool writeRun(const Data::Tokens &run, QString &out)
    {
        const bool optional = run.first().group >= 0;
        for (const Token &token : run) {
            if (token.kind == Token::Literal || isPresent(token))
                continue;
            if (optional)
                return true; // the whole group vanishes
            return fail(
                QStringLiteral("missing required parameter '%1'%2").arg(token.text, given()));
        }
        return write(run, out);
    }

    QString given() const
    {
        QStringList names;
        for (auto it = params.cbegin(); it != params.cend(); ++it) {
            if (detail::readParamValue(it.value()).kind != ParamValue::Absent)
                names.append(it.key());
        }
        return names.isEmpty() ? QStringLiteral(" (no parameters were given)")
                               : QStringLiteral(" (given: %1)").arg(names.join(u", "));
    }

    QString build()
    {
        QString path;
        for (qsizetype i = 0; i < d.path.size();) {
            qsizetype end = i + 1;
            const int group = d.path.at(i).group;
            while (group >= 0 && end < d.path.size() && d.path.at(end).group == group)
                ++end;
            if (!writeRun(d.path.mid(i, end - i), path))
                return {};
            i = end;
        }
        QStringList pairs;
        for (const Data::Tokens &pair : d.queryPairs) {
            if (pair.isEmpty())
                continue;
            QString written;
            const bool optional = std::any_of(pair.cbegin(), pair.cend(), [](const Token &t) {
                return t.kind != Token::Literal && t.group >= 0;
            });
            const bool complete = std::all_of(pair.cbegin(), pair.cend(), [this](const Token &t) {
                return t.kind == Token::Literal || isPresent(t);
            });
            if (!complete && optional)
                continue;
            if (!writeRun(pair, written))
                return {};
            pairs.append(written);
        }
        if (!pairs.isEmpty())
            path += u'?' + pairs.join(u'&');
        return path;
    }

private:
    bool fail(const QString &what)
    {
        error = QStringLiteral("path template '%1': %2").arg(d.pattern, what);
        return false;
    }

    const Data &d;
    const Params &params;
};

QString regexFor(const Data::Tokens &tokens)
{
    QString rx;
    int openGroup = -1;
    for (const Token &token : tokens) {
        if (openGroup >= 0 && token.group != openGroup) {
            rx += u")?";
            openGroup = -1;
        }
        if (token.group >= 0 && openGroup < 0) {
            rx += u"(?:";
            openGroup = token.group;
        }
        switch (token.kind) {
        case Token::Literal:
            rx += QRegularExpression::escape(detail::encodeLiteral(token.text));
            break;
        // Numbered groups, read back in token order by match(): a parameter name may start with
        // a digit, be longer than 32 characters or not be ASCII, which PCRE2 refuses in a group
        // name (the whole expression would then be invalid and nothing would match).
        case Token::Parameter:
            rx += QStringLiteral("([^/]+)");
            break;
        case Token::Wildcard:
            rx += QStringLiteral("(.+)");
            break;
        }
    }
    if (openGroup >= 0)
        rx += u")?";
    return rx;
}

QString decode(const QString &encoded)
{
    return QUrl::fromPercentEncoding(encoded.toUtf8());
}

} // namespace

QString PathTemplate::build(const Params &params, QString *errorMessage) const
{
    if (!isValid()) {
        if (errorMessage)
            *errorMessage = d->error;
        return {};
    }
    Builder builder(*d, params);
    QString path = builder.build();
    if (!builder.error.isEmpty()) {
        if (errorMessage)
            *errorMessage = builder.error;
        return {};
    }
    if (path.isNull())
        path = QLatin1StringView("");
    return path;
}

std::optional<Params> PathTemplate::match(const QString &path) const
{
    if (!isValid())
        return std::nullopt;
    const qsizetype queryAt = path.indexOf(u'?');
    const QString pathPart = queryAt < 0 ? path : path.left(queryAt);
    const QRegularExpression rx(QStringLiteral("\\A") + regexFor(d->path)
                                + QStringLiteral("/?\\z"));
    const QRegularExpressionMatch m = rx.match(pathPart);
    if (!m.hasMatch())
        return std::nullopt;
    Params params;
    int group = 0;
    for (const Token &token : std::as_const(d->path)) {
        if (token.kind == Token::Literal)
            continue;
        const QString captured = m.captured(++group);
        if (captured.isNull())
            continue;
        if (token.kind == Token::Wildcard) {
            QStringList segments = captured.split(u'/');
            for (QString &segment : segments)
                segment = decode(segment);
            params.insert(token.text, segments);
        } else {
            params.insert(token.text, decode(captured));
        }
    }
    const QUrlQuery query(queryAt < 0 ? QString() : path.mid(queryAt + 1));
    for (const Data::Tokens &pair : std::as_const(d->queryPairs)) {
        // Only "key=:param" pairs carry a value back; literal pairs are not required.
        if (pair.size() != 2 || pair.at(0).kind != Token::Literal
            || pair.at(1).kind != Token::Parameter || !pair.at(0).text.endsWith(u'='))
            continue;
        const QString key = pair.at(0).text.chopped(1);
        if (query.hasQueryItem(key))
            params.insert(pair.at(1).text, query.queryItemValue(key, QUrl::FullyDecoded));
        else if (pair.at(1).group < 0)
            return std::nullopt;
    }
    return params;
}

PathTemplate PathTemplate::listTemplate() const
{
    if (!isValid())
        return *this;
    const Data::Tokens &tokens = d->path;
    qsizetype last = -1;
    for (qsizetype i = 0; i < tokens.size(); ++i) {
        if (tokens.at(i).kind != Token::Literal)
            last = i;
    }
    if (last < 0) {
        PathTemplate invalid = *this;
        invalid.d->error // a copy of the data (QSharedDataPointer detaches)
            = QStringLiteral("path template '%1' has no parameter, so it has no getList path "
                             "(getList drops the last parameter segment); expected a "
                             "path such as '/users/:id'")
                  .arg(d->pattern);
        invalid.d->errorPosition = 0;
        return invalid;
    }
    // Cut at the start of the last parameter's segment: its group, or the last '/' before it.
    Data::Tokens kept = tokens.mid(0, last);
    if (tokens.at(last).group >= 0) {
        while (!kept.isEmpty() && kept.last().group == tokens.at(last).group)
            kept.removeLast();
    } else {
        while (!kept.isEmpty()) {
            Token &previous = kept.last();
            const qsizetype slash = previous.kind == Token::Literal && previous.group < 0
                ? previous.text.lastIndexOf(u'/')
                : -1;
            if (slash >= 0) {
                previous.text.truncate(slash);
                if (previous.text.isEmpty())
                    kept.removeLast();
                break;
            }
            kept.removeLast();
        }
    }
    QString pattern = detail::serializeTokens(kept);
    // A path that ends in '/' keeps it on its list path ("/todos/:id/" -> "/todos/"): servers
    // with trailing-slash routes (Django REST Framework, ...) answer "/todos" with a redirect,
    // which a push cannot follow. The JS reference strips it; this is deliberate.
    const bool trailingSlash = tokens.last().kind == Token::Literal && tokens.last().group < 0
        && tokens.last().text.endsWith(u'/');
    if (pattern.isEmpty() || (trailingSlash && !pattern.endsWith(u'/')))
        pattern += u'/';
    return PathTemplate(pattern + d->querySource);
}

} // namespace DataClient
