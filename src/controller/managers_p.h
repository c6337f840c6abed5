// The Controller's managers, in the order they act at each lifecycle step (managers.cpp registers
// them). Typed pointers are for the Controller's public API, which each manager's file implements
// for its feature, and for the few managers that work together (the outbox file also keeps the
// writes held for a placeholder row).
#pragma once

#include "lifecycle_p.h"

#include <memory>
#include <vector>

namespace DataClient::detail {

class AppManagers;
class ApplicationStateManager;
class AuthManager;
class ConnectivityManager;
class GcManager;
class OutboxManager;
class PageManager;
class PersistenceManager;
class PlaceholderManager;
class PollingManager;
class PushManager;
class RetryManager;
class ShownKeysManager;
class ValidatorManager;

struct Managers
{
    //! Makes every manager and tells \a core which of them act at each step.
    explicit Managers(ControllerPrivate &core);
    ~Managers();
    //! Once the Controller holds them: they may act at once (connectivity, application state).
    void start();
    Q_DISABLE_COPY_MOVE(Managers)

    PlaceholderManager *placeholders = nullptr;
    OutboxManager *outbox = nullptr;
    ConnectivityManager *connectivity = nullptr;
    AuthManager *auth = nullptr;
    ValidatorManager *validators = nullptr;
    RetryManager *retry = nullptr;
    PageManager *pages = nullptr;
    PersistenceManager *persistence = nullptr;
    GcManager *gc = nullptr;
    ShownKeysManager *shown = nullptr;
    ApplicationStateManager *applicationState = nullptr;
    PollingManager *polling = nullptr;
    PushManager *push = nullptr;
    AppManagers *apps = nullptr;

    //! Every manager, in registration order (owned).
    std::vector<std::unique_ptr<Lifecycle>> all;

private:
    template<typename T> T *add(ControllerPrivate &core);
    void add(std::unique_ptr<Lifecycle> manager);
};

} // namespace DataClient::detail
