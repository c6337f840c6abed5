// InspectorStatusModel: a Controller's state in rows of name and value — connectivity, memory and
// garbage collection, persistence, counts (StoreInspector::status(); docs/inspector.md).
#pragma once

#include <DataClient/inspectorglobal.h>

#include <QtCore/QAbstractTableModel>
#include <QtCore/QPointer>
#include <QtCore/QTimer>

namespace DataClient {

class Controller;
class InspectorRequestsModel;

/*!
    Fixed rows (Row), two columns (Name, Value). The values are read again in the next
    event-loop turn after the Controller changes; only rows whose value changed get
    dataChanged(). "memory used" (a walk of the whole store) is read when the row is looked at,
    and again at most every MemoryIntervalMs while the store changes. Without a controller every value is empty and "controller" says
    "no controller".
*/
class DATACLIENT_INSPECTOR_EXPORT InspectorStatusModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Row {
        ControllerRow,
        OnlineRow,
        InFlightRow,
        EntityTypesRow,
        EntitiesRow,
        ResultsRow,
        OptimisticLayersRow,
        OutboxRow,
        MemoryRow,
        MemoryBudgetRow,
        GcRow,
        GcLastPassRow, //!< when the last garbage-collection pass ran, how much it dropped
        GcDroppedRow, //!< the keys and entities it dropped (the first 20 of each)
        PersistenceRow,
        RecordedRow,
        RowCount
    };
    Q_ENUM(Row)
    enum Column { Name, Value, ColumnCount };
    enum Role { NameRole = Qt::UserRole + 1, ValueRole };
    static constexpr int MemoryIntervalMs = 500;

    explicit InspectorStatusModel(InspectorRequestsModel *requests, QObject *parent = nullptr);
    ~InspectorStatusModel() override;

    void setController(Controller *controller);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    //! The value of \a row as shown.
    QString value(Row row) const;

private:
    void scheduleRefresh();
    void refresh();
    QStringList compute() const;
    QString memoryText() const;
    void memoryMayHaveChanged();

    InspectorRequestsModel *m_requests;
    QPointer<Controller> m_controller;
    QList<QMetaObject::Connection> m_connections;
    QStringList m_values;
    bool m_refreshScheduled = false;
    QTimer m_memoryTimer;
    mutable QString m_memory;
    mutable bool m_memoryStale = true;
    mutable bool m_memoryLookedAt = false;
};

} // namespace DataClient
