// Fuzz target: an HTTP answer (headers, then a blank line, then the body) read as the cursor
// pagination example reads it (docs/reliability.md): the default parseResponse() (Content-Type,
// charset, UTF-8, JSON or text) under LinkHeaderEndpoint, then the `Link` header's rel="next"
// cursor. The library has no Link parser of its own: apps write it, as in
// examples/github-pagination/linkheaderendpoint.h, which is fuzzed here as that template.
#include "fuzzsupport.h"

#include <linkheaderendpoint.h>

#include <DataClient/response.h>
#include <DataClient/schema.h>

#include <QtCore/QByteArray>
#include <QtCore/QJsonObject>

#include <exception>
#include <memory>

using namespace DataClient;
using namespace Qt::StringLiterals;

namespace {

// "Name: value" lines up to the first empty line; the rest is the body. A ":status" line sets
// the status (default 200), so 204 and odd codes are reached too.
Response answer(const QByteArray &input)
{
    Response response {.method = "GET", .url = QUrl(u"http://127.0.0.1:1/users"_s), .status = 200};
    qsizetype at = 0;
    while (at < input.size()) {
        qsizetype end = input.indexOf('\n', at);
        if (end < 0)
            end = input.size();
        const QByteArray line = input.mid(at, end - at);
        at = end + 1;
        if (line.isEmpty() || line == "\r")
            break;
        const qsizetype colon = line.indexOf(':', 1);
        if (line.startsWith(":status:")) {
            response.status = line.mid(8).trimmed().toInt();
        } else if (colon > 0) {
            response.headers.append({line.left(colon), line.mid(colon + 1).trimmed()});
        }
    }
    response.body = at < input.size() ? input.mid(at) : QByteArray();
    return response;
}

void read(const RestEndpoint &endpoint, const Response &response)
{
    QJsonValue value;
    try {
        value = endpoint.parseResponse(response);
    } catch (const std::exception &) {
        return; // a refused answer (NetworkError): what an unreadable body must give
    }
    const QString link = value.toObject().value(u"link"_s).toString();
    (void)nextCursor(link, u"since"_s);
    (void)nextCursor(link, u"cursor"_s);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    FuzzSupport::silenceQtMessages();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    // Built once: endpoints are immutable, and building one per input would dominate the run.
    static const auto plain = std::make_shared<LinkHeaderEndpoint>(
        EndpointOptions {.path = u"/users"_s, .urlPrefix = u"http://127.0.0.1:1"_s});
    static const auto withSchema = std::make_shared<LinkHeaderEndpoint>(EndpointOptions {
        .path = u"/users"_s,
        .urlPrefix = u"http://127.0.0.1:1"_s,
        .schema = Schema::collection(Schema::array(Schema::entity(EntitySchema(u"User"_s))))});

    const Response response
        = answer(QByteArray(reinterpret_cast<const char *>(data), qsizetype(size)));
    (void)response.contentType();
    (void)response.charset();
    read(*plain, response);
    read(*withSchema, response);
    // The header alone, as an app reading it outside parseResponse() would.
    (void)nextCursor(QString::fromUtf8(response.header("link")), u"since"_s);
    return 0;
}
