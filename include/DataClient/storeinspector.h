// StoreInspector: what a running Controller holds and does, as item models, and the actions a
// developer debugging it needs (docs/inspector.md). Costs nothing until attached.
#pragma once

#include <DataClient/controller.h> // Q_PROPERTY(Controller *) needs the complete type
#include <DataClient/inspectorglobal.h>

#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtCore/QString>

#include <memory>

QT_BEGIN_NAMESPACE
class QAbstractItemModel;
QT_END_NAMESPACE

namespace DataClient {

class Connectivity;
class InspectorEntitiesModel;
class InspectorRequestsModel;
class InspectorResultsModel;
class InspectorStatusModel;
class InspectorTimelineModel;

namespace detail {
class RequestRecorder;
}

/*!
    Attached to a Controller (setController()), it registers a Manager of its own that records
    every request, and it keeps six item models live:

    - entities(): a tree, the entity types, under each its entities (pk, fields, references);
    - results(): one row per cache key (status, age, error, loading, entities, viewers);
    - requests(): the requests in flight and the last historyLimit() ones;
    - outbox(): the Controller's Outbox (the changes waiting for the server);
    - status(): connectivity, memory and garbage collection (the last pass and what it
      dropped), persistence, counts;
    - timeline(): the last historyLimit() changes of the store, each with what made it (the
      request and its method and URL, a push, set(), a guess, a rollback) and what it changed.

    Detached (no controller, the default), nothing is registered with any Controller and
    nothing is recorded: an application that never opens an inspector pays nothing for it. A
    Controller destroyed first leaves the inspector empty, saying "no controller".

    The actions (invalidate(), expire(), refetch(), dropEntity(), resetStore(), setOnline())
    act on the attached Controller and return false (with a warning) when there is none or the
    target is unknown.
*/
class DATACLIENT_INSPECTOR_EXPORT StoreInspector : public QObject
{
    Q_OBJECT
    Q_PROPERTY(DataClient::Controller *controller READ controller WRITE setController NOTIFY
                   controllerChanged)
    //! "no controller", or what is inspected ("3 entity types, 12 results, 1 request in flight").
    Q_PROPERTY(QString statusText READ statusText NOTIFY statusTextChanged)
    Q_PROPERTY(QAbstractItemModel *entities READ entities CONSTANT)
    Q_PROPERTY(QAbstractItemModel *results READ results CONSTANT)
    Q_PROPERTY(QAbstractItemModel *requests READ requests CONSTANT)
    Q_PROPERTY(QAbstractItemModel *status READ status CONSTANT)
    Q_PROPERTY(QAbstractItemModel *timeline READ timeline CONSTANT)
    //! The Controller's outbox model; null without a controller.
    Q_PROPERTY(QAbstractItemModel *outbox READ outbox NOTIFY controllerChanged)
    //! How many finished requests requests() keeps (default 200; in-flight ones always show),
    //! and how many changes timeline() keeps.
    Q_PROPERTY(int historyLimit READ historyLimit WRITE setHistoryLimit NOTIFY historyLimitChanged)
    //! The attached Controller's connectivity; setting it switches to a manual source of the
    //! inspector's when the Controller follows the system's (given back on detach).
    Q_PROPERTY(bool online READ isOnline WRITE setOnline NOTIFY onlineChanged)

public:
    explicit StoreInspector(QObject *parent = nullptr);
    ~StoreInspector() override;

    Controller *controller() const;
    //! Attaches to \a controller (nullptr: detaches). The models fill at once.
    void setController(Controller *controller);
    QString statusText() const;

    QAbstractItemModel *entities() const;
    QAbstractItemModel *results() const;
    QAbstractItemModel *requests() const;
    QAbstractItemModel *status() const;
    QAbstractItemModel *outbox() const;
    QAbstractItemModel *timeline() const;
    InspectorEntitiesModel *entitiesModel() const { return m_entities.get(); }
    InspectorResultsModel *resultsModel() const { return m_results.get(); }
    InspectorRequestsModel *requestsModel() const { return m_requests.get(); }
    InspectorStatusModel *statusModel() const { return m_status.get(); }
    InspectorTimelineModel *timelineModel() const { return m_timeline.get(); }

    int historyLimit() const;
    void setHistoryLimit(int limit);
    bool isOnline() const;
    void setOnline(bool online);

    // Actions --------------------------------------------------------------------------------
    //! Forgets the result of \a key (Controller::invalidateAll() for that key alone).
    Q_INVOKABLE bool invalidate(const QString &key);
    //! Makes \a key Stale now (Controller::expireAll() for that key alone).
    Q_INVOKABLE bool expire(const QString &key);
    //! Fetches \a key again, with the endpoint a view, a poll or a recorded request read it with.
    Q_INVOKABLE bool refetch(const QString &key);
    //! Forgets one entity (not a delete: the server is not told; a later answer brings it back).
    Q_INVOKABLE bool dropEntity(const QString &type, const QString &pk);
    //! Controller::resetEntireStore().
    Q_INVOKABLE bool resetStore();
    //! The shown entity as indented JSON (nested entities as their pks); empty when unknown.
    Q_INVOKABLE QString entityJson(const QString &type, const QString &pk) const;
    //! The answer stored for \a key as indented JSON: denormalized when the endpoint that read
    //! it is known, else normalized (nested entities as their pks); empty when unknown.
    Q_INVOKABLE QString answerJson(const QString &key) const;

Q_SIGNALS:
    void controllerChanged();
    void statusTextChanged();
    void historyLimitChanged();
    void onlineChanged();

private:
    void attach(Controller *controller);
    void detach();
    void controllerDestroyed();
    void updateStatusText();
    static bool refuse(const char *action, const QString &why);

    QPointer<Controller> m_controller;
    std::unique_ptr<InspectorEntitiesModel> m_entities;
    std::unique_ptr<InspectorResultsModel> m_results;
    std::unique_ptr<InspectorRequestsModel> m_requests;
    std::unique_ptr<InspectorStatusModel> m_status;
    std::unique_ptr<InspectorTimelineModel> m_timeline;
    std::unique_ptr<detail::RequestRecorder> m_recorder;
    //! The manual source setOnline() installed, and the Connectivity it replaced.
    std::unique_ptr<Connectivity> m_manualConnectivity;
    QPointer<Connectivity> m_replacedConnectivity;
    QList<QMetaObject::Connection> m_connections;
    QString m_statusText;
};

} // namespace DataClient
