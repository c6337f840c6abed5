// The Outbox's state: the queue, the model signals when it changes, and the endpoints an item
// read from a file can be replayed with.
#pragma once

#include "outboxqueue_p.h"

#include <DataClient/outbox.h>

#include <QtCore/QHash>

namespace DataClient {

class OutboxPrivate
{
public:
    OutboxPrivate(Outbox *outbox, ControllerPrivate *controller) : q(outbox), controller(controller)
    { }
    static OutboxPrivate *get(Outbox *outbox) { return outbox->d.get(); }

    // Each changes the model with the smallest signals and emits countChanged().
    void append(quint64 id, detail::OutboxItem item);
    bool remove(quint64 id);
    void clear();

    //! The endpoint registered for \a identity, or null.
    EndpointPtr endpoint(const QString &identity) const { return endpoints.value(identity); }

    Outbox *q;
    ControllerPrivate *controller;
    detail::OutboxQueue queue;
    QHash<QString, EndpointPtr> endpoints;
};

} // namespace DataClient
