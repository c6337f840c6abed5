// The outbox's pure part: the mutations that wait for the server, in the order they
// were made, each under the id of the request that sends it. No I/O, no Controller: the
// Controller (outboxmanager.cpp) decides when an item goes, outboxfile.cpp stores the list.
#pragma once

#include <DataClient/private/testexport_p.h>
#include <DataClient/params.h>

#include <QtCore/QByteArray>
#include <QtCore/QJsonValue>
#include <QtCore/QList>
#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QtCore/QUrl>

#include <utility>

namespace DataClient::detail {

/*!
    One mutation kept until the server answered it: what replaying it needs after a restart,
    and never a credential (Authorization and Cookie headers are made again by the endpoint's
    hooks on every attempt).
*/
struct OutboxItem
{
    //! The endpoint's stable name (Outbox::endpointIdentity()): found again after a restart.
    QString endpoint;
    QByteArray method;
    //! The URL it was made for (shown to the user; the request builds its own from params).
    QUrl url;
    Params params;
    //! Undefined when the mutation has no body.
    QJsonValue body;
    //! When it was made (ms since the epoch, the Controller's clock).
    qint64 since = 0;
    //! Sent as the Idempotency-Key header of every attempt.
    QByteArray idempotencyKey;
    //! A create whose row shows under a placeholder key (isPlaceholderKey()): that key, so that
    //! the writes held for the row find it again after a restart. Empty otherwise.
    QString placeholder {};
    //! A write held until rows not created yet are (docs/optimistic-updates.md): the placeholder
    //! keys its params or body name. Such an item is no queue item: it is kept in the file
    //! beside them, and joins the queue with the server's keys once those creates are answered.
    QStringList waitingFor {};

    //! "PATCH http://host/todos/3": how warnings name it.
    QString describe() const { return QString::fromLatin1(method) + u' ' + url.toString(); }

    friend bool operator==(const OutboxItem &, const OutboxItem &) = default;
};

//! The items in the order they were made; ids are the Controller's request ids.
class DATACLIENT_TEST_EXPORT OutboxQueue
{
public:
    void append(quint64 id, OutboxItem item) { m_items.append({id, std::move(item)}); }
    //! Removes item \a id; returns the row it had, or -1.
    qsizetype remove(quint64 id);
    qsizetype indexOf(quint64 id) const;
    const OutboxItem *find(quint64 id) const;
    //! Item \a id's placeholder is now \a key (a create replayed after a restart).
    void setPlaceholder(quint64 id, const QString &key);
    quint64 idAt(qsizetype row) const { return m_items.at(row).first; }
    const OutboxItem &at(qsizetype row) const { return m_items.at(row).second; }
    qsizetype size() const { return m_items.size(); }
    bool isEmpty() const { return m_items.isEmpty(); }
    //! The items without their ids, in order (what the file stores).
    QList<OutboxItem> items() const;
    void clear() { m_items.clear(); }

private:
    QList<std::pair<quint64, OutboxItem>> m_items;
};

} // namespace DataClient::detail
