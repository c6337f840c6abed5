// What the store inspector reads of a Controller beyond its store, and its one write that no
// public function makes (dropping an entity without telling the server).
#include <DataClient/private/controllerinspection_p.h>

#include "controller_p.h"
#include "expirypolicy_p.h"
#include "gcmanager_p.h"
#include "managers_p.h"
#include "pollingmanager_p.h"
#include "pollsubscriptions_p.h"
#include "shownkeysmanager_p.h"

#include <DataClient/controller.h>
#include <DataClient/store.h>

namespace DataClient::detail {

QStringList inspectedKeys(const Controller *controller)
{
    const ControllerPrivate *d = ControllerPrivate::get(controller);
    QStringList keys = d->store->resultKeys();
    for (const QString &key : d->states.keys()) {
        if (!d->store->hasResult(key))
            keys.append(key);
    }
    keys.sort();
    return keys;
}

KeyInspection inspectKey(const Controller *controller, const QString &key)
{
    const ControllerPrivate *d = ControllerPrivate::get(controller);
    KeyInspection inspection;
    const FetchState *state = d->states.find(key);
    const bool invalidated = state && state->invalidated;
    const bool hasError = state && state->error;
    if (state) {
        inspection.loading = state->loading;
        inspection.error = state->error;
    }
    const bool found = !invalidated && d->store->hasResult(key);
    const qint64 expiresAt = hasError ? state->errorExpiresAt : d->store->resultMeta(key).expiresAt;
    inspection.status = ExpiryPolicy::status(found, invalidated, hasError, expiresAt, d->now());
    const ShownKeys &shown = d->managers->shown->shown;
    inspection.viewers = shown.viewers(key);
    const PollSubscriptions *polls = d->managers->polling->polls;
    inspection.subscribers = polls ? polls->subscriberCount(key) : 0;
    // The endpoint a view or a poll reads the key with: what a refetch from the inspector uses.
    QList<std::pair<EndpointPtr, Params>> readers = shown.all();
    if (polls)
        readers += polls->polled();
    for (const auto &[endpoint, params] : readers) {
        if (endpoint && endpoint->key(params) == key) {
            inspection.endpoint = endpoint;
            inspection.params = params;
            break;
        }
    }
    return inspection;
}

bool dropEntity(Controller *controller, const EntityRef &ref)
{
    ControllerPrivate *d = ControllerPrivate::get(controller);
    if (!d->store->shownEntity(ref))
        return false;
    const ChangeSet changes = d->store->removeEntity(ref);
    d->emitChanged(changes, ChangeOrigin::Dropped);
    return true;
}

ChangeOrigin changeOrigin(const Controller *controller, quint64 *request)
{
    const ControllerPrivate *d = ControllerPrivate::get(controller);
    if (request)
        *request = d->changeRequest;
    return d->changeOrigin;
}

GcPass lastGcPass(const Controller *controller)
{
    const auto &last = ControllerPrivate::get(controller)->managers->gc->lastPass;
    GcPass pass;
    pass.at = last.at;
    pass.results = last.results;
    pass.entities = last.entities;
    pass.collections = last.collections;
    for (const QString &key : last.dropped.results) {
        if (pass.resultKeys.size() < GcPass::MaxNames)
            pass.resultKeys.append(key);
    }
    pass.resultKeys.sort();
    for (const EntityRef &ref : last.dropped.entities) {
        if (pass.entityNames.size() == GcPass::MaxNames)
            break;
        if (!ref.key.startsWith(u'[')) // a collection
            pass.entityNames.append(ref.key + u':' + ref.pk);
    }
    pass.entityNames.sort();
    return pass;
}

} // namespace DataClient::detail
