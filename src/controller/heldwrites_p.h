// Placeholder rows and the writes that wait for them (docs/optimistic-updates.md): a create
// without a primary key shows its row under a placeholder key; writes naming that key are held
// until the create is confirmed, then sent once with the server's key (or dropped if it fails).
#pragma once

#include "callerpromises_p.h"

#include <DataClient/endpointoptions.h>
#include <DataClient/params.h>

#include <QtCore/QHash>
#include <QtCore/QJsonValue>
#include <QtCore/QList>
#include <QtCore/QSet>
#include <QtCore/QString>

#include <memory>

namespace DataClient::detail {

//! A write (update, partialUpdate, delete, or any mutation) that names a placeholder key whose
//! create has not been answered yet.
struct HeldWrite
{
    EndpointPtr endpoint;
    Params params;
    QJsonValue body;
    //! Its optimistic guess, shown on the placeholder row meanwhile (0: none).
    quint64 layer = 0;
    //! The placeholder keys it still waits for.
    QSet<QString> waitingFor;
    CallerPromises callers;
    //! Its endpoint queues (queueWhenOffline): kept in the outbox file too, so that a restart
    //! does not lose it (placeholdermanager.cpp), with when it was made and a key to name it.
    bool durable = false;
    qint64 since = 0;
    QByteArray idempotencyKey;
};

class HeldWrites
{
public:
    //! A new placeholder key, waiting for its create's answer.
    QString allocate();
    //! Whether \a pk is a placeholder whose create is still unanswered.
    bool isWaiting(const QString &pk) const { return m_waiting.contains(pk); }
    //! The server's pk for a confirmed placeholder; empty when unknown or not confirmed.
    QString confirmedKey(const QString &pk) const { return m_confirmed.value(pk); }

    void hold(std::shared_ptr<HeldWrite> write) { m_held.append(std::move(write)); }
    //! The create of \a pk was answered with \a serverPk: the writes that now wait for nothing
    //! are taken out, their placeholder keys replaced.
    QList<std::shared_ptr<HeldWrite>> confirm(const QString &pk, const QString &serverPk);
    //! The create of \a pk failed: every write that names it is taken out (never sent).
    QList<std::shared_ptr<HeldWrite>> refuse(const QString &pk);
    //! Forgets every placeholder and hands over every held write (resetEntireStore(), shutdown).
    QList<std::shared_ptr<HeldWrite>> clear();

    /*!
        Replaces every confirmed placeholder key in \a params and the top-level fields of
        \a body by the server's key. Returns the placeholder keys still waiting; \a unknown gets
        the first one that is neither waiting nor confirmed (its create failed, or the store
        was reset).
    */
    QSet<QString> substitute(Params *params, QJsonValue *body, QString *unknown) const;
    //! Every write held now, oldest first.
    const QList<std::shared_ptr<HeldWrite>> &all() const { return m_held; }

    //! Replaces the placeholder keys of \a params, the top-level fields of \a body and
    //! \a keys that \a renamed maps (an outbox file's keys to this run's).
    static void rename(Params *params, QJsonValue *body, QStringList *keys,
                       const QHash<QString, QString> &renamed);

private:
    //! \a value's placeholder key replaced if confirmed; records waiting or unknown ones.
    template<typename Value>
    void substituteOne(Value *value, QSet<QString> *waiting, QString *unknown) const;

    quint64 m_last = 0;
    QSet<QString> m_waiting;
    QHash<QString, QString> m_confirmed;
    QList<std::shared_ptr<HeldWrite>> m_held;
};

} // namespace DataClient::detail
