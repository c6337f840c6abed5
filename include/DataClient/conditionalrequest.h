// ConditionalRequest: the HTTP validators (ETag, Last-Modified) a read sends back, and what its
// answer says about them (RFC 9110 8.8 and 13.1; docs/networking.md).
#pragma once

#include <DataClient/global.h>

#include <QtCore/QByteArray>

#include <memory>

namespace DataClient {

struct RequestInit;
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
    what its answer said. The Controller gives each read of a key a ConditionalRequest and
    starts it inside a Scope; RestEndpoint::fetch() and fetchCompact() started on this thread
    while the Scope is alive use it (hooks in docs/hooks.md):

    - after getRequestInit(), a GET of an endpoint whose `validators` option is true gets
      `If-None-Match` / `If-Modified-Since` from validators(), unless the init already carries
      either header: the endpoint's own conditional request wins and nothing is doubled;
    - when the answer arrives, before parseResponse(): a 2xx or 304 answer's validators are
      recorded (received()), and a 304 sets notModified(). A 304 then fails the future like any answer
      outside 2xx (NetworkError kind Http, status 304): parseResponse() and process() never
      see it, and the body is not read.

    A copy refers to the same request. GUI thread only.
*/
class DATACLIENT_REST_EXPORT ConditionalRequest
{
public:
    //! A null request: sends nothing, records nothing (what current() is outside every Scope).
    ConditionalRequest() = default;
    //! A request that will send \a validators (none when empty) and records its answer.
    explicit ConditionalRequest(const Validators &validators);

    //! What the request is to send.
    Validators validators() const;
    //! Whether the request carried validators() (false when they were empty, the endpoint
    //! opted out, or its getRequestInit() set a conditional header of its own).
    bool sent() const;
    //! The validators of the 2xx or 304 answer; empty before it arrives or when it had none.
    Validators received() const;
    //! The answer was 304 Not Modified.
    bool notModified() const;

    //! Makes \a request the current one of this thread for the scope's lifetime (scopes nest).
    class DATACLIENT_REST_EXPORT Scope
    {
    public:
        explicit Scope(const ConditionalRequest &request);
        ~Scope();
        Q_DISABLE_COPY_MOVE(Scope)

    private:
        std::shared_ptr<void> m_previous;
    };

    //! The request of the innermost Scope on this thread; a null one when there is none.
    static ConditionalRequest current();
    bool isNull() const { return !d; }

    // For the endpoint ---------------------------------------------------------------------

    //! Adds the validators to \a init (a GET without a conditional header of its own) and
    //! records that they were sent.
    void addTo(RequestInit &init) const;
    //! Records what \a answer says about the validators.
    void record(const Response &answer) const;

    struct Data;

private:
    explicit ConditionalRequest(std::shared_ptr<Data> data);
    std::shared_ptr<Data> d;
};

} // namespace DataClient
