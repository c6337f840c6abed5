// Outbox: the mutations a Controller keeps until the server answered them
// (docs/offline-outbox.md), as a count and a list model a UI can show ("3 changes waiting").
#pragma once

#include <DataClient/endpointoptions.h>
#include <DataClient/global.h>

#include <QtCore/QAbstractListModel>
#include <QtCore/QString>

#include <memory>

namespace DataClient {

namespace detail {
class OutboxManager;
}

class Controller;
class ControllerPrivate;
class OutboxPrivate;
class Resource;
class RestEndpoint;

/*!
    The pending changes of one Controller (Controller::outbox()): every mutation of an endpoint
    with the option `queueWhenOffline`, from fetch() until the server answered it (confirmed, or
    refused with a 4xx). Made while offline, it waits here and is replayed on reconnect; a
    network error or a 5xx keeps it here and retries it with backoff. With an outbox file the
    list survives a restart (see docs/offline-outbox.md).

    A list model, one row per change in the order made, with the roles `method` ("PATCH"),
    `url` (a string) and `since` (a QDateTime); `count` is its row count.

    To be replayed after a restart, an endpoint must be known before its items are sent: every
    endpoint fetch() ran is; others are made known with registerEndpoint() or
    registerResource() (before the outbox file is loaded or before going online). An item whose
    endpoint is still unknown when its turn comes is dropped with a warning naming it.

    Threads: GUI thread only, like its Controller, which owns it.
*/
class DATACLIENT_CONTROLLER_EXPORT Outbox : public QAbstractListModel
{
    Q_OBJECT
    //! How many changes wait for the server.
    Q_PROPERTY(int count READ count NOTIFY countChanged)

public:
    enum Role {
        MethodRole = Qt::UserRole + 1,
        UrlRole,
        SinceRole,
    };
    Q_ENUM(Role)

    ~Outbox() override;

    int count() const;
    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    //! Makes \a endpoint known under its identity (endpointIdentity()), so items of it read
    //! from an outbox file can be replayed. A later endpoint of the same identity replaces it.
    void registerEndpoint(const EndpointPtr &endpoint);
    //! registerEndpoint() for every member of \a resource with the option queueWhenOffline.
    void registerResource(const Resource &resource);
    /*!
        The name an item of the outbox file gives its endpoint: method, path template and
        member name, e.g. "PATCH /todos/:id partialUpdate". Stable across restarts; the URL
        prefix is not part of it (the same change may go to a server that moved).
    */
    static QString endpointIdentity(const RestEndpoint &endpoint);

Q_SIGNALS:
    void countChanged();

private:
    friend class Controller;
    friend class ControllerPrivate;
    friend class detail::OutboxManager;
    friend class OutboxPrivate;
    explicit Outbox(Controller *controller);
    std::unique_ptr<OutboxPrivate> d;
};

} // namespace DataClient
