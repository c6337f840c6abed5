// QML registrations of C++ types the QML types expose but that are not QML elements themselves,
// so qmltypes (Qt Creator, qmlls, qmllint) know their properties.
#pragma once

#include <DataClient/collectionmodel.h>
#include <DataClient/eventsource.h>
#include <DataClient/livefeed.h>
#include <DataClient/websocketsource.h>
#include <DataClient/outbox.h>
#include <DataClient/restendpoint.h>
#include <DataClient/tokensource.h>

#include <QtQml/qqml.h>
#include <QtQml/qqmlregistration.h>

namespace DataClient::Qml {

struct CollectionModelForeign
{
    Q_GADGET
    QML_FOREIGN(DataClient::CollectionModel)
    QML_NAMED_ELEMENT(CollectionModel)
    QML_UNCREATABLE("A CollectionModel is made in C++; in QML use Suspense or Live")
};

struct OutboxForeign
{
    Q_GADGET
    QML_FOREIGN(DataClient::Outbox)
    QML_NAMED_ELEMENT(Outbox)
    QML_UNCREATABLE("The outbox is a Controller's: Controller.outbox")
};

struct RestEndpointForeign
{
    Q_GADGET
    QML_FOREIGN(DataClient::RestEndpoint)
    QML_NAMED_ELEMENT(RestEndpoint)
    QML_UNCREATABLE("Endpoints come from a Resource, e.g. todos.getList")
};

struct LiveSourceForeign
{
    Q_GADGET
    QML_FOREIGN(DataClient::LiveSource)
    QML_NAMED_ELEMENT(LiveSource)
    QML_UNCREATABLE("Use WebSocketSource or EventSource")
};

struct WebSocketSourceForeign
{
    Q_GADGET
    QML_FOREIGN(DataClient::WebSocketSource)
    QML_ANONYMOUS
};

struct EventSourceForeign
{
    Q_GADGET
    QML_FOREIGN(DataClient::EventSource)
    QML_ANONYMOUS
};

struct LiveFeedForeign
{
    Q_GADGET
    QML_FOREIGN(DataClient::LiveFeed)
    QML_NAMED_ELEMENT(LiveFeed)
    QML_UNCREATABLE("A source's feed: socket.feed")
};

// The base of TokenSource (the QML type is QmlTokenSource), the type of Controller.tokenSource.
struct TokenSourceForeign
{
    Q_GADGET
    QML_FOREIGN(DataClient::TokenSource)
    QML_ANONYMOUS
};

} // namespace DataClient::Qml
