// RestEndpoint: one REST call and the hooks every request passes through (docs/hooks.md).
#pragma once

#include <DataClient/compactanswer.h>
#include <DataClient/endpointoptions.h>
#include <DataClient/global.h>
#include <DataClient/networkerror.h>
#include <DataClient/params.h>
#include <DataClient/pathtemplate.h>
#include <DataClient/requestcontext.h>
#include <DataClient/requestinit.h>
#include <DataClient/response.h>
#include <DataClient/schema.h>

#include <QtCore/QFuture>
#include <QtCore/QJsonValue>
#include <QtCore/QObject>
#include <QtCore/QUrl>

#include <exception>
#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
QT_END_NAMESPACE

namespace DataClient {

/*!
    One REST call: a method, a path template, a schema and the hooks a request passes through:

    fetch(params, body, context) -> url(params) -> getRequestInit(body)
    -> [the context's headers and validators] -> fetchResponse(url, init with the context)
    -> [status outside 2xx: NetworkError] -> parseResponse(response) -> process(value, params)

    Immutable after construction and shared (EndpointPtr); extend() returns a modified copy of the
    same dynamic type. Lives on the thread that created it (the GUI thread); use it there.

    Customize by subclassing: derive from EndpointBase<YourClass> (which provides clone(), so
    extend() keeps your class) and override the virtual hooks. Hooks report errors by throwing
    NetworkError (or any QException); the future returned by fetch() then fails with it.
*/
class DATACLIENT_REST_EXPORT RestEndpoint : public QObject,
                                            public std::enable_shared_from_this<RestEndpoint>
{
    Q_OBJECT
    Q_PROPERTY(QString name READ name CONSTANT)
    Q_PROPERTY(QString method READ methodName CONSTANT)
    Q_PROPERTY(QString path READ path CONSTANT)
    Q_PROPERTY(QString urlPrefix READ urlPrefix CONSTANT)
    Q_PROPERTY(QStringList searchParams READ searchParams CONSTANT)
    Q_PROPERTY(QJsonValue body READ body CONSTANT)
    Q_PROPERTY(QString paginationField READ paginationField CONSTANT)
    Q_PROPERTY(int pollFrequency READ pollFrequency CONSTANT)
    Q_PROPERTY(int dataExpiryLength READ dataExpiryLength CONSTANT)
    Q_PROPERTY(int errorExpiryLength READ errorExpiryLength CONSTANT)
    Q_PROPERTY(bool optimistic READ optimistic CONSTANT)
    Q_PROPERTY(bool sideEffect READ sideEffect CONSTANT)
    Q_PROPERTY(QString credentials READ credentialsName CONSTANT)
    Q_PROPERTY(int timeout READ timeout CONSTANT)
    Q_PROPERTY(qint64 maxResponseBytes READ maxResponseBytes CONSTANT)
    Q_PROPERTY(bool validators READ validators CONSTANT)
    Q_PROPERTY(QString schemaKey READ schemaKey CONSTANT)
    Q_PROPERTY(bool valid READ isValid CONSTANT)
    Q_PROPERTY(QString errorString READ errorString CONSTANT)

public:
    explicit RestEndpoint(const EndpointOptions &options);
    ~RestEndpoint() override;

    //! A shared RestEndpoint built from \a options.
    static EndpointPtr create(const EndpointOptions &options);

    const EndpointOptions &options() const;
    QString name() const;
    QByteArray method() const;
    QString methodName() const;
    QString path() const;
    PathTemplate pathTemplate() const;
    QString urlPrefix() const;
    QStringList searchParams() const;
    QJsonValue body() const;
    QString paginationField() const;
    Schema schema() const;
    QString schemaKey() const;
    int pollFrequency() const;
    int dataExpiryLength() const;
    int errorExpiryLength() const;
    //! True when the option `optimistic` is set or a getOptimisticResponse function is given.
    bool optimistic() const;
    bool sideEffect() const;
    Credentials credentials() const;
    QString credentialsName() const;
    int timeout() const;
    qint64 maxResponseBytes() const;
    //! Whether reads send back the validators of the stored answer (the option `validators`).
    bool validators() const;
    //! The `retry` option, or the default of the endpoint's kind when unset: reads
    //! RetryPolicy::forReads(), mutations RetryPolicy::none().
    RetryPolicy retryPolicy() const;
    bool refetchOnActivate() const;
    //! Whether a mutation made offline, or failing with a network error, is kept in an outbox
    //! and replayed by a caller that has one (the option `queueWhenOffline`,
    //! docs/offline-outbox.md).
    bool queueWhenOffline() const;
    //! False when the path template is malformed; errorString() says why.
    bool isValid() const;
    QString errorString() const;

    // Hooks ------------------------------------------------------------------------------------

    /*!
        urlPrefix + the path built from \a params + the query string of the remaining parameters
        (searchToString()). A query template's pairs come first, the other parameters are joined
        to them with '&'. Returns an invalid QUrl and sets \a errorMessage when a parameter is
        missing or cannot be written.
    */
    virtual QUrl url(const Params &params, QString *errorMessage = nullptr) const;
    /*!
        The query string (without '?') for the parameters that are not path parameters: keys
        sorted, null values dropped, lists as repeated keys, everything percent-encoded (a space
        is %20, '+' is %2B). Override to change the serialization (e.g. "tags=a,b").
    */
    virtual QString searchToString(const Params &params) const;
    /*!
        Builds the request: method, headers of the `headers` option, credentials, timeout, and
        the body: objects, arrays, numbers and booleans as JSON with
        `Content-Type: application/json` (unless a Content-Type header is given), a string as
        UTF-8 text; undefined or null sends no body. GET, HEAD and DELETE never send a body.
    */
    virtual RequestInit getRequestInit(const QJsonValue &body) const;
    /*!
        Sends the request with \a network and resolves with the whole answer for any HTTP status.
        Fails with NetworkError (status 0) when there is no HTTP answer: network failure
        (kind Network), timeout (Timeout: the endpoint's timeout or the context's deadline).
        Cancelling the returned future, or aborting the context's group, aborts the request
        (the future ends canceled); a request whose group was aborted before it is called is
        not sent. \a init carries the request's context (RequestInit::context): an override
        that sends later, from a timer or after another request, passes the init it got on to
        this implementation, and the request stays in its context.
    */
    virtual QFuture<Response> fetchResponse(QNetworkAccessManager *network, const QUrl &url,
                                            const RequestInit &init) const;
    /*!
        Reads a 2xx answer: 204 or an empty body -> null; a JSON content type -> the parsed JSON
        (invalid JSON: NetworkError 400 with the parser's message and offset); another content
        type -> parsed as JSON when the endpoint has a schema (else NetworkError 400 "unexpected
        text response"), or the text as a string when it has none.
    */
    virtual QJsonValue parseResponse(const Response &response) const;
    //! Transforms the parsed value before normalization; \a params are the call's parameters.
    //! Default: the `process` option, or the value unchanged.
    virtual QJsonValue process(const QJsonValue &value, const Params &params) const;
    /*!
        Every request passes through here: builds the URL (a bad parameter or a missing
        pagination field fails with kind InvalidRequest and sends nothing), then runs the hooks.
        Resolves with the processed value (not normalized). \a network may be null: then
        defaultNetworkAccessManager() is used. Cancelling the returned future aborts the request.

        \a context (RequestContext; null: none) goes with the request: after getRequestInit()
        its headers replace the init's same-named ones and its validators are added (when the
        option `validators` is true), then fetchResponse() gets the init carrying it, joins its
        abort group, keeps its deadline and writes its results (status, body bytes).
    */
    virtual QFuture<QJsonValue> fetch(QNetworkAccessManager *network, const Params &params,
                                      const QJsonValue &body = QJsonValue(),
                                      const RequestContext &context = RequestContext()) const;
    /*!
        What to show before the server answers, or std::nullopt. Default: the
        `getOptimisticResponse` option when set; else nothing. \a store is the committed data
        (may be null).
    */
    virtual std::optional<QJsonValue> optimisticResponse(const Params &params,
                                                         const QJsonValue &body,
                                                         const Store *store = nullptr) const;

    // Answers off the GUI thread -------------------------------------------------------------

    //! fetchCompact() parses a 2xx body of at least this many bytes on a worker thread.
    static constexpr qsizetype OffThreadBodySize = 32 * 1024;
    /*!
        Whether a large answer may be parsed (and, by a caller that stores it, normalized) on a
        worker thread: true when the answer is read by the default parseResponse() and process()
        (a plain RestEndpoint without a `process` option). A subclass returns false by default:
        its hooks may be JS or need the GUI thread. A subclass that overrides neither hook and
        whose schema's C++ functions are thread-safe may return true.
    */
    virtual bool answersOffThread() const;
    /*!
        fetch() for a caller that stores answers: resolves with the processed answer as
        CompactJson (same value, same errors, same \a context). When answersOffThread() is true
        and a 2xx JSON body has at least OffThreadBodySize bytes, the body is parsed straight into
        CompactJson on a worker thread and the future resolves there (observe it with a
        QFutureWatcher or then(receiver, ...)); nothing of the endpoint is used on that thread.
        With \a work ParseAndPrepare that worker also normalizes the answer for the store
        (CompactAnswer::prepared), saving a second trip to a worker and back.
        Otherwise the hooks run on this thread and the value is converted here.
    */
    QFuture<CompactAnswer> fetchCompact(QNetworkAccessManager *network, const Params &params,
                                        const QJsonValue &body = QJsonValue(),
                                        const RequestContext &context = RequestContext(),
                                        CompactAnswer::Work work = CompactAnswer::Parse) const;
    //! The arguments the store files an answer to \a params under: \a params without the
    //! paginationField() (the pages of a list are one collection).
    Params storeArguments(const Params &params) const;

    // Keys -------------------------------------------------------------------------------------

    //! The cache key: "METHOD url". A getPage endpoint (paginationField set) strips that field,
    //! so pages share getList's key. Empty (and \a errorMessage set) when the URL cannot be built.
    QString key(const Params &params, QString *errorMessage = nullptr) const;
    //! "METHOD url" with every parameter, for de-duplicating requests in flight.
    QString requestKey(const Params &params, QString *errorMessage = nullptr) const;

    //! A copy with \a overrides applied, of the same dynamic type (see clone()).
    EndpointPtr extend(const EndpointOverrides &overrides) const;

    //! The manager used when fetch() is given none: one per thread. The main thread's is owned
    //! by the application object and deleted first thing when it is destroyed (before Qt tears
    //! it down); other threads' are deleted at thread exit.
    static QNetworkAccessManager *defaultNetworkAccessManager();

protected:
    //! A new endpoint of this object's dynamic type built from \a options. EndpointBase<T>
    //! implements it; a subclass that does not makes extend() return a plain RestEndpoint.
    virtual EndpointPtr clone(const EndpointOptions &options) const;

private:
    //! fetch() up to the answer: checks, URL, getRequestInit(), \a context, fetchResponse(). A
    //! request that cannot be sent returns a null future and sets \a refused to the error
    //! (nothing was sent).
    QFuture<Response> send(QNetworkAccessManager *network, const Params &params,
                           const QJsonValue &body, const RequestContext &context,
                           std::exception_ptr *refused) const;

    struct Private;
    std::unique_ptr<Private> d;
};

/*!
    Base for RestEndpoint subclasses: implements clone() so extend() returns a \c Derived.

    \code
    class CamelCaseEndpoint : public DataClient::EndpointBase<CamelCaseEndpoint>
    {
    public:
        using EndpointBase::EndpointBase;
        QJsonValue process(const QJsonValue &value, const Params &params) const override;
    };
    \endcode

    \c Base may be another endpoint class, to stack customizations.
*/
template<typename Derived, typename Base = RestEndpoint> class EndpointBase : public Base
{
public:
    using Base::Base;

protected:
    EndpointPtr clone(const EndpointOptions &options) const override
    {
        return std::make_shared<Derived>(options);
    }
};

//! The factory for the resource option `Endpoint`: builds every member as a \c T.
template<typename T> EndpointFactory endpointFactory()
{
    return
        [](const EndpointOptions &options) -> EndpointPtr { return std::make_shared<T>(options); };
}

} // namespace DataClient
