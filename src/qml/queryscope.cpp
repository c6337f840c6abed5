#include "queryscope.h"

namespace DataClient::Qml {

QueryScope::QueryScope(QObject *parent) : QObject(parent) { }

void QueryScope::add(CollectionModel *query)
{
    if (!query || m_queries.contains(query))
        return;
    m_queries.append(query);
    connect(query, &CollectionModel::statusChanged, this, &QueryScope::update);
    connect(query, &CollectionModel::errorChanged, this, &QueryScope::update);
    connect(query, &QObject::destroyed, this, [this] {
        m_queries.removeAll(nullptr);
        update();
    });
    update();
}

void QueryScope::remove(CollectionModel *query)
{
    if (!m_queries.removeAll(query))
        return;
    disconnect(query, nullptr, this, nullptr);
    update();
}

QueryScope *QueryScope::findFor(const QObject *object)
{
    // Visual items report their visual parent in `parent`; other objects have a QObject parent.
    const QObject *ancestor = object;
    for (int depth = 0; ancestor && depth < 256; ++depth) {
        const QVariant visualParent = ancestor->property("parent");
        const QObject *next = visualParent.isValid() ? visualParent.value<QObject *>() : nullptr;
        if (!next)
            next = ancestor->parent();
        if (!next)
            return nullptr;
        if (auto *scope = next->findChild<QueryScope *>(QString(), Qt::FindDirectChildrenOnly))
            return scope;
        ancestor = next;
    }
    return nullptr;
}

void QueryScope::retry()
{
    const auto queries = m_queries;
    for (const auto &query : queries) {
        if (query && query->status() == CollectionModel::Error)
            query->refetch();
    }
}

void QueryScope::update()
{
    bool loading = false;
    QVariant error = QVariant::fromValue(nullptr);
    for (const auto &query : std::as_const(m_queries)) {
        if (!query)
            continue;
        if (query->status() == CollectionModel::Loading)
            loading = true;
        if (query->status() == CollectionModel::Error && error.isNull())
            error = query->errorValue();
    }
    const bool failed = !error.isNull();
    if (loading == m_loading && failed == m_failed && error == m_error)
        return;
    m_loading = loading;
    m_failed = failed;
    m_error = error;
    Q_EMIT stateChanged();
}

} // namespace DataClient::Qml
