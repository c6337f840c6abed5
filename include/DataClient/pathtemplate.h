// A compiled path template such as "/groups/:group/users/:id?" (docs/path-templates.md).
#pragma once

#include <DataClient/global.h>
#include <DataClient/params.h>

#include <QtCore/QSharedDataPointer>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include <optional>

namespace DataClient {

class PathTemplatePrivate;

//! A path template, compiled once and shared (cheap to copy, immutable).
//!
//! Syntax (the full grammar is at the top of src/rest/pathtemplate.cpp):
//! - `:name` a required parameter, `:name?` an optional one (its preceding `/` vanishes with it);
//! - `{...}` an optional group, e.g. `/users{/:id}`: left out unless every parameter in it is
//! given;
//! - `*name` a wildcard taking a list of segments, e.g. `/files/*path`;
//! - a backslash makes the next character literal: `\:` and `\?`. An escaped question mark starts
//!   a query template, `/search\?q=:q&page=:page?`, whose pairs vanish when their optional
//!   parameter is absent.
//!
//! Parameter values are percent-encoded, so a value can never add a path segment, a query or a
//! fragment, and never a header. A malformed template is invalid: isValid() is false and
//! errorString() names the template, the position and what was expected.
class DATACLIENT_REST_EXPORT PathTemplate
{
public:
    //! An empty template (the path "").
    PathTemplate();
    //! Compiles \a pattern. Check isValid(): a malformed pattern gives an invalid template.
    explicit PathTemplate(const QString &pattern);
    PathTemplate(const PathTemplate &other);
    PathTemplate(PathTemplate &&other) noexcept;
    PathTemplate &operator=(const PathTemplate &other);
    PathTemplate &operator=(PathTemplate &&other) noexcept;
    ~PathTemplate();
    void swap(PathTemplate &other) noexcept { d.swap(other.d); }

    bool isValid() const;
    //! Why the template is invalid, e.g. "path template '/a/:' (position 4): expected a
    //! parameter name after ':'". Empty when valid.
    QString errorString() const;
    //! Position in the pattern where the error was found, or -1.
    qsizetype errorPosition() const;

    //! The pattern as given.
    QString pattern() const;
    //! Every parameter name, in order of appearance (path, then query template).
    QStringList parameterNames() const;
    //! The parameters that must be given (neither optional nor inside a group).
    QStringList requiredParameterNames() const;
    bool hasParameter(const QString &name) const;
    //! Whether the path part (before any query template) has a parameter or a wildcard.
    bool hasPathParameter() const;
    //! Whether the template contains a query part (an escaped question mark).
    bool hasQueryTemplate() const;

    /*!
      Builds the path (and the query template's pairs) from \a params, percent-encoding values.
      Returns a null QString and sets \a errorMessage when a required parameter is missing or a
      value cannot be written (a map, a dot segment "." or "..", a list for a plain parameter).
      Parameters that are not in the template are ignored here (see extraParameters()).
    */
    QString build(const Params &params, QString *errorMessage = nullptr) const;

    //! The entries of \a params whose keys are not parameters of this template.
    Params extraParameters(const Params &params) const;

    /*!
      Matches \a path (optionally followed by a query) against the template and returns the
      decoded parameters, or std::nullopt when it does not match. Wildcards yield a QStringList.
    */
    std::optional<Params> match(const QString &path) const;

    /*!
      The getList template: the path with its last parameter segment
      removed, e.g. "/:first/:second" -> "/:first", "/:first" -> "/". A path that ends in '/'
      keeps it: "/todos/:id/" -> "/todos/" (the JS reference gives "/todos"). A query template
      is kept. A path without a parameter gives an invalid template whose
      errorString() says so.
    */
    PathTemplate listTemplate() const;

private:
    QSharedDataPointer<PathTemplatePrivate> d; // immutable once compiled: never detached
};

} // namespace DataClient

Q_DECLARE_SHARED(DataClient::PathTemplate)
