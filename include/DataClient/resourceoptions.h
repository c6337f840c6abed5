// ResourceOptions: the options of createResource() (docs/rest.md).
#pragma once

#include <DataClient/collection.h>
#include <DataClient/endpointoptions.h>
#include <DataClient/global.h>
#include <DataClient/requestinit.h>
#include <DataClient/schema.h>

#include <QtCore/QJsonValue>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include <memory>

namespace DataClient {

/*!
    The options of createResource(). Designated initializers follow the SPEC's order:

    \code
    auto todos = DataClient::createResource({
        .path = u"/todos/:id"_s, .schema = todoSchema, .urlPrefix = u"http://127.0.0.1:8080"_s,
        .searchParams = {u"userId"_s}, .paginationField = u"page"_s, .optimistic = true,
    });
    \endcode
*/
struct DATACLIENT_REST_EXPORT ResourceOptions
{
    //! Required. Path template of one record, with at least one parameter ("/todos/:id").
    QString path {};
    //! Required. The entity schema (Schema::entity(...)).
    Schema schema {};
    QString urlPrefix {};
    //! Query keys of getList (documentation and QML introspection).
    QStringList searchParams {};
    //! Shape of the body of push, update and partialUpdate (documentation only).
    QJsonValue body {};
    //! When set, getList.getPage exists and requires this parameter.
    QString paginationField {};
    //! Every mutation member (push, unshift, update, partialUpdate, delete) is optimistic.
    bool optimistic = false;
    //! The SPEC option `Endpoint`: builds every member (endpointFactory<MyEndpoint>()).
    //! Empty: RestEndpoint.
    EndpointFactory endpoint {};
    //! The SPEC option `Collection`: customizes the getList collection (nullptr: default).
    std::shared_ptr<const Collection> collection {};
    // EndpointExtraOptions, passed to every member: pollFrequency, dataExpiryLength,
    // errorExpiryLength, credentials, timeout, headers, maxResponseBytes, validators (see
    // DATACLIENT_SHARED_ENDPOINT_OPTIONS).
    DATACLIENT_SHARED_ENDPOINT_OPTIONS(DATACLIENT_OPTION_FIELD)
};

} // namespace DataClient
