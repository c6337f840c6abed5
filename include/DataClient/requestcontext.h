// RequestContext: what a request carries besides its URL and body (abort group, validators, extra
// headers, deadline), and what its exchange reports back (status, body bytes). docs/hooks.md.
#pragma once

#include <DataClient/abortgroup.h>
#include <DataClient/conditionalrequest.h>
#include <DataClient/global.h>
#include <DataClient/headers.h>

#include <QtCore/QDeadlineTimer>
#include <QtCore/QSharedDataPointer>

namespace DataClient {

class RequestContextPrivate;

/*!
    The context of one request, passed to RestEndpoint::fetch() or fetchCompact() and carried to
    fetchResponse() inside RequestInit::context, however late that sends. It holds:

    - the AbortGroup the request's exchanges join: aborting the group aborts them at once, and
      an exchange that starts after the abort (an endpoint that sends later) is never sent;
    - the ConditionalRequest: the validators a read sends, and what its answer says about them
      (used only by an endpoint whose `validators` option is true);
    - extra headers, set on the request after getRequestInit(): each replaces the init's
      headers of the same name (any case). This is how a caller decorates a request
      (Authorization, Idempotency-Key, a trace id) without extend();
    - a deadline, absolute (QDeadlineTimer): the exchange ends with NetworkError kind Timeout
      at the earlier of the deadline and the endpoint's timeout. Time spent before the exchange
      starts counts; an exchange that would start after the deadline is not sent.

    And what the exchange writes back, to read once the future has finished: status() and
    bodyBytes() of the answer the exchange ended with. They are written by the default
    fetchResponse(); an override that answers without calling it writes nothing.

    Explicitly shared: a copy refers to the same context, not to a copy of it, because the
    exchange writes its results into the context the caller holds. A default-constructed
    context is null: fetch() with it sends no extra header and no validator, joins no group,
    has no deadline and records nothing (what fetch() without a context does). Setting
    anything on a null context first makes it a context of its own (as create() does); copies
    taken before that stay null, so set a context up before copying it.

    One context may serve several requests: they all join its group, send its headers and
    validators and share its deadline, and its results are those of the exchange that ended
    last (each exchange resets them to 0 when it starts). Use one context per request to read
    results per request. GUI thread only (the thread of the endpoints it is passed to).
*/
class DATACLIENT_REST_EXPORT RequestContext
{
public:
    //! A null context: no group, no validators, no headers, no deadline, no results.
    RequestContext() noexcept;
    RequestContext(const RequestContext &other) noexcept;
    RequestContext(RequestContext &&other) noexcept;
    RequestContext &operator=(const RequestContext &other) noexcept;
    RequestContext &operator=(RequestContext &&other) noexcept;
    ~RequestContext();

    //! A new context: an abort group of its own, no validators, no headers, no deadline.
    static RequestContext create();
    bool isNull() const noexcept { return !d; }

    //! The group the request's exchanges join (a new, unrelated one for a null context).
    AbortGroup abortGroup() const;
    void setAbortGroup(const AbortGroup &group);

    //! The validators to send and what the answer said (a null request when none was set).
    ConditionalRequest conditionalRequest() const;
    void setConditionalRequest(const ConditionalRequest &request);

    //! The headers set on the request after getRequestInit(), in order.
    Headers headers() const;
    void setHeaders(const Headers &headers);
    //! Replaces every header called \a name (any case) by one with \a value.
    void setHeader(const QByteArray &name, const QByteArray &value);

    //! When the request must have ended; QDeadlineTimer::Forever (the default): no deadline
    //! beyond the endpoint's timeout.
    QDeadlineTimer deadline() const;
    void setDeadline(QDeadlineTimer deadline);

    // Results, written by the exchange ---------------------------------------------------------

    /*!
        The HTTP status of the answer the exchange ended with, redirects followed; 0 until an
        answer head arrived, and 0 for a request that got none (network failure, a timeout or
        an abort before the head).
    */
    int status() const;
    /*!
        The bytes of that answer's body read, decoded (a gzip body counts its inflated size),
        as the endpoint's maxResponseBytes counts them: for an answer that failed mid-body,
        what had arrived; for one over the limit, at most limit + 1.
    */
    qint64 bodyBytes() const;

    //! Whether both refer to the same context (two null contexts are equal).
    friend bool operator==(const RequestContext &a, const RequestContext &b) noexcept
    {
        return a.d == b.d;
    }
    friend bool operator!=(const RequestContext &a, const RequestContext &b) noexcept
    {
        return !(a == b);
    }

    void swap(RequestContext &other) noexcept { d.swap(other.d); }

private:
    friend class RequestContextPrivate;
    RequestContextPrivate *data();
    QExplicitlySharedDataPointer<RequestContextPrivate> d;
};

} // namespace DataClient

Q_DECLARE_SHARED(DataClient::RequestContext)
