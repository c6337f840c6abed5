// ResourceMember: calling a member directly, without a Controller (the endpoint's
// own fetch, nothing stored).
#include "replyfuture_p.h"

#include <DataClient/networkerror.h>
#include <DataClient/resourcemember.h>
#include <DataClient/store.h>

#include <QtCore/QDateTime>

namespace DataClient {

namespace {

// Normalizes into a throw-away store and reads back, so field deserializers and nested schemas
// apply exactly as they would through a Controller.
QVariant denormalizeDirect(const RestEndpoint &endpoint, const Params &params,
                           const QJsonValue &value)
{
    if (endpoint.schema().isNull() || endpoint.schema().kind() == Schema::Kind::Invalidate)
        return value.toVariant();
    // push/unshift resolve with what they created, a page with its own items.
    const Schema schema = endpoint.schema().answerSchema(value.isArray());
    Store store;
    const QString resultKey = endpoint.key(params);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const StoreWrite write = store.setResponse(resultKey, schema, params, value,
                                               Meta {now, now, now + endpoint.dataExpiryLength()});
    if (write.error) {
        throw NetworkError(NetworkError::Kind::InvalidResponse, 400,
                           QStringLiteral("%1 %2: the response does not fit schema '%3': %4")
                               .arg(endpoint.methodName(), resultKey.section(u' ', 1), schema.key(),
                                    write.error->message()));
    }
    const Denormalized read = store.denormalize(resultKey, schema, params);
    // Not readable back (e.g. an entity the schema could not place): the value as received.
    return read.found ? read.data : value.toVariant();
}

} // namespace

ResourceMember::ResourceMember(EndpointPtr endpoint) : m_endpoint(std::move(endpoint)) { }

QFuture<QVariant> ResourceMember::operator()(const Params &params, const QJsonValue &body) const
{
    return fetch(nullptr, params, body);
}

QFuture<QVariant> ResourceMember::fetch(QNetworkAccessManager *network, const Params &params,
                                        const QJsonValue &body) const
{
    if (!m_endpoint) {
        return QtFuture::makeExceptionalFuture<QVariant>(NetworkError(
            NetworkError::Kind::InvalidRequest, 0,
            QStringLiteral("this resource member does not exist (getList.getPage exists only "
                           "when the resource has a paginationField); nothing was sent")));
    }
    const EndpointPtr endpoint = m_endpoint;
    QFuture<QJsonValue> raw = endpoint->fetch(network, params, body);
    QFuture<QVariant> result
        = raw.then(endpoint.get(), [endpoint, params](const QJsonValue &value) {
              return denormalizeDirect(*endpoint, params, value);
          });
    detail::forwardCancel(QFuture<void>(result), QFuture<void>(raw));
    return result;
}

} // namespace DataClient
