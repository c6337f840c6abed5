// InspectorResultsModel: one row per cache key of a Controller (StoreInspector::results();
// docs/inspector.md).
#pragma once

#include <DataClient/inspectorglobal.h>

#include <QtCore/QAbstractTableModel>
#include <QtCore/QHash>
#include <QtCore/QPointer>
#include <QtCore/QSet>
#include <QtCore/QStringList>

namespace DataClient {

class Controller;
struct ChangeSet;

/*!
    The keys the Controller knows, sorted: a stored result, or a request in flight, or an error.
    Columns: Key, Status (Valid / Stale / Invalid), Age (since the answer was received), Error,
    Loading, Entities (how many the answer shows), Bytes (of the last answer stored while the
    inspector was attached; -1 before), Watchers (views that watch() it, and polling
    subscribers), Preview (the stored answer, cut). Updated in the next event-loop turn after a
    change: rows inserted or removed for keys that appeared or went, dataChanged() for the rest.
*/
class DATACLIENT_INSPECTOR_EXPORT InspectorResultsModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        Key,
        Status,
        Age,
        Error,
        Loading,
        Entities,
        Bytes,
        Watchers,
        Preview,
        ColumnCount
    };
    Q_ENUM(Column)
    enum Role {
        KeyRole = Qt::UserRole + 1,
        StatusRole, //!< "valid", "stale", "invalid"
        AgeRole, //!< ms since the answer was received (-1: none)
        ErrorRole,
        LoadingRole,
        EntitiesRole,
        BytesRole, //!< the body of the last answer stored (-1: none since attached)
        ViewersRole,
        SubscribersRole,
        PreviewRole, //!< the stored answer, compact JSON cut after PreviewChars
        SummaryRole, //!< one line: "GET http://…/todos valid 3 s, 20 entities"
    };
    Q_ENUM(Role)
    static constexpr int PreviewChars = 240;

    explicit InspectorResultsModel(QObject *parent = nullptr);
    ~InspectorResultsModel() override;

    void setController(Controller *controller);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    //! The row of \a key, -1 when not shown.
    Q_INVOKABLE int rowOf(const QString &key) const;
    QStringList keys() const { return m_keys; }
    //! Tells the bytes of the answer just stored for \a key (InspectorRequestsModel::answerStored).
    void setAnswerBytes(const QString &key, qint64 bytes);

private:
    void markDirty(const QString &key);
    void scheduleRefresh();
    void refresh();

    QPointer<Controller> m_controller;
    QList<QMetaObject::Connection> m_connections;
    QStringList m_keys;
    QSet<QString> m_dirty;
    QHash<QString, qint64> m_bytes;
    bool m_refreshScheduled = false;
};

} // namespace DataClient
