// The option `pagination`: reading a framework's list answer into one shape.
#pragma once

#include <DataClient/response.h>
#include <DataClient/serverconventions.h>

#include <QtCore/QJsonValue>
#include <QtCore/QUrl>

namespace DataClient::detail {

//! The pagination field a preset uses when the resource names none ("page", "offset",
//! "cursor", ...).
QString defaultPaginationField(Pagination pagination);

/*!
    What a list \a answer of a \a pagination preset holds, as
    `{results: [...], hasMore: bool or null, next: <the page field's next value> or null,
    count: number or null}`. \a answer is as the server wrote it (the preset reads the
    framework's own keys); \a field is the page field's name on the server; \a origin the
    endpoint's (a next URL elsewhere is refused). A bare array passes as `{results}` with
    hasMore null (the page-size guess then decides). Throws NetworkError (InvalidResponse)
    naming \a where and the shape expected when the answer is something else, or when the next
    URL is on another origin.
*/
QJsonValue readPageAnswer(Pagination pagination, const QJsonValue &answer, const Response &response,
                          const QString &field, const QUrl &origin, const QString &where);

} // namespace DataClient::detail
