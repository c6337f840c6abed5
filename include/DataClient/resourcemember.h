// ResourceMember: one member of a resource (an endpoint you can also call directly).
#pragma once

#include <DataClient/entityschema.h>
#include <DataClient/global.h>
#include <DataClient/params.h>
#include <DataClient/restendpoint.h>

#include <QtCore/QFuture>
#include <QtCore/QJsonValue>
#include <QtCore/QVariant>

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
QT_END_NAMESPACE

namespace DataClient {

/*!
    A resource member: holds its endpoint (converts to EndpointPtr, so it can be passed wherever
    an endpoint is, e.g. to a caller that stores answers) and can be called directly, without a
    shared store:

    \code
    QFuture<QVariant> todo = TodoResource.get({{u"id"_s, 5}});
    QFuture<Todo> typed = TodoResource.get.fetchAs<Todo>({{u"id"_s, 5}});
    controller->fetch(TodoResource.partialUpdate, {{u"id"_s, 5}}, QJsonObject{{u"done"_s, true}});
    \endcode

    A direct call fetches, normalizes the answer into a temporary store and reads it back, so
    field deserializers apply (a delete returns the processed value as a QVariant). It fails with
    NetworkError; cancelling the future aborts the request.
*/
class DATACLIENT_REST_EXPORT ResourceMember
{
public:
    ResourceMember() = default;
    ResourceMember(EndpointPtr endpoint); // NOLINT(google-explicit-constructor): a handle

    EndpointPtr endpoint() const { return m_endpoint; }
    operator EndpointPtr() const { return m_endpoint; } // NOLINT(google-explicit-constructor)
    RestEndpoint *operator->() const { return m_endpoint.get(); }
    RestEndpoint &operator*() const { return *m_endpoint; }
    //! False for a member that does not exist (getPage without a paginationField).
    bool isNull() const { return !m_endpoint; }
    explicit operator bool() const { return bool(m_endpoint); }

    //! Fetches with the default QNetworkAccessManager; resolves with the denormalized value.
    QFuture<QVariant> operator()(const Params &params = {},
                                 const QJsonValue &body = QJsonValue()) const;
    QFuture<QVariant> fetch(QNetworkAccessManager *network, const Params &params = {},
                            const QJsonValue &body = QJsonValue()) const;

    //! The result as gadget \c T (see DataClient::fromVariant).
    template<typename T>
    QFuture<T> fetchAs(const Params &params = {}, const QJsonValue &body = QJsonValue()) const
    {
        return (*this)(params, body).then([](const QVariant &value) {
            return fromVariant<T>(value);
        });
    }
    //! A list result as QList<T>.
    template<typename T>
    QFuture<QList<T>> fetchListAs(const Params &params = {},
                                  const QJsonValue &body = QJsonValue()) const
    {
        return (*this)(params, body).then([](const QVariant &value) {
            return fromVariantList<T>(value);
        });
    }

private:
    EndpointPtr m_endpoint;
};

//! getList: a member that also holds getList.push, getList.unshift and getList.getPage.
class DATACLIENT_REST_EXPORT ResourceListMember : public ResourceMember
{
public:
    ResourceListMember() = default;
    using ResourceMember::ResourceMember;

    ResourceMember push; //!< POST to the list path; the created entity is appended to lists
    ResourceMember unshift; //!< POST to the list path; the created entity is prepended
    ResourceMember getPage; //!< GET a further page; null when the resource has no paginationField
    //! PATCH to the item path; the answer leaves the lists the call's arguments name and that it
    //! no longer fits, and joins those it fits (docs/collections.md)
    ResourceMember move;
    //! PATCH to the list path; the answer's entities leave the lists of the call's arguments,
    //! without being deleted ("remove from this playlist")
    ResourceMember remove;
    //! PUT to the list path; the answer replaces the list of the call's arguments
    ResourceMember assign;
};

} // namespace DataClient
