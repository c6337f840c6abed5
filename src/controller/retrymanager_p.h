// Retries with backoff: a failed attempt that can succeed later stays in flight — its callers keep
// waiting, a second read of the key joins it — and is sent again through the Controller's
// scheduler. The callers' futures settle once, after the last attempt.
#pragma once

#include "lifecycle_p.h"

#include <DataClient/controller.h>

#include <QtCore/QHash>

namespace DataClient::detail {

class RetryManager final : public Lifecycle
{
public:
    explicit RetryManager(ControllerPrivate &core);

    void attemptFailed(InFlightRequest &request, const NetworkError &error,
                       RetryPlan *plan) override;
    void describe(const InFlightRequest &request, ResponseState *state) const override;
    void requestEnded(const InFlightRequest &request) override;
    void reset() override;
    void shutdown() override;

    Controller::RandomSource random;

private:
    struct Attempts
    {
        int attempt = 1; //!< the attempt under way or waited for: 1 = the first
        quint64 backoff = 0; //!< the Scheduler entry that sends the next one, 0 when none waits
    };
    //! The backoff of request \a id is over: sends it (a manager may hold it: offline).
    void retryNow(quint64 id);
    void cancelAll();

    QHash<quint64, Attempts> m_requests;
};

} // namespace DataClient::detail
