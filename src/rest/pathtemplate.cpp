// PathTemplate: parsing. Building, matching and the getList path are in pathtemplatebuild.cpp.
//
// Grammar (docs/path-templates.md):
//   template := path [ ESCAPED_QMARK query ]        ESCAPED_QMARK is a backslash then '?'
//   path     := ( literal | param | wildcard | group )*
//   group    := '{' ( literal | param | wildcard )* '}' [ '?' ]
//                                                    optional as a whole; not nested; the
//                                                    '?' (the reference's newer form) changes
//                                                    nothing
//   param    := ':' name [ '?' ]                     '?' makes it optional; outside a group its
//                                                    preceding '/' vanishes with it
//   wildcard := '*' name                             takes a list of path segments
//   query    := pair ( '&' pair )*                   a pair vanishes when an optional param in
//   pair     := ( literal | param )*                 it is absent, e.g. "page=:page?"
//   name     := [A-Za-z0-9_]+
//   literal  := any character but ':' '*' '{' '}' '?' and backslash, or backslash + any character
// An unescaped '?' that follows neither a parameter name nor a group is an error (write the
// escaped form).
#include "pathtemplate_p.h"

namespace DataClient {

namespace {

using Data = PathTemplatePrivate;
using Token = Data::Token;

bool isNameChar(QChar c)
{
    return c.isLetterOrNumber() || c == u'_';
}

class Parser
{
public:
    explicit Parser(Data &data) : d(data), text(data.pattern) { }

    bool parse()
    {
        if (!parseSection(d.path, false))
            return false;
        if (pos < text.size()) { // stopped at the escaped '?': the query template follows
            d.hasQuery = true;
            d.querySource = text.mid(pos);
            pos += 2;
            Data::Tokens pair;
            while (true) {
                if (!parseSection(pair, true))
                    return false;
                d.queryPairs.append(pair);
                pair.clear();
                if (pos >= text.size())
                    break;
                ++pos; // the '&'
            }
        }
        for (const Token &token : std::as_const(d.path))
            addName(token);
        for (const Data::Tokens &pair : std::as_const(d.queryPairs)) {
            for (const Token &token : pair)
                addName(token);
        }
        return d.error.isEmpty();
    }

private:
    bool fail(qsizetype at, const QString &what)
    {
        d.error = QStringLiteral("path template '%1' (position %2): %3")
                      .arg(d.pattern)
                      .arg(at)
                      .arg(what);
        d.errorPosition = at;
        return false;
    }

    void addName(const Token &token)
    {
        if (token.kind == Token::Literal || !d.error.isEmpty())
            return;
        if (d.names.contains(token.text)) {
            fail(token.position,
                 QStringLiteral("parameter '%1' appears twice; each name may appear once")
                     .arg(token.text));
            return;
        }
        d.names.append(token.text);
        if (token.group < 0)
            d.requiredNames.append(token.text);
    }

    void appendLiteral(Data::Tokens &tokens, QChar c, qsizetype at)
    {
        if (!tokens.isEmpty() && tokens.last().kind == Token::Literal
            && tokens.last().group == group && !tokens.last().implicitGroup) {
            tokens.last().text.append(c);
            return;
        }
        tokens.append(Token {Token::Literal, QString(c), group, false, at});
    }

    // Reads a name at pos; returns false (with an error) when there is none.
    bool readName(QString *name, QChar sigil)
    {
        const qsizetype start = pos;
        while (pos < text.size() && isNameChar(text.at(pos)))
            ++pos;
        if (pos == start) {
            return fail(start - 1,
                        QStringLiteral("expected a parameter name (letters, digits, '_') after "
                                       "'%1'; write a backslash before it for a literal '%1'")
                            .arg(sigil));
        }
        *name = text.mid(start, pos - start);
        return true;
    }

    // Turns the parameter just appended into an implicit optional group, pulling the '/' that
    // precedes it into the group so that "/users/:id?" without id gives "/users".
    void makeOptional(Data::Tokens &tokens, bool inQuery)
    {
        Token param = tokens.takeLast();
        const int id = nextGroup++;
        if (!inQuery && !tokens.isEmpty() && tokens.last().kind == Token::Literal
            && tokens.last().group < 0 && tokens.last().text.endsWith(u'/')) {
            Token &previous = tokens.last();
            previous.text.chop(1);
            const qsizetype slashAt = previous.position + previous.text.size();
            if (previous.text.isEmpty())
                tokens.removeLast();
            tokens.append(Token {Token::Literal, QStringLiteral("/"), id, true, slashAt});
        }
        param.group = id;
        param.implicitGroup = true;
        tokens.append(param);
    }

    bool parseSection(Data::Tokens &tokens, bool inQuery)
    {
        while (pos < text.size()) {
            const QChar c = text.at(pos);
            const qsizetype at = pos;
            if (c == u'\\') {
                if (pos + 1 >= text.size())
                    return fail(at,
                                QStringLiteral("a backslash must be followed by the "
                                               "character it makes literal"));
                const QChar next = text.at(pos + 1);
                if (next == u'?' && !inQuery && group < 0)
                    return true; // the query template starts here
                if (next == u'?' && group >= 0)
                    return fail(at,
                                QStringLiteral("a query cannot start inside a '{...}' "
                                               "group; close the group first"));
                appendLiteral(tokens, next, at);
                pos += 2;
            } else if (c == u':' || c == u'*') {
                if (c == u'*' && inQuery)
                    return fail(at,
                                QStringLiteral("a '*' wildcard is only allowed in the path, "
                                               "not in the query template"));
                ++pos;
                QString name;
                if (!readName(&name, c))
                    return false;
                tokens.append(
                    Token {c == u':' ? Token::Parameter : Token::Wildcard, name, group, false, at});
                if (pos < text.size() && text.at(pos) == u'?' && c == u':') {
                    ++pos;
                    if (group < 0)
                        makeOptional(tokens, inQuery);
                }
            } else if (c == u'{') {
                if (inQuery)
                    return fail(at,
                                QStringLiteral("'{...}' groups are only allowed in the "
                                               "path; in the query use ':name?'"));
                if (group >= 0)
                    return fail(at,
                                QStringLiteral("groups cannot be nested: expected '}' "
                                               "before this '{'"));
                group = nextGroup++;
                groupStart = at;
                ++pos;
            } else if (c == u'}') {
                if (group < 0)
                    return fail(at, QStringLiteral("'}' without a matching '{'"));
                group = -1;
                ++pos;
                if (pos < text.size() && text.at(pos) == u'?')
                    ++pos; // `{/:id}?`: a group is optional anyway
            } else if (c == u'?') {
                const QString before = at == 0 ? QStringLiteral("at the start of the template")
                                               : QStringLiteral("after '%1'").arg(text.at(at - 1));
                return fail(at,
                            QStringLiteral("unexpected '?' %1: a '?' may only follow a parameter "
                                           "(':name?') or a group ('{/:name}?'); for a literal "
                                           "'?' or to start a query, write a backslash before "
                                           "it")
                                .arg(before));
            } else if (c == u'&' && inQuery) {
                return true;
            } else {
                appendLiteral(tokens, c, at);
                ++pos;
            }
        }
        if (group >= 0)
            return fail(groupStart, QStringLiteral("'{' is never closed: expected '}'"));
        return true;
    }

    Data &d;
    const QString &text;
    qsizetype pos = 0;
    int group = -1;
    int nextGroup = 0;
    qsizetype groupStart = 0;
};

} // namespace

PathTemplate::PathTemplate() : d(new Data) { }

PathTemplate::PathTemplate(const QString &pattern) : d(new Data)
{
    d->pattern = pattern;
    Parser(*d).parse();
}

PathTemplate::PathTemplate(const PathTemplate &other) = default;
PathTemplate::PathTemplate(PathTemplate &&other) noexcept = default;
PathTemplate &PathTemplate::operator=(const PathTemplate &other) = default;
PathTemplate &PathTemplate::operator=(PathTemplate &&other) noexcept = default;
PathTemplate::~PathTemplate() = default;

bool PathTemplate::isValid() const
{
    return d->error.isEmpty();
}

QString PathTemplate::errorString() const
{
    return d->error;
}

qsizetype PathTemplate::errorPosition() const
{
    return d->errorPosition;
}

QString PathTemplate::pattern() const
{
    return d->pattern;
}

QStringList PathTemplate::parameterNames() const
{
    return d->names;
}

QStringList PathTemplate::requiredParameterNames() const
{
    return d->requiredNames;
}

bool PathTemplate::hasParameter(const QString &name) const
{
    return d->names.contains(name);
}

bool PathTemplate::hasPathParameter() const
{
    return std::any_of(d->path.cbegin(), d->path.cend(),
                       [](const Token &token) { return token.kind != Token::Literal; });
}

bool PathTemplate::hasQueryTemplate() const
{
    return d->hasQuery;
}

Params PathTemplate::extraParameters(const Params &params) const
{
    Params extra;
    for (auto it = params.cbegin(); it != params.cend(); ++it) {
        if (!d->names.contains(it.key()))
            extra.insert(it.key(), it.value());
    }
    return extra;
}

namespace detail {

QString serializeTokens(const PathTemplatePrivate::Tokens &tokens)
{
    QString out;
    int openGroup = -1;
    for (const Token &token : tokens) {
        if (openGroup >= 0 && token.group != openGroup) {
            out += u'}';
            openGroup = -1;
        }
        if (token.group >= 0 && !token.implicitGroup && openGroup < 0) {
            out += u'{';
            openGroup = token.group;
        }
        switch (token.kind) {
        case Token::Literal:
            for (QChar c : token.text) {
                if (c == u':' || c == u'*' || c == u'{' || c == u'}' || c == u'?' || c == u'\\')
                    out += u'\\';
                out += c;
            }
            break;
        case Token::Parameter:
            out += u':' + token.text;
            if (token.implicitGroup)
                out += u'?';
            break;
        case Token::Wildcard:
            out += u'*' + token.text;
            break;
        }
    }
    if (openGroup >= 0)
        out += u'}';
    return out;
}

} // namespace detail

} // namespace DataClient
