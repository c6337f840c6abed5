// InspectorRequestsModel: the requests of a Controller, in flight and a bounded history
// (StoreInspector::requests(); docs/inspector.md).
#pragma once

#include <DataClient/entityrefset.h>
#include <DataClient/inspectorglobal.h>

#include <QtCore/QAbstractTableModel>
#include <QtCore/QElapsedTimer>
#include <QtCore/QStringList>
#include <QtCore/QUrl>

namespace DataClient {

struct ChangeSet;
class ManagedRequest;
class NetworkError;
namespace detail {
class RequestRecorder;
}

/*!
    One row per request the Controller made since the inspector attached, oldest first: the
    ones in flight, and the last historyLimit finished ones (older finished rows are removed).
    A row changes in place as its request goes on (attempts, status, bytes, keys written).
*/
class DATACLIENT_INSPECTOR_EXPORT InspectorRequestsModel : public QAbstractTableModel
{
    Q_OBJECT
    Q_PROPERTY(int count READ rowCount NOTIFY countChanged)
    Q_PROPERTY(int inFlight READ inFlight NOTIFY countChanged)

public:
    enum Column {
        Method,
        Url,
        Status,
        Attempts,
        Duration,
        Bytes,
        KeysWritten,
        State,
        Error,
        ColumnCount
    };
    Q_ENUM(Column)
    enum Role {
        MethodRole = Qt::UserRole + 1,
        UrlRole,
        HttpStatusRole,
        AttemptsRole,
        DurationRole, //!< ms, -1 while in flight
        BytesRole,
        NotModifiedRole, //!< answered 304: the stored data was kept
        KeysWrittenRole, //!< the result keys its answer wrote
        EntitiesWrittenRole,
        StateRole, //!< "in flight", "done", "not modified", "failed", "canceled"
        ErrorRole,
        KeyRole, //!< the cache key it reads or writes
        SummaryRole, //!< one line: "GET /todos?userId=1 200 12 ms"
    };
    Q_ENUM(Role)

    explicit InspectorRequestsModel(QObject *parent = nullptr);
    ~InspectorRequestsModel() override;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    int historyLimit() const { return m_historyLimit; }
    void setHistoryLimit(int limit);
    int inFlight() const;
    //! Empties the model (a detach).
    void clear();

Q_SIGNALS:
    void countChanged();
    //! The answer of a request for \a key (its body: \a bytes) is in the store.
    void answerStored(const QString &key, qint64 bytes);

private:
    friend class detail::RequestRecorder;
    enum class RowState { InFlight, Done, NotModified, Failed, Canceled };
    struct Row
    {
        quint64 id = 0;
        QByteArray method;
        QUrl url;
        QString key;
        int status = 0;
        int attempts = 0;
        QElapsedTimer timer;
        qint64 durationMs = -1;
        qint64 bytes = 0;
        QStringList keysWritten;
        EntityRefSet entitiesWritten;
        RowState state = RowState::InFlight;
        QString error;
    };

    // What the recorder tells (the Manager steps of one request).
    void started(const ManagedRequest &request);
    void attempt(const ManagedRequest &request);
    void answered(const ManagedRequest &request);
    void attemptFailed(const ManagedRequest &request, const NetworkError &error);
    void committed(const ManagedRequest &request, const ChangeSet &changes);
    void failed(const ManagedRequest &request, const NetworkError &error);
    void storeReset();

    int rowOf(quint64 id) const;
    //! The row of \a request, added when it has none.
    int rowFor(const ManagedRequest &request);
    void finish(int row, RowState state);
    void rowChanged(int row);
    void trimHistory();
    static QString stateName(RowState state);
    QString summary(const Row &row) const;

    QList<Row> m_rows;
    int m_historyLimit = 200;
};

} // namespace DataClient
