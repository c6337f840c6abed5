// Reading an answer's body (the default parseResponse()): JSON (scalars included) for an endpoint
// with a schema or a JSON content type, text otherwise. JSON is UTF-8 only (RFC 8259); a text
// body is decoded from the charset its Content-Type names, when Qt knows it.
#include "restendpoint_p.h"

#include <DataClient/compactjson.h>
#include <DataClient/networkerror.h>
#include <DataClient/response.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonParseError>
#include <QtCore/QStringDecoder>

namespace DataClient {

namespace {

struct Parsed
{
    QJsonValue value;
    QString error; //!< the parser's message and offset; empty when it parsed
};

// Parses any JSON text, scalars included ("5", "\"pk\"" are valid JSON answers).
Parsed parseJson(const QByteArray &body)
{
    // Before the [ ] wrapping below, so that the offset is the body's (one rule and one message
    // for both read paths: CompactJson::parse() says the same).
    if (const QString bad = CompactJson::utf8Error(body); !bad.isNull())
        return {{}, bad};
    QJsonParseError error;
    const QByteArray trimmed = body.trimmed();
    const bool container = trimmed.startsWith('{') || trimmed.startsWith('[');
    const QJsonDocument document
        = QJsonDocument::fromJson(container ? body : "[" + body + "]", &error);
    if (error.error != QJsonParseError::NoError) {
        const int offset = container ? error.offset : qMax(0, error.offset - 1);
        return {{}, QStringLiteral("%1 at offset %2").arg(error.errorString()).arg(offset)};
    }
    if (container)
        return {document.isObject() ? QJsonValue(document.object()) : QJsonValue(document.array()),
                {}};
    if (document.array().size() != 1)
        return {{}, QStringLiteral("expected exactly one JSON value at offset 0")};
    return {document.array().first(), {}};
}

QString excerpt(const QByteArray &body)
{
    QString text = QString::fromUtf8(body.left(80)).simplified();
    if (body.size() > 80)
        text += QStringLiteral("...");
    return text;
}

bool isUtf8(const QByteArray &charset)
{
    // US-ASCII is a subset of UTF-8.
    return charset.isEmpty() || charset == "utf-8" || charset == "utf8" || charset == "us-ascii";
}

NetworkError unreadable(const Response &response, const QString &why)
{
    const QString request
        = QString::fromLatin1(response.method) + u' ' + response.url.toString(QUrl::FullyEncoded);
    return NetworkError(NetworkError::Kind::InvalidResponse, 400,
                        QStringLiteral("%1: %2").arg(request, why))
        .withStatus(400, response.statusText)
        .withRequest(response.method, response.url)
        .withBody(response.body);
}

QString readText(const Response &response)
{
    const QByteArray charset = response.charset();
    const QByteArray name = isUtf8(charset) ? QByteArray("UTF-8") : charset;
    QStringDecoder decoder(name.constData(), QStringDecoder::Flag::Stateless);
    if (!decoder.isValid()) {
        throw unreadable(response,
                         QStringLiteral("the body's charset '%1' is not one Qt can decode; "
                                        "expected UTF-8 or another charset QStringDecoder "
                                        "knows (UTF-16, UTF-32, ISO-8859-1)")
                             .arg(QString::fromLatin1(charset)));
    }
    if (isUtf8(charset)) {
        if (const QString bad = CompactJson::utf8Error(response.body); !bad.isNull())
            throw unreadable(response, QStringLiteral("the body is not valid UTF-8 text: ") + bad);
    }
    QString text = decoder.decode(response.body);
    if (decoder.hasError()) {
        throw unreadable(
            response,
            QStringLiteral("the body is not valid %1 text").arg(QString::fromLatin1(charset)));
    }
    return text;
}

} // namespace

namespace detail {

void requireUtf8Json(const Response &response)
{
    const QByteArray charset = response.charset();
    if (isUtf8(charset))
        return;
    throw unreadable(response,
                     QStringLiteral("the body's charset is '%1', but JSON is read as UTF-8 only "
                                    "(RFC 8259); answer in UTF-8, or convert the body in a "
                                    "parseResponse() override")
                         .arg(QString::fromLatin1(charset)));
}

bool isJsonBody(const Response &response, bool hasSchema)
{
    return response.status != 204 && !response.body.isEmpty()
        && (hasSchema || response.contentType().contains("json"));
}

QJsonValue readResponseBody(const Response &response, bool hasSchema, const QString &schemaKey)
{
    if (response.status == 204 || response.body.isEmpty())
        return QJsonValue(QJsonValue::Null);
    if (!isJsonBody(response, hasSchema))
        return readText(response);
    requireUtf8Json(response);
    const QByteArray type = response.contentType();
    const bool jsonType = type.contains("json");
    const Parsed parsed = parseJson(response.body);
    if (parsed.error.isEmpty())
        return parsed.value;
    const QString request
        = QString::fromLatin1(response.method) + u' ' + response.url.toString(QUrl::FullyEncoded);
    QString message;
    if (jsonType) {
        message
            = QStringLiteral("%1: the response is not valid JSON: %2").arg(request, parsed.error);
    } else {
        message = QStringLiteral("%1: unexpected text response (Content-Type '%2') for an endpoint "
                                 "with schema '%3'; expected JSON, which it is not: %4. The "
                                 "body starts with: %5")
                      .arg(request, QString::fromLatin1(type), schemaKey, parsed.error,
                           excerpt(response.body));
    }
    throw NetworkError(NetworkError::Kind::InvalidResponse, 400, message)
        .withStatus(400, response.statusText)
        .withRequest(response.method, response.url)
        .withBody(response.body);
}

} // namespace detail

} // namespace DataClient
