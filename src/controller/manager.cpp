// Manager and ManagedRequest: the public face of the application's managers (appmanagers.cpp runs
// them).
#include "appmanagers_p.h"
#include "controller_p.h"
#include "logging_p.h"
#include "managedrequest_p.h"
#include "managers_p.h"

namespace DataClient {

ManagedRequest::ManagedRequest() = default;
ManagedRequest::ManagedRequest(ManagedRequestData *data) : d(data) { }
ManagedRequest::ManagedRequest(const ManagedRequest &other) = default;
ManagedRequest::ManagedRequest(ManagedRequest &&other) noexcept = default;
ManagedRequest &ManagedRequest::operator=(const ManagedRequest &other) = default;
ManagedRequest &ManagedRequest::operator=(ManagedRequest &&other) noexcept = default;
ManagedRequest::~ManagedRequest() = default;

bool ManagedRequest::isNull() const
{
    return !d;
}

quint64 ManagedRequest::id() const
{
    return d ? d->id : 0;
}

EndpointPtr ManagedRequest::endpoint() const
{
    return d ? d->endpoint : EndpointPtr();
}

QString ManagedRequest::endpointName() const
{
    if (!d || !d->endpoint)
        return {};
    return d->endpoint->name().isEmpty() ? d->endpoint->path() : d->endpoint->name();
}

QByteArray ManagedRequest::method() const
{
    return d && d->endpoint ? d->endpoint->method() : QByteArray();
}

QUrl ManagedRequest::url() const
{
    return d && d->endpoint ? d->endpoint->url(d->params) : QUrl();
}

Params ManagedRequest::params() const
{
    return d ? d->params : Params();
}

QJsonValue ManagedRequest::body() const
{
    return d ? d->body : QJsonValue();
}

QString ManagedRequest::key() const
{
    return d ? d->key : QString();
}

QString ManagedRequest::requestKey() const
{
    return d ? d->requestKey : QString();
}

bool ManagedRequest::isRead() const
{
    return !d || d->read;
}

int ManagedRequest::attempt() const
{
    return d ? d->attempt : 0;
}

int ManagedRequest::status() const
{
    return d ? d->status : 0;
}

qint64 ManagedRequest::bytesReceived() const
{
    return d ? d->bytesReceived : 0;
}

Manager::Manager(QObject *parent) : QObject(parent) { }

Manager::~Manager()
{
    if (m_controller)
        ControllerPrivate::get(m_controller)->managers->apps->destroyed(this);
}

Controller *Manager::controller() const
{
    return m_controller;
}

namespace {

detail::AppManagers *hostOf(const QPointer<Controller> &controller, const Manager *manager,
                            const char *action)
{
    if (!controller) {
        qCWarning(lcController).noquote()
            << QStringLiteral("Manager::%1: %2 is not registered with a Controller "
                              "(Controller::addManager())")
                   .arg(QLatin1StringView(action),
                        QString::fromLatin1(manager->metaObject()->className()));
        return nullptr;
    }
    return ControllerPrivate::get(controller)->managers->apps;
}

} // namespace

bool Manager::release(quint64 requestId)
{
    detail::AppManagers *host = hostOf(m_controller, this, "release");
    return host && host->release(this, requestId);
}

bool Manager::answer(quint64 requestId, const QJsonValue &value)
{
    detail::AppManagers *host = hostOf(m_controller, this, "answer");
#if QT_VERSION >= QT_VERSION_CHECK(6, 6, 0)
    QFuture<QJsonValue> ready
        = QtFuture::makeReadyValueFuture(value); // makeReadyFuture(T): deprecated
#else
    QFuture<QJsonValue> ready = QtFuture::makeReadyFuture(value);
#endif
    return host && host->answer(this, requestId, ready, "answer");
}

bool Manager::fail(quint64 requestId, const NetworkError &error)
{
    detail::AppManagers *host = hostOf(m_controller, this, "fail");
    return host
        && host->answer(this, requestId, QtFuture::makeExceptionalFuture<QJsonValue>(error),
                        "fail");
}

QList<quint64> Manager::heldRequests() const
{
    return m_controller ? ControllerPrivate::get(m_controller)->managers->apps->heldBy(this)
                        : QList<quint64>();
}

void Manager::requestStarted(const ManagedRequest &) { }

Manager::Decision Manager::beforeSend(const ManagedRequest &)
{
    return Decision::Send;
}

void Manager::decorate(const ManagedRequest &, Headers *) { }
void Manager::attemptFailed(const ManagedRequest &, const NetworkError &, bool) { }
void Manager::answered(const ManagedRequest &) { }
void Manager::committed(const ManagedRequest &, const ChangeSet &) { }
void Manager::failed(const ManagedRequest &, const NetworkError &) { }
void Manager::invalidated(const QStringList &) { }
void Manager::storeReset() { }

bool Controller::addManager(Manager *manager)
{
    DATACLIENT_ASSERT_THREAD(this);
    return d->managers->apps->add(manager);
}

bool Controller::removeManager(Manager *manager)
{
    DATACLIENT_ASSERT_THREAD(this);
    return d->managers->apps->remove(manager);
}

QList<Manager *> Controller::managers() const
{
    return d->managers->apps->all();
}

} // namespace DataClient
