// RestEndpoint's request hooks: getRequestInit, fetchResponse, parseResponse, process, fetch.
#include "answerfuture_p.h"
#include "csrf_p.h"
#include "csrfretry_p.h"
#include "keycase_p.h"
#include "pageanswer_p.h"
#include "logging_p.h"
#include "paramvalue_p.h"
#include "httpexchange_p.h"
#include "requestcontext_p.h"
#include "restendpoint_p.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QJsonParseError>
#include <QtCore/QPromise>
#include <QtCore/QThread>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QtNetwork/QNetworkRequest>

namespace DataClient {

namespace {

bool isBodyless(const QByteArray &method)
{
    return method == "GET" || method == "HEAD" || method == "DELETE";
}

QByteArray jsonBytes(const QJsonValue &value)
{
    if (value.isObject())
        return QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact);
    if (value.isArray())
        return QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact);
    // A scalar: serialize it inside an array and drop the brackets.
    const QByteArray wrapped = QJsonDocument(QJsonArray {value}).toJson(QJsonDocument::Compact);
    return wrapped.mid(1, wrapped.size() - 2);
}

bool isSafeHeader(const QByteArray &name, const QByteArray &value)
{
    auto hasLineBreak = [](const QByteArray &text) {
        return text.contains('\r') || text.contains('\n') || text.contains('\0');
    };
    return !name.isEmpty() && !hasLineBreak(name) && !hasLineBreak(value) && !name.contains(':');
}

} // namespace

RequestInit RestEndpoint::getRequestInit(const QJsonValue &body) const
{
    RequestInit init;
    init.method = d->options.method;
    init.headers = d->options.headers;
    init.credentials = d->options.credentials;
    init.timeout = d->options.timeout;
    init.maxResponseBytes = d->options.maxResponseBytes;
    if (body.isUndefined() || body.isNull())
        return init;
    if (isBodyless(init.method)) {
        qCWarning(lcRest).noquote() << detail::describeEndpoint(*this) << ": a body was given, but"
                                    << init.method << "requests never send one; it is ignored";
        return init;
    }
    if (body.isString()) {
        init.body = body.toString().toUtf8();
        if (!init.hasHeader("content-type"))
            init.setHeader("Content-Type", "text/plain; charset=utf-8");
    } else {
        // The body is written in the server's key case, read along the schema of what is sent.
        const Schema sent = d->options.schema.kind() == Schema::Kind::Collection
            ? d->options.schema.itemSchema()
            : d->options.schema;
        init.body = jsonBytes(detail::keysToServer(body, d->options.keyCase, sent));
        if (!init.hasHeader("content-type"))
            init.setHeader("Content-Type", "application/json");
    }
    return init;
}

RequestInit RestEndpoint::requestInit(const QJsonValue &body, const QUrl &,
                                      QNetworkAccessManager *) const
{
    return getRequestInit(body);
}

QFuture<Response> RestEndpoint::fetchResponse(QNetworkAccessManager *network, const QUrl &url,
                                              const RequestInit &init) const
{
    for (const auto &[name, value] : init.headers) {
        if (!isSafeHeader(name, value)) {
            return QtFuture::makeExceptionalFuture<Response>(NetworkError::invalidRequest(
                init.method, url,
                QStringLiteral("%1: header '%2' contains a line break, NUL or ':' in its "
                               "name; expected one line of text (nothing was sent)")
                    .arg(detail::describeEndpoint(*this),
                         QString::fromLatin1(name.toPercentEncoding()))));
        }
    }
    return detail::HttpExchange::start(network, url, init, QUrl(d->options.urlPrefix));
}

QJsonValue RestEndpoint::parseResponse(const Response &response) const
{
    QJsonValue value = detail::readResponseBody(response, !d->options.schema.isNull(), schemaKey());
    const Pagination pagination = d->options.pagination;
    // A preset reads list answers only: those of a GET whose schema holds a collection (a
    // created or updated entity is no page).
    const Schema &schema = d->options.schema;
    if (pagination != Pagination::None && d->options.method == "GET"
        && (schema.kind() == Schema::Kind::Collection || schema.kind() == Schema::Kind::Object)) {
        const QString field = d->options.paginationField.isEmpty()
            ? detail::defaultPaginationField(pagination)
            : detail::serverKey(d->options.paginationField, d->options.keyCase);
        value = detail::readPageAnswer(pagination, value, response, field,
                                       QUrl(d->options.urlPrefix), detail::describeEndpoint(*this));
    }
    return detail::keysToApp(value, d->options.keyCase, schema);
}

QJsonValue RestEndpoint::process(const QJsonValue &value, const Params &params) const
{
    return d->options.process ? d->options.process(value, params) : value;
}

QFuture<Response> RestEndpoint::send(QNetworkAccessManager *network, const Params &params,
                                     const QJsonValue &body, const RequestContext &context,
                                     std::exception_ptr *refused, QString *refusalNote) const
{
    DATACLIENT_ASSERT_THREAD(this);
    auto refuse = [this, refused](const QString &why) {
        const QString message = detail::describeEndpoint(*this) + QStringLiteral(": ") + why
            + QStringLiteral(" (nothing was sent)");
        qCDebug(lcRest).noquote() << message;
        *refused = std::make_exception_ptr(NetworkError::invalidRequest(method(), {}, message));
        return QFuture<Response>();
    };
    if (!isValid())
        return refuse(d->error);
    const QString &page = d->options.paginationField;
    if (!page.isEmpty()
        && detail::readParamValue(params.value(page)).kind == detail::ParamValue::Absent) {
        return refuse(QStringLiteral("missing the pagination field '%1'; expected the getList "
                                     "parameters plus '%1' (e.g. {\"%1\": 2})")
                          .arg(page));
    }
    QString error;
    const QUrl target = url(params, &error);
    if (!target.isValid())
        return refuse(error);
    try {
        QNetworkAccessManager *manager = network ? network : defaultNetworkAccessManager();
        RequestInit init = requestInit(body, target, manager);
        // After the hook: the caller's headers replace the endpoint's, the endpoint's own
        // If-None-Match wins over the validators (docs/hooks.md).
        RequestContextPrivate::applyTo(context, init, validators());
        const Csrf &csrf = d->options.csrf;
        if (!detail::csrfApplies(csrf, init.method, target, QUrl(d->options.urlPrefix)))
            return fetchResponse(manager, target, init);
        if (!detail::addCsrfHeader(csrf, manager, target, init))
            *refusalNote = detail::missingCsrfCookieNote(csrf);
        if (csrf.tokenPath.isEmpty())
            return fetchResponse(manager, target, init);
        return detail::fetchWithCsrfRetry(*this, manager, target, init, csrf, d->options.urlPrefix);
    } catch (...) {
        *refused = std::current_exception();
        return QFuture<Response>();
    }
}

QFuture<QJsonValue> RestEndpoint::fetch(QNetworkAccessManager *network, const Params &params,
                                        const QJsonValue &body, const RequestContext &context) const
{
    std::exception_ptr refused;
    QString refusalNote;
    QFuture<Response> response = send(network, params, body, context, &refused, &refusalNote);
    if (refused)
        return QtFuture::makeExceptionalFuture<QJsonValue>(refused);
    // Keeps a shared endpoint alive until its answer is read, even if its resource is dropped.
    return detail::answerFuture<QJsonValue>(
        response, this, detail::conditionalRequestOf(*this, context), refusalNote,
        [self = this, keepAlive = weak_from_this().lock(), params](const Response &answer,
                                                                   const auto &promise) {
            promise->addResult(self->process(self->parseResponse(answer), params));
            return false;
        });
}

} // namespace DataClient
