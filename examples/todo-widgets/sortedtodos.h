// The todo table's model: the todos sorted by a header click, and a row the server has not
// confirmed yet (the model's PendingRole: a new todo, or an edit on its way) drawn grey, as in the
// QML demo.
#pragma once

#include <DataClient/collectionmodel.h>

#include <QtCore/QSortFilterProxyModel>
#include <QtGui/QBrush>
#include <QtGui/QColor>

class SortedTodos : public QSortFilterProxyModel
{
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    QVariant data(const QModelIndex &index, int role) const override
    {
        if (role == Qt::ForegroundRole && index.isValid()
            && index.data(DataClient::CollectionModel::PendingRole).toBool())
            return QBrush(QColor(0x99, 0x99, 0x99));
        return QSortFilterProxyModel::data(index, role);
    }
};
