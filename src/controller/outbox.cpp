// Outbox: the pending changes as a list model, and the endpoints they can be replayed with.
#include "outbox_p.h"

#include "controller_p.h"
#include "managers_p.h"
#include "outboxmanager_p.h"

#include <DataClient/resource.h>
#include <DataClient/restendpoint.h>

#include <QtCore/QDateTime>

namespace DataClient {

Outbox::Outbox(Controller *controller)
    : QAbstractListModel(controller), d(std::make_unique<OutboxPrivate>(this, controller->d.get()))
{ }

Outbox::~Outbox() = default;

int Outbox::count() const
{
    return int(d->queue.size());
}

int Outbox::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : count();
}

QVariant Outbox::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const detail::OutboxItem &item = d->queue.at(index.row());
    switch (role) {
    case MethodRole:
        return QString::fromLatin1(item.method);
    case UrlRole:
        return item.url.toString();
    case SinceRole:
        return QDateTime::fromMSecsSinceEpoch(item.since);
    case Qt::DisplayRole:
        return QStringLiteral("%1 %2").arg(QString::fromLatin1(item.method), item.url.toString());
    default:
        return {};
    }
}

QHash<int, QByteArray> Outbox::roleNames() const
{
    return {{MethodRole, "method"}, {UrlRole, "url"}, {SinceRole, "since"}};
}

void Outbox::registerEndpoint(const EndpointPtr &endpoint)
{
    DATACLIENT_ASSERT_THREAD(this);
    if (!endpoint)
        return;
    d->endpoints.insert(endpointIdentity(*endpoint), endpoint);
    d->controller->managers->outbox->resolve();
}

void Outbox::registerResource(const Resource &resource)
{
    DATACLIENT_ASSERT_THREAD(this);
    const QStringList names = resource.memberNames();
    for (const QString &name : names) {
        const EndpointPtr endpoint = resource.member(name).endpoint();
        if (endpoint && endpoint->sideEffect() && endpoint->queueWhenOffline())
            d->endpoints.insert(endpointIdentity(*endpoint), endpoint);
    }
    d->controller->managers->outbox->resolve();
}

QString Outbox::endpointIdentity(const RestEndpoint &endpoint)
{
    QString identity = endpoint.methodName() + u' ' + endpoint.path();
    if (!endpoint.name().isEmpty())
        identity += u' ' + endpoint.name();
    return identity;
}

void OutboxPrivate::append(quint64 id, detail::OutboxItem item)
{
    const int row = int(queue.size());
    q->beginInsertRows(QModelIndex(), row, row);
    queue.append(id, std::move(item));
    q->endInsertRows();
    Q_EMIT q->countChanged();
}

bool OutboxPrivate::remove(quint64 id)
{
    const qsizetype row = queue.indexOf(id);
    if (row < 0)
        return false;
    q->beginRemoveRows(QModelIndex(), int(row), int(row));
    queue.remove(id);
    q->endRemoveRows();
    Q_EMIT q->countChanged();
    return true;
}

void OutboxPrivate::clear()
{
    if (queue.isEmpty())
        return;
    q->beginResetModel();
    queue.clear();
    q->endResetModel();
    Q_EMIT q->countChanged();
}

} // namespace DataClient
