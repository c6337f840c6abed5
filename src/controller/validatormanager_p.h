// HTTP validators (docs/networking.md): a read of a key whose stored result came with an ETag or
// a Last-Modified sends them back, and a 304 Not Modified that confirms that result keeps it:
// its expiry is renewed as a fresh answer's would be, the validators the 304 carries replace
// the stored ones, nothing is normalized, no change is signalled.
#pragma once

#include "lifecycle_p.h"
#include "validatortable_p.h"

#include <QtCore/QSet>

namespace DataClient::detail {

class ValidatorManager final : public Lifecycle
{
public:
    explicit ValidatorManager(ControllerPrivate &core);

    //! What a new attempt sends of its key's validators, and records of its answer.
    void decorate(InFlightRequest &request, Headers *) override;
    //! A 304: keeps the stored result (expiry renewed), or refetches once without validators,
    //! or fails. Takes over the request's loading state and callers.
    bool takesAnswer(const std::shared_ptr<InFlightRequest> &request) override;
    //! A 2xx answer was stored under its result key (empty: a newer one stays).
    void committed(InFlightRequest &request, Commit *commit) override;
    void requestEnded(const InFlightRequest &request) override;
    //! They describe the server's answer, which is gone or was replaced.
    void resultsDropped(const QSet<QString> &keys) override;
    void invalidated(const QStringList &keys) override;
    void resultSet(const QString &key) override;
    void reset() override;

private:
    ValidatorTable m_validators;
    //! Reads that repeat a read whose 304 confirmed nothing stored: a 304 now fails them.
    QSet<quint64> m_refetchesAfter304;
};

} // namespace DataClient::detail
