// Registration of the Controller's managers. The order is the order they act at each step, and it
// matters where several act at one step:
//  - placeholders first: a call naming a placeholder key is rewritten or held before anything;
//  - authentication after connectivity (a request waits offline before it asks for a token) and
//    before retry: a 401 it replays after the refresh is not the retry manager's;
//  - the outbox before connectivity: on reconnect its changes go before the reads they affect,
//    and it decides (before the retry manager) that its items retry without a limit;
//  - validators before retry: a 304 is taken over before anything is stored;
//  - pages, persistence and garbage collection see a commit after it is written;
//  - the refetch triggers (shown keys, application state, polling, live feeds) after everything
//    that sends (a feed's catch-up joins the reads a reconnect already sent);
//  - the application's managers last: they see what the library decided.
// A new feature is one manager (a file) and one line here.
#include "managers_p.h"

#include "appmanagers_p.h"
#include "applicationstatemanager_p.h"
#include "authmanager_p.h"
#include "connectivitymanager_p.h"
#include "controller_p.h"
#include "gcmanager_p.h"
#include "outboxmanager_p.h"
#include "pagemanager_p.h"
#include "persistencemanager_p.h"
#include "placeholdermanager_p.h"
#include "pollingmanager_p.h"
#include "pushmanager_p.h"
#include "retrymanager_p.h"
#include "shownkeysmanager_p.h"
#include "validatormanager_p.h"

namespace DataClient::detail {

std::unique_ptr<Lifecycle> makeResumeRefetch(ControllerPrivate &core);

Managers::Managers(ControllerPrivate &core)
{
    placeholders = add<PlaceholderManager>(core);
    outbox = add<OutboxManager>(core);
    connectivity = add<ConnectivityManager>(core);
    auth = add<AuthManager>(core);
    validators = add<ValidatorManager>(core);
    retry = add<RetryManager>(core);
    pages = add<PageManager>(core);
    persistence = add<PersistenceManager>(core);
    gc = add<GcManager>(core);
    shown = add<ShownKeysManager>(core);
    applicationState = add<ApplicationStateManager>(core);
    polling = add<PollingManager>(core);
    push = add<PushManager>(core);
    add(makeResumeRefetch(core));
    apps = add<AppManagers>(core);

    for (const std::unique_ptr<Lifecycle> &manager : all) {
        for (int step = 0; step < int(Lifecycle::StepCount); ++step) {
            if (manager->steps() & (1u << step))
                core.steps[step].append(manager.get());
        }
    }
}

void Managers::start()
{
    for (const std::unique_ptr<Lifecycle> &manager : all)
        manager->start();
}

Managers::~Managers() = default;

template<typename T> T *Managers::add(ControllerPrivate &core)
{
    auto manager = std::make_unique<T>(core);
    T *typed = manager.get();
    all.push_back(std::move(manager));
    return typed;
}

void Managers::add(std::unique_ptr<Lifecycle> manager)
{
    all.push_back(std::move(manager));
}

} // namespace DataClient::detail
