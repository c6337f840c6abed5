// InspectorTimelineModel: every change of a Controller's store since the inspector attached, and
// what made it: a request's answer, its optimistic guess or rollback, a push, set(), a garbage
// collection (StoreInspector::timeline(); docs/inspector.md).
#pragma once

#include <DataClient/changeset.h>
#include <DataClient/inspectorglobal.h>

#include <QtCore/QAbstractTableModel>
#include <QtCore/QHash>
#include <QtCore/QPointer>
#include <QtCore/QUrl>

#include <utility>

namespace DataClient {

class Controller;
class ManagedRequest;
namespace detail {
class RequestRecorder;
}

/*!
    One row per change the Controller emitted (Controller::changed()), oldest first; beyond
    limit() rows the oldest are removed. Each row says what made the change (Origin), the
    request it belongs to (method and URL) when a request made it, and the rows it changed: the
    entities ("Todo:5") and the result keys. Only the first MaxNames names of each are shown
    (and said "and N more"); they are read from the change when the row is displayed, so a
    write of 10k entities costs the timeline no more than a write of one.

    Rows are only appended and removed (the oldest first): no row changes in place.
*/
class DATACLIENT_INSPECTOR_EXPORT InspectorTimelineModel : public QAbstractTableModel
{
    Q_OBJECT
    Q_PROPERTY(int count READ rowCount NOTIFY countChanged)

public:
    enum Column { Time, Origin, Request, Entities, Results, ColumnCount };
    Q_ENUM(Column)
    enum Role {
        TimeRole = Qt::UserRole + 1, //!< QDateTime of the change
        OriginRole, //!< "answer", "optimistic guess", "rollback", "push", "set()", ...
        RequestIdRole, //!< the request's id (ManagedRequest::id()), 0 when none
        MethodRole,
        UrlRole,
        EntitiesRole, //!< QStringList "Todo:5" (the first MaxNames; collections not named)
        EntityCountRole, //!< how many entities and collections changed
        ResultsRole, //!< QStringList of result keys (the first MaxNames)
        SummaryRole, //!< one line: "12:00:01.250 answer PATCH /todos/5: Todo:5"
    };
    Q_ENUM(Role)
    static constexpr int MaxNames = 20;

    explicit InspectorTimelineModel(QObject *parent = nullptr);
    ~InspectorTimelineModel() override;

    //! Follows \a controller's changes from now on (nullptr: stops, and empties the model).
    void setController(Controller *controller);
    int limit() const { return m_limit; }
    void setLimit(int limit);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

Q_SIGNALS:
    void countChanged();

private:
    friend class detail::RequestRecorder;
    struct Row
    {
        qint64 at = 0;
        int origin = 0; // detail::ChangeOrigin
        quint64 requestId = 0;
        QByteArray method;
        QUrl url;
        ChangeSet changes; // shared with the Controller's; names are read when shown
    };
    //! The recorder: \a request was started or did a step (\a finished: its last).
    void requestSeen(const ManagedRequest &request, bool finished);
    void onChanged(const ChangeSet &changes);
    void trim();
    QStringList entityNames(const Row &row) const;
    QStringList resultNames(const Row &row) const;
    QString summary(const Row &row) const;

    QPointer<Controller> m_controller;
    QMetaObject::Connection m_changed;
    QList<Row> m_rows;
    int m_limit = 200;
    //! The method and URL of the requests in flight (and finished in this event-loop turn).
    QHash<quint64, std::pair<QByteArray, QUrl>> m_requests;
    QList<quint64> m_finished;
};

} // namespace DataClient
