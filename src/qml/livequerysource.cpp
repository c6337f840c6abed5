// `Live { source: socket }`: the key is kept current by a push source's feed instead of polling.
#include "qmllivesources.h"
#include "suspenseandlive.h"

#include <QtQml/qqmlinfo.h>

namespace DataClient::Qml {

namespace {

LiveFeed *feedOf(QObject *source)
{
    if (auto *binding = dynamic_cast<LiveBinding *>(source))
        return binding->feed();
    return nullptr;
}

} // namespace

LiveQuery::LiveQuery(QObject *parent) : QueryBase(true, parent)
{
    connect(this, &QueryBase::endpointChanged, this, &LiveQuery::rewatch);
    connect(this, &QueryBase::paramsChanged, this, &LiveQuery::rewatch);
    connect(this, &CollectionModel::enabledChanged, this, &LiveQuery::rewatch);
}

LiveQuery::~LiveQuery()
{
    if (m_feed && m_watchedEndpoint)
        m_feed->unwatch(m_watchedEndpoint, m_watchedParams);
}

void LiveQuery::setSource(QObject *source)
{
    if (source == m_source)
        return;
    if (source && !dynamic_cast<LiveBinding *>(source)) {
        qmlWarning(this) << "Live.source: expected a WebSocketSource or an EventSource; got a "
                         << source->metaObject()->className();
        source = nullptr;
    }
    disconnect(m_feedChanged);
    m_source = source;
    if (source) {
        // The source makes its feed when it is complete, which may be after this query.
        m_feedChanged = connect(source, SIGNAL(feedChanged()), this, SLOT(rewatch()));
    }
    setLive(!source); // a pushed key is not polled
    rewatch();
    Q_EMIT sourceChanged();
}

void LiveQuery::componentComplete()
{
    QueryBase::componentComplete();
    rewatch();
}

void LiveQuery::rewatch()
{
    LiveFeed *feed = m_source ? feedOf(m_source) : nullptr;
    const EndpointPtr endpoint
        = feed && isEnabled() && !paramsValue().isNull() ? this->endpoint() : EndpointPtr();
    const Params params = endpoint ? this->params() : Params();
    if (feed == m_feed && endpoint == m_watchedEndpoint && params == m_watchedParams)
        return;
    if (m_feed && m_watchedEndpoint)
        m_feed->unwatch(m_watchedEndpoint, m_watchedParams);
    m_feed = feed;
    m_watchedEndpoint = endpoint;
    m_watchedParams = params;
    if (m_feed && m_watchedEndpoint)
        m_feed->watch(m_watchedEndpoint, m_watchedParams);
}

} // namespace DataClient::Qml
