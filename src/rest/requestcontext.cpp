// RequestContext: an explicitly shared value; the exchange writes its results into the caller's.
#include "requestcontext_p.h"

#include "conditionalrequest_p.h"

#include <DataClient/requestinit.h>

namespace DataClient {

RequestContext::RequestContext() noexcept = default;
RequestContext::RequestContext(const RequestContext &other) noexcept = default;
RequestContext::RequestContext(RequestContext &&other) noexcept = default;
RequestContext &RequestContext::operator=(const RequestContext &other) noexcept = default;
RequestContext &RequestContext::operator=(RequestContext &&other) noexcept = default;
RequestContext::~RequestContext() = default;

RequestContext RequestContext::create()
{
    RequestContext context;
    context.data();
    return context;
}

RequestContextPrivate *RequestContext::data()
{
    // Never detaches: explicitly shared, a change is seen by every copy.
    if (!d)
        d = new RequestContextPrivate;
    return d.data();
}

AbortGroup RequestContext::abortGroup() const
{
    return d ? d->abortGroup : AbortGroup();
}

void RequestContext::setAbortGroup(const AbortGroup &group)
{
    data()->abortGroup = group;
}

ConditionalRequest RequestContext::conditionalRequest() const
{
    return d ? d->conditional : ConditionalRequest();
}

void RequestContext::setConditionalRequest(const ConditionalRequest &request)
{
    data()->conditional = request;
}

Headers RequestContext::headers() const
{
    return d ? d->headers : Headers();
}

void RequestContext::setHeaders(const Headers &headers)
{
    data()->headers = headers;
}

void RequestContext::setHeader(const QByteArray &name, const QByteArray &value)
{
    Headers &headers = data()->headers;
    headers.removeIf([&name](const auto &header) {
        return header.first.compare(name, Qt::CaseInsensitive) == 0;
    });
    headers.append({name, value});
}

QDeadlineTimer RequestContext::deadline() const
{
    return d ? d->deadline : QDeadlineTimer(QDeadlineTimer::Forever);
}

void RequestContext::setDeadline(QDeadlineTimer deadline)
{
    data()->deadline = deadline;
}

int RequestContext::status() const
{
    return d ? d->status : 0;
}

qint64 RequestContext::bodyBytes() const
{
    return d ? d->bodyBytes : 0;
}

void RequestContextPrivate::applyTo(const RequestContext &context, RequestInit &init,
                                    bool withValidators)
{
    if (context.isNull())
        return;
    // After getRequestInit(): the caller's header wins over the endpoint's of the same name.
    const Headers &headers = context.d->headers;
    for (const auto &header : headers)
        init.removeHeader(header.first);
    init.headers.append(headers);
    // After the headers, so that a conditional header of the endpoint's or the caller's own
    // wins (docs/hooks.md).
    if (withValidators)
        ConditionalRequestPrivate::addTo(context.d->conditional, init);
    init.context = context;
}

void RequestContextPrivate::begin(const RequestContext &context)
{
    record(context, 0, 0);
}

void RequestContextPrivate::record(const RequestContext &context, int status, qint64 bodyBytes)
{
    if (context.isNull())
        return;
    context.d->status = status;
    context.d->bodyBytes = bodyBytes;
}

} // namespace DataClient
