// The compiled form of a PathTemplate: a token list for the path part and one per query pair.
#pragma once

#include <DataClient/pathtemplate.h>

#include <QtCore/QList>
#include <QtCore/QSharedData>

namespace DataClient {

class PathTemplatePrivate : public QSharedData
{
public:
    struct Token
    {
        enum Kind { Literal, Parameter, Wildcard };
        Kind kind = Literal;
        QString text; //!< Literal: the unescaped text; otherwise the parameter name
        int group = -1; //!< optional group id (`{...}` or `:name?`), -1 when required
        bool implicitGroup = false; //!< the group comes from `:name?`, not from braces
        qsizetype position = 0; //!< where it starts in the pattern, for messages
    };
    using Tokens = QList<Token>;

    QString pattern;
    Tokens path;
    bool hasQuery = false;
    QString querySource; //!< the pattern from the escaped '?' on, kept verbatim by listTemplate()
    QList<Tokens> queryPairs; //!< "key=:value" pairs of the query template, split at '&'
    QStringList names;
    QStringList requiredNames;
    QString error;
    qsizetype errorPosition = -1;
};

namespace detail {
//! Writes tokens back in template syntax (escaping literal specials); used by listTemplate().
QString serializeTokens(const PathTemplatePrivate::Tokens &tokens);
} // namespace detail

} // namespace DataClient
