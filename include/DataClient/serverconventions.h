// Server conventions as options: the key case of a server's JSON and query keys, where its CSRF
// token comes from and goes to, and how its list answers say "there is more" (docs/servers/).
#pragma once

#include <DataClient/global.h>

#include <QtCore/QByteArray>
#include <QtCore/QString>

#include <optional>

namespace DataClient {

/*!
    The case of the server's keys (the option `keyCase`); the app's are camelCase. Request bodies
    and query keys are written in the server's case, answers are read into the app's, at every
    depth (arrays included). AsIs: no conversion.
*/
enum class KeyCase {
    AsIs,
    //! user_id <-> userId (Django, Rails, Laravel)
    SnakeCase,
    //! user-id <-> userId
    KebabCase,
};

//! "asIs", "snake_case", "kebab-case".
DATACLIENT_REST_EXPORT QString keyCaseName(KeyCase keyCase);
//! The inverse of keyCaseName(); std::nullopt for an unknown name.
DATACLIENT_REST_EXPORT std::optional<KeyCase> keyCaseFromName(const QString &name);

/*!
    Where a CSRF token comes from and goes to (the option `csrf`): on an unsafe request (any
    method but GET, HEAD, OPTIONS and TRACE) to the endpoint's own origin, the value of the cookie
    \c cookie in the network access manager's cookie jar, read when the request is sent, goes in
    the header \c header. When \c tokenPath is set (a path under the urlPrefix whose GET answer
    sets the cookie), a 403 answer to a request sent without the cookie, or with a token the
    server refused, reads that path once and sends the request again.
*/
struct DATACLIENT_REST_EXPORT Csrf
{
    QByteArray cookie {};
    QByteArray header {};
    QString tokenPath {};

    bool isNull() const { return cookie.isEmpty() || header.isEmpty(); }
    //! Django: cookie csrftoken, header X-CSRFToken.
    static Csrf django(const QString &tokenPath = {});
    //! Rails (with the token copied into a cookie, as Rails apps serving an API do): cookie
    //! CSRF-TOKEN, header X-CSRF-Token.
    static Csrf rails(const QString &tokenPath = {});
    //! Laravel (Sanctum) and Angular: cookie XSRF-TOKEN, header X-XSRF-TOKEN.
    static Csrf laravel(const QString &tokenPath = {});

    friend bool operator==(const Csrf &a, const Csrf &b)
    {
        return a.cookie == b.cookie && a.header == b.header && a.tokenPath == b.tokenPath;
    }
};

/*!
    How a list answer is wrapped and how it says "there is more" (the option `pagination`).
    With a preset other than None the list's answer is read into
    `{results: [...], hasMore: bool, next: <the pagination field's next value or null>, count}`;
    see docs/pagination.md.
*/
enum class Pagination {
    None,
    //! Django REST Framework page numbers: {count, next, previous, results}; more while next
    //! is not null; next page: the pagination field of the next URL.
    PageNumber,
    //! Django REST Framework limit/offset: the same shape; the pagination field is the offset.
    LimitOffset,
    //! A cursor in the next URL ({next, previous, results}); the next URL must be on the
    //! endpoint's origin, and a cursor that repeats ends the loading with an error.
    Cursor,
    //! Laravel's paginate(): {data, links: {next}, meta: {current_page, last_page, total}}.
    Laravel,
    //! Spring Data's Page: {content, last, totalElements, number} (0-based page numbers).
    Spring,
    //! JSON:API style: {data, links: {next}}.
    JsonApi,
    //! A bare array and a Link header with rel="next" (GitHub, Rails' pagy/kaminari headers).
    LinkHeader,
};

//! "none", "pageNumber", "limitOffset", "cursor", "laravel", "spring", "jsonApi", "linkHeader".
DATACLIENT_REST_EXPORT QString paginationName(Pagination pagination);
//! The inverse of paginationName(); std::nullopt for an unknown name.
DATACLIENT_REST_EXPORT std::optional<Pagination> paginationFromName(const QString &name);

} // namespace DataClient
