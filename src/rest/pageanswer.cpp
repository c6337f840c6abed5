// Pagination presets: each framework's list wrapper, and how it says "there is more".
#include "pageanswer_p.h"
#include "httpexchange_p.h"

#include <DataClient/networkerror.h>
#include <DataClient/schemaerror.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QRegularExpression>
#include <QtCore/QUrlQuery>

namespace DataClient::detail {

namespace {

struct Shape
{
    const char *results; // the key of the rows
    const char *described; // what the answer should look like, for messages
};

Shape shapeOf(Pagination pagination)
{
    switch (pagination) {
    case Pagination::PageNumber:
    case Pagination::LimitOffset:
        return {"results", "{count, next, previous, results} (Django REST Framework)"};
    case Pagination::Cursor:
        return {"results", "{next, previous, results} (a cursor page)"};
    case Pagination::Laravel:
        return {"data", "{data, links: {next}, meta} (Laravel)"};
    case Pagination::Spring:
        return {"content", "{content, last, totalElements, number} (Spring Data)"};
    case Pagination::JsonApi:
        return {"data", "{data, links: {next}} (JSON:API)"};
    case Pagination::LinkHeader:
    case Pagination::None:
        break;
    }
    return {nullptr, "an array with a Link header"};
}

// The rel="next" target of a Link header: `<https://...?page=2>; rel="next", <...>; rel="last"`.
QString linkNext(const QByteArray &header)
{
    static const QRegularExpression link(QString::fromLatin1(R"re(<([^>]*)>\s*((?:;[^,<]*)*))re"));
    static const QRegularExpression next(QString::fromLatin1(R"re(;\s*rel\s*=\s*"?([^";]*)"?)re"));
    auto links = link.globalMatch(QString::fromUtf8(header));
    while (links.hasNext()) {
        const auto match = links.next();
        auto rels = next.globalMatch(match.captured(2));
        while (rels.hasNext()) {
            if (rels.next().captured(1).split(u' ').contains(QStringLiteral("next")))
                return match.captured(1);
        }
    }
    return {};
}

QJsonValue numberOrText(const QString &text)
{
    bool isNumber = false;
    const qlonglong number = text.toLongLong(&isNumber);
    return isNumber ? QJsonValue(number) : QJsonValue(text);
}

} // namespace

QString defaultPaginationField(Pagination pagination)
{
    switch (pagination) {
    case Pagination::LimitOffset:
        return QStringLiteral("offset");
    case Pagination::Cursor:
        return QStringLiteral("cursor");
    case Pagination::JsonApi:
        return QStringLiteral("page[number]");
    default:
        return QStringLiteral("page");
    }
}

QJsonValue readPageAnswer(Pagination pagination, const QJsonValue &answer, const Response &response,
                          const QString &field, const QUrl &origin, const QString &where)
{
    const Shape shape = shapeOf(pagination);
    auto refuse = [&](const QString &why) {
        return NetworkError(NetworkError::Kind::InvalidResponse, response.status,
                            QStringLiteral("%1: %2 (pagination %3)")
                                .arg(where, why, paginationName(pagination)))
            .withRequest({}, response.url);
    };
    QJsonObject page;
    QString nextUrl;
    QJsonValue hasMore;
    QJsonValue next;
    if (answer.isArray() || !shape.results) {
        if (!answer.isArray())
            throw refuse(
                QStringLiteral("expected %1; got %2")
                    .arg(QLatin1StringView(shape.described), SchemaError::describe(answer)));
        page.insert(QStringLiteral("results"), answer);
        nextUrl = linkNext(response.header("link"));
        if (response.hasHeader("link"))
            hasMore = !nextUrl.isEmpty();
    } else {
        const QJsonObject object = answer.toObject();
        const QJsonValue rows = object.value(QLatin1StringView(shape.results));
        if (!answer.isObject() || !rows.isArray()) {
            throw refuse(
                QStringLiteral("expected %1; got %2")
                    .arg(QLatin1StringView(shape.described), SchemaError::describe(answer)));
        }
        page.insert(QStringLiteral("results"), rows);
        switch (pagination) {
        case Pagination::Spring:
            hasMore = !object.value(QStringLiteral("last")).toBool(true);
            if (hasMore.toBool())
                next = object.value(QStringLiteral("number")).toInteger() + 1;
            page.insert(QStringLiteral("count"), object.value(QStringLiteral("totalElements")));
            break;
        case Pagination::Laravel:
        case Pagination::JsonApi: {
            const QJsonValue link
                = object.value(QStringLiteral("links")).toObject().value(QStringLiteral("next"));
            // JSON:API allows a links object ({href}) where others write the URL.
            nextUrl = link.isObject() ? link.toObject().value(QStringLiteral("href")).toString()
                                      : link.toString();
            hasMore = !nextUrl.isEmpty();
            const QJsonObject meta = object.value(QStringLiteral("meta")).toObject();
            if (meta.contains(QStringLiteral("total")))
                page.insert(QStringLiteral("count"), meta.value(QStringLiteral("total")));
            break;
        }
        default:
            nextUrl = object.value(QStringLiteral("next")).toString();
            hasMore = !nextUrl.isEmpty();
            if (object.contains(QStringLiteral("count")))
                page.insert(QStringLiteral("count"), object.value(QStringLiteral("count")));
            break;
        }
    }
    if (!nextUrl.isEmpty()) {
        const QUrl target = response.url.resolved(QUrl(nextUrl));
        const QUrl home = origin.isRelative() ? response.url : origin;
        if (!sameOrigin(target, home)) {
            throw refuse(QStringLiteral("the next page '%1' is on another origin than %2; it is "
                                        "not followed (check the server's base URL setting)")
                             .arg(target.toString(), home.adjusted(QUrl::RemovePath).toString()));
        }
        // Keys compared decoded: JSON:API's page[number] arrives as page%5Bnumber%5D.
        const auto items = QUrlQuery(target).queryItems(QUrl::FullyDecoded);
        for (const auto &[key, value] : items) {
            if (key == field)
                next = numberOrText(value);
        }
        if (next.isUndefined() && pagination == Pagination::Cursor)
            throw refuse(QStringLiteral("the next page '%1' has no '%2' parameter")
                             .arg(target.toString(), field));
    }
    page.insert(QStringLiteral("hasMore"), hasMore.isUndefined() ? QJsonValue() : hasMore);
    page.insert(QStringLiteral("next"), next.isUndefined() ? QJsonValue() : next);
    return page;
}

} // namespace DataClient::detail
