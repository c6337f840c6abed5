// InspectorStatusModel: a Controller's state in rows of name and value — connectivity, memory and
// garbage collection, persistence, counts (StoreInspector::status(); docs/inspector.md).
#pragma once

#include <DataClient/inspectorglobal.h>

#include <QtCore/QAbstractTableModel>
#include <QtCore/QPointer>

namespace DataClient {

class Controller;
class InspectorRequestsModel;

/*!
    Fixed rows (Row), two columns (Name, Value). The values are read again in the next
    event-loop turn after the Controller changes; only rows whose value changed get
    dataChanged(). Without a controller every value is empty and "controller" says
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
        PersistenceRow,
        RecordedRow,
        RowCount
    };
    Q_ENUM(Row)
    enum Column { Name, Value, ColumnCount };
    enum Role { NameRole = Qt::UserRole + 1, ValueRole };

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
    QString value(Row row) const { return m_values.value(row); }

private:
    void scheduleRefresh();
    void refresh();
    QStringList compute() const;

    InspectorRequestsModel *m_requests;
    QPointer<Controller> m_controller;
    QList<QMetaObject::Connection> m_connections;
    QStringList m_values;
    bool m_refreshScheduled = false;
};

} // namespace DataClient
