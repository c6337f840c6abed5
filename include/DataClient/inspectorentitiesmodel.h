// InspectorEntitiesModel: the entities of a Controller's store as a tree, entity types at the top,
// their entities below (StoreInspector::entities(); docs/inspector.md).
#pragma once

#include <DataClient/entityrefset.h>
#include <DataClient/inspectorglobal.h>

#include <QtCore/QAbstractItemModel>
#include <QtCore/QHash>
#include <QtCore/QPointer>
#include <QtCore/QSet>
#include <QtCore/QStringList>

namespace DataClient {

class Controller;
struct ChangeSet;

/*!
    Top-level rows: the entity types (column Name: "Todo", Fields: how many are shown). Their
    children: the entities shown (committed, or made by an optimistic layer), in the order they
    were first stored: column Name is the pk, Fields the record as compact JSON (cut after
    PreviewChars characters: a record of 60k fields shows its start at once), References the
    entities it refers to, State "optimistic" while an optimistic layer changes it.

    Changes of the store arrive in the next event-loop turn as the smallest signals: rows
    inserted and removed where entities appeared or went, dataChanged() over the changed ones.
    A type filled at once (a first page) is counted, and its pks are read when something first
    looks at its rows; a change of it before that shows its rows again at once (a removal and an
    insertion: nothing showed them).
*/
class DATACLIENT_INSPECTOR_EXPORT InspectorEntitiesModel : public QAbstractItemModel
{
    Q_OBJECT

public:
    enum Column { Name, Fields, References, State, ColumnCount };
    Q_ENUM(Column)
    enum Role {
        TypeRole = Qt::UserRole + 1, //!< the entity key ("Todo")
        PkRole, //!< entities only
        FieldsRole, //!< the record's preview (compact JSON, cut)
        ReferencesRole, //!< "User:1" of each entity it refers to
        OptimisticRole, //!< an optimistic layer changes it
        CountRole, //!< types only: how many entities
    };
    Q_ENUM(Role)
    static constexpr int PreviewChars = 240;

    explicit InspectorEntitiesModel(QObject *parent = nullptr);
    ~InspectorEntitiesModel() override;

    //! Shows \a controller's store (nullptr: empty).
    void setController(Controller *controller);

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    //! The index of entity \a pk of \a type (column 0), invalid when not shown.
    Q_INVOKABLE QModelIndex entityIndex(const QString &type, const QString &pk) const;
    //! The row of \a type at the top level, -1 if none.
    Q_INVOKABLE int typeRow(const QString &type) const;
    //! "Todo:5" of every shown entity that refers to this one (a walk of the store).
    Q_INVOKABLE QStringList referencedBy(const QString &type, const QString &pk) const;
    //! The result keys whose answers show this entity (a walk of the stored results).
    Q_INVOKABLE QStringList shownIn(const QString &type, const QString &pk) const;

private:
    struct Type
    {
        QString key;
        //! Stable for the model's lifetime: the internal id of the type's children (a type row
        //! inserted above moves the row, not the id persistent indexes hold).
        quintptr id = 0;
        //! The pks of the rows, in order; empty while unread > 0.
        mutable QStringList pks;
        //! Rows shown whose pks were not read yet (a type filled at once: its count comes from
        //! the store, its pks when something first looks at them); -1 once read. A change of
        //! the type while unread shows its rows again at once (showAgain()).
        mutable qsizetype unread = -1;
        int size() const { return int(unread >= 0 ? unread : pks.size()); }
        //! pk -> row in pks, built by rowOf() when first needed after the rows moved.
        mutable QHash<QString, int> rows;
        mutable bool indexed = false;
    };
    void onChanged(const ChangeSet &changes);
    void scheduleRefresh();
    void refresh();
    void syncTypes();
    bool updateInPlace(int typeRow, const QSet<QString> &pks);
    void syncEntities(int typeRow, const QSet<QString> &dirty, bool bulk);
    void emitChangedRows(const Type &type, QList<int> rows);
    int rowOf(const Type &type, const QString &pk) const;
    //! Reads the pks of \a type if they were not; false without a controller.
    bool read(const Type &type) const;
    //! The entities of a type seen for the first time: counted now, read when looked at.
    void fill(Type &type) const;
    //! Removes the type's rows and inserts them again as the store has them now (unread).
    void showAgain(int typeRow);
    int rowOfTypeId(quintptr id) const;

    QPointer<Controller> m_controller;
    QMetaObject::Connection m_changed;
    QList<Type> m_types;
    //! The entities changed since the last refresh (sets shared with the ChangeSets).
    QList<EntityRefSet> m_pending;
    //! Types that appeared in the last syncTypes(): their entities are read next.
    QSet<QString> m_newTypes;
    bool m_refreshScheduled = false;
    quintptr m_nextTypeId = 1;
};

} // namespace DataClient
