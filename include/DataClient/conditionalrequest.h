// ConditionalRequest: the HTTP validators (ETag, Last-Modified) a read sends back, and what its
// answer says about them (RFC 9110 8.8 and 13.1; docs/networking.md).
#pragma once

#include <DataClient/global.h>

#include <QtCore/QByteArray>
#include <QtCore/QSharedDataPointer>

namespace DataClient {

class ConditionalRequestPrivate;

struct Response;

//! What identifies one version of an answer: its ETag and Last-Modified headers, as received.
struct DATACLIENT_REST_EXPORT Validators
{
    //! Longer values are not kept: a validator is sent back with every refetch.
    static constexpr qsizetype MaxLength = 1024;

    QByteArray etag {};
    QByteArray lastModified {};

    bool isEmpty() const { return etag.isEmpty() && lastModified.isEmpty(); }
    /*!
        The validators of \a response: its ETag and Last-Modified, for a 2xx answer only (an
        error is not a version of the data). A value longer than MaxLength, or with a control
        character, is left out.
    */
    static Validators of(const Response &response);

    friend bool operator==(const Validators &a, const Validators &b)
    {
        return a.etag == b.etag && a.lastModified == b.lastModified;
    }
    friend bool operator!=(const Validators &a, const Validators &b) { return !(a == b); }
};

/*!
    One read that may be conditional: the validators it is to send, whether it sent them, and
    what its answer said. A caller that stores answers gives a read the validators of the
    answer it holds, in the RequestContext passed to RestEndpoint::fetch() or fetchCompact()
    (RequestContext::setConditionalRequest()); an endpoint whose `validators` option is true
    then uses it (hooks in docs/hooks.md):

    - after getRequestInit() and the context's headers, a GET gets `If-None-Match` /
      `If-Modified-Since` from validators(), unless the init already carries either header:
      the endpoint's (or the caller's) own conditional request wins and nothing is doubled;
    - when the answer arrives, before parseResponse(): a 2xx or 304 answer's validators are
      recorded (received()), and a 304 sets notModified(). A 304 then fails the future like
      any answer outside 2xx (NetworkError kind Http, status 304): parseResponse() and
      process() never see it, and the body is not read.

    The validators travel in the RequestInit handed to fetchResponse(), so an override that
    sends later still sends them. A copy refers to the same request. GUI thread only.
*/
class DATACLIENT_REST_EXPORT ConditionalRequest
{
public:
    //! A null request: sends nothing, records nothing (what a context without one uses).
    ConditionalRequest();
    //! A request that will send \a validators (none when empty) and records its answer.
    explicit ConditionalRequest(const Validators &validators);
    ConditionalRequest(const ConditionalRequest &other);
    ConditionalRequest(ConditionalRequest &&other) noexcept;
    ConditionalRequest &operator=(const ConditionalRequest &other);
    ConditionalRequest &operator=(ConditionalRequest &&other) noexcept;
    ~ConditionalRequest();

    //! What the request is to send.
    Validators validators() const;
    //! Whether the request carried validators() (false when they were empty, the endpoint
    //! opted out, or its getRequestInit() set a conditional header of its own).
    bool sent() const;
    //! The validators of the 2xx or 304 answer; empty before it arrives or when it had none.
    Validators received() const;
    //! The answer was 304 Not Modified.
    bool notModified() const;

    bool isNull() const { return !d; }

    void swap(ConditionalRequest &other) noexcept { d.swap(other.d); }

private:
    friend class ConditionalRequestPrivate; // the endpoint sends and records (src/rest)
    QExplicitlySharedDataPointer<ConditionalRequestPrivate> d; // copies are the request
};

} // namespace DataClient

Q_DECLARE_SHARED(DataClient::ConditionalRequest)
