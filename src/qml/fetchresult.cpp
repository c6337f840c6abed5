#include "fetchresult.h"

#include <DataClient/private/futurewatch_p.h>
#include <DataClient/private/variantaccess_p.h>

#include <DataClient/networkerror.h>

#include <QtCore/QTimer>
#include <QtQml/QJSEngine>
#include <QtQml/QQmlEngine>

using namespace Qt::StringLiterals;

namespace DataClient::Qml {

FetchResult::FetchResult(QJSEngine *engine) : m_engine(engine)
{
    if (engine)
        m_self = engine->newQObject(this); // also sets JavaScriptOwnership
}

void FetchResult::follow(const QFuture<QVariant> &future)
{
    Models::watchFuture(
        this, future, [this](const QVariant &value) { resolve(value); },
        [this](const NetworkError &error) { reject(errorToVariant(error)); });
}

void FetchResult::resolve(const QVariant &value)
{
    settle(Ready, toQmlValue(value), QVariant::fromValue(nullptr));
}

void FetchResult::reject(const QVariant &error)
{
    settle(Error, QVariant(), error);
}

void FetchResult::settle(Status status, const QVariant &value, const QVariant &error)
{
    if (m_status != Loading)
        return;
    m_status = status;
    m_value = value;
    m_error = error;
    Q_EMIT settled();
    scheduleReactions();
}

FetchResult *FetchResult::then(const QJSValue &onOk, const QJSValue &onError)
{
    auto *next = new FetchResult(m_engine);
    m_reactions.append({onOk, onError, next});
    if (m_status != Loading)
        scheduleReactions();
    return next;
}

void FetchResult::scheduleReactions()
{
    if (m_reactions.isEmpty()) {
        m_self = QJSValue(); // settled and nobody waits: collectable once JS drops it
        return;
    }
    QTimer::singleShot(0, this, [this] {
        const QList<Reaction> reactions = std::exchange(m_reactions, {});
        for (const Reaction &reaction : reactions)
            runReaction(reaction);
        if (m_reactions.isEmpty())
            m_self = QJSValue();
    });
}

void FetchResult::runReaction(const Reaction &reaction)
{
    FetchResult *next = reaction.next;
    const QJSValue &callback = m_status == Ready ? reaction.onOk : reaction.onError;
    QJSEngine *engine = m_engine;
    if (!callback.isCallable() || !engine) {
        if (m_status == Ready)
            next->resolve(m_value);
        else
            next->reject(m_error);
        return;
    }
    const QJSValue argument = engine->toScriptValue(m_status == Ready ? m_value : m_error);
    const QJSValue result = callback.call({argument});
    if (result.isError()) {
        next->reject(QVariantMap {
            {u"status"_s, 0}, {u"kind"_s, u"Other"_s}, {u"message"_s, result.toString()}});
    } else if (auto *chained = qobject_cast<FetchResult *>(result.toQObject())) {
        auto forward = [chained, next] {
            if (chained->status() == Ready)
                next->resolve(chained->value());
            else
                next->reject(chained->error());
        };
        if (chained->status() != Loading)
            forward();
        else
            connect(chained, &FetchResult::settled, next, forward);
    } else {
        next->resolve(result.toVariant());
    }
}

} // namespace DataClient::Qml
