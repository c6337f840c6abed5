// Header access for cursor pagination (docs/pagination.md): parseResponse returns
// `{link, results}` when the answer has a Link header or its body is an array.
#pragma once

#include <DataClient/restendpoint.h>

#include <QtCore/QJsonObject>
#include <QtCore/QUrlQuery>

class LinkHeaderEndpoint : public DataClient::EndpointBase<LinkHeaderEndpoint>
{
public:
    using EndpointBase::EndpointBase;

    QJsonValue parseResponse(const DataClient::Response &response) const override
    {
        const QJsonValue results = RestEndpoint::parseResponse(response);
        if (!response.hasHeader("Link") && !results.isArray())
            return results;
        return QJsonObject {{QStringLiteral("link"), QString::fromUtf8(response.header("Link"))},
                            {QStringLiteral("results"), results}};
    }
};

//! The value of \a field in the `rel="next"` URL of a Link header, or an empty string:
//! `<https://api.github.com/users?since=46>; rel="next", <...>; rel="first"` -> "46".
inline QString nextCursor(const QString &link, const QString &field)
{
    for (const QString &part : link.split(QLatin1Char(','))) {
        const qsizetype open = part.indexOf(QLatin1Char('<'));
        const qsizetype close = part.indexOf(QLatin1Char('>'));
        if (open < 0 || close < open
            || !part.mid(close).contains(QLatin1StringView("rel=\"next\"")))
            continue;
        const QUrl next(part.mid(open + 1, close - open - 1));
        return QUrlQuery(next).queryItemValue(field, QUrl::FullyDecoded);
    }
    return {};
}
