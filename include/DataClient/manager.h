// Manager: an application's part in every request a Controller makes (docs/managers.md).
#pragma once

#include <DataClient/changeset.h>
#include <DataClient/endpointoptions.h>
#include <DataClient/global.h>
#include <DataClient/networkerror.h>
#include <DataClient/params.h>
#include <DataClient/requestinit.h>

#include <QtCore/QJsonValue>
#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtCore/QSharedDataPointer>
#include <QtCore/QUrl>

#include <memory>

namespace DataClient {

class Controller;
class ManagedRequestData;
namespace detail {
class AppManagers;
}

/*!
    What a Manager is told of one request: a snapshot taken at the step it is given to (a value;
    keep it as long as you like). id() names the request in Manager::release(), answer() and
    fail(); status() and bytesReceived() are known from Manager::answered() on.
*/
class DATACLIENT_CONTROLLER_EXPORT ManagedRequest
{
public:
    ManagedRequest();
    ManagedRequest(const ManagedRequest &other);
    ManagedRequest(ManagedRequest &&other) noexcept;
    ManagedRequest &operator=(const ManagedRequest &other);
    ManagedRequest &operator=(ManagedRequest &&other) noexcept;
    ~ManagedRequest();
    void swap(ManagedRequest &other) noexcept { d.swap(other.d); }

    bool isNull() const;
    //! Unique for the Controller's lifetime; never 0.
    quint64 id() const;
    EndpointPtr endpoint() const;
    //! The endpoint's name (e.g. "TodoResource.getList"), or its path when it has none.
    QString endpointName() const;
    QByteArray method() const;
    QUrl url() const;
    Params params() const;
    QJsonValue body() const;
    //! The cache key the answer is stored under, and the key reads in flight are shared by.
    QString key() const;
    QString requestKey() const;
    //! A read (no side effect): the same URL in flight is asked once.
    bool isRead() const;
    //! 1 for the first attempt; retries count on. attemptFailed() is given the attempt that failed.
    int attempt() const;
    //! The HTTP status of the answer (0 before one, or when the exchange failed without one).
    int status() const;
    //! The bytes of the answer's body (decoded), as far as they were read; 0 before an answer.
    qint64 bytesReceived() const;

private:
    friend class detail::AppManagers;
    explicit ManagedRequest(ManagedRequestData *data);
    QSharedDataPointer<ManagedRequestData> d;
};

/*!
    A part the application adds to a Controller's request lifecycle: request logging, metrics,
    error reports, credentials, fixtures. Create it, then hand it to Controller::addManager().
    The Controller does not own it (give it a parent, e.g. the Controller, to have it deleted with
    it); a Manager destroyed while registered is removed first (the requests it held are sent).

    The Controller calls the steps below on its thread, for every request, in this order:

    | step            | when                                         | what a manager may do        |
    |-----------------|----------------------------------------------|------------------------------|
    | requestStarted  | fetch() made a request (not a joined read)   | look                         |
    | beforeSend      | an attempt is about to be sent (each one)    | Hold it; release/answer later|
    | decorate        | the attempt is being sent                    | add or replace headers       |
    | attemptFailed   | an attempt failed (retrying or not)          | look                         |
    | answered        | an answer arrived (status, bytes known)      | look                         |
    | committed       | the answer is in the store                   | look (the changes made)      |
    | failed          | the request failed for good                  | look                         |
    | invalidated     | results were invalidated or expired          | look                         |
    | storeReset      | resetEntireStore() emptied the store         | look                         |

    An answer is the server's, or one given with answer() or fail(), or the hold's deadline. A 304
    that the HTTP validators take over is answered and then nothing more (the stored data is kept:
    neither committed nor failed).

    Steps marked "look" cannot change the request: they are told what happened. A step that
    throws is logged (category dataclient.controller) and treated as if it did nothing. Store
    writes without an endpoint go through the Controller (Controller::set(), remove()).
*/
class DATACLIENT_CONTROLLER_EXPORT Manager : public QObject
{
    Q_OBJECT
    Q_PROPERTY(DataClient::Controller *controller READ controller NOTIFY controllerChanged)

public:
    enum class Decision { Send, Hold };
    Q_ENUM(Decision)

    explicit Manager(QObject *parent = nullptr);
    ~Manager() override;

    //! The Controller this manager is registered with, or nullptr.
    Controller *controller() const;

    /*!
        Sends request \a requestId that this manager held (beforeSend() returned Hold). Returns
        false (and warns) when this manager holds no such request.
    */
    bool release(quint64 requestId);
    /*!
        Answers held request \a requestId with \a value instead of the network: it is processed,
        stored and resolved exactly like a server's answer (dated now), at the next event-loop
        turn. Returns false (and warns) when this manager holds no such request.
    */
    bool answer(quint64 requestId, const QJsonValue &value);
    //! Fails held request \a requestId with \a error, as if the server had; false as above.
    bool fail(quint64 requestId, const NetworkError &error);
    //! The requests this manager holds now, oldest first.
    QList<quint64> heldRequests() const;

Q_SIGNALS:
    void controllerChanged();

protected:
    virtual void requestStarted(const ManagedRequest &request);
    /*!
        Hold keeps the attempt until release(), answer() or fail() — or until the endpoint's
        timeout passes (then it fails with NetworkError::Kind::Timeout, naming this manager).
    */
    virtual Decision beforeSend(const ManagedRequest &request);
    //! Adds or replaces headers of the attempt (after the endpoint's own getRequestInit()).
    virtual void decorate(const ManagedRequest &request, Headers *headers);
    virtual void attemptFailed(const ManagedRequest &request, const NetworkError &error,
                               bool retrying);
    virtual void answered(const ManagedRequest &request);
    virtual void committed(const ManagedRequest &request, const DataClient::ChangeSet &changes);
    virtual void failed(const ManagedRequest &request, const NetworkError &error);
    virtual void invalidated(const QStringList &keys);
    virtual void storeReset();

private:
    friend class detail::AppManagers;
    QPointer<Controller> m_controller;
};

} // namespace DataClient

Q_DECLARE_SHARED(DataClient::ManagedRequest)
