// QueryScope: the state of every Suspense / Live inside a part of the UI, for SuspenseBoundary.
#pragma once

#include <DataClient/collectionmodel.h>
#include <DataClient/global.h>

#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtCore/QVariant>
#include <QtQml/qqmlregistration.h>

namespace DataClient::Qml {

/*!
    Put a QueryScope beside the items it watches (as a child of their common ancestor): every
    Suspense or Live completed below that ancestor joins the nearest scope up its parent chain.
    SuspenseBoundary (qml/SuspenseBoundary.qml) is built on it.
*/
class DATACLIENT_QML_EXPORT QueryScope : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    //! Some query has nothing to show yet (status Loading).
    Q_PROPERTY(bool loading READ isLoading NOTIFY stateChanged)
    //! Some query failed (status Error).
    Q_PROPERTY(bool failed READ hasFailed NOTIFY stateChanged)
    //! The first failed query's error ({status, message, body, ...}), or null.
    Q_PROPERTY(QVariant error READ error NOTIFY stateChanged)
    //! Queries in the scope.
    Q_PROPERTY(int count READ count NOTIFY stateChanged)

public:
    explicit QueryScope(QObject *parent = nullptr);

    bool isLoading() const { return m_loading; }
    bool hasFailed() const { return m_failed; }
    QVariant error() const { return m_error; }
    int count() const { return int(m_queries.size()); }

    void add(CollectionModel *query);
    void remove(CollectionModel *query);
    //! The scope \a object belongs to: a QueryScope child of the nearest ancestor that has one
    //! (visual parents are followed through their `parent` property), or nullptr.
    static QueryScope *findFor(const QObject *object);

    //! Fetches every failed query again.
    Q_INVOKABLE void retry();

Q_SIGNALS:
    void stateChanged();

private:
    void update();

    QList<QPointer<CollectionModel>> m_queries;
    bool m_loading = false;
    bool m_failed = false;
    QVariant m_error = QVariant::fromValue(nullptr);
};

} // namespace DataClient::Qml
