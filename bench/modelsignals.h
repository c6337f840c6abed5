// Counting what a view of a model would react to (q.model.*, n.refetch*).
#pragma once

#include <QtCore/QAbstractItemModel>
#include <QtCore/QList>

#include <functional>

namespace Bench {

//! Counts every row, data and reset signal a model emits; \a onSignal runs on each.
struct SignalCount
{
    explicit SignalCount(QAbstractItemModel *model, std::function<void()> onSignal = {})
    {
        auto count = [this, onSignal] {
            ++total;
            if (onSignal)
                onSignal();
        };
        connections = {
            QObject::connect(model, &QAbstractItemModel::dataChanged, count),
            QObject::connect(model, &QAbstractItemModel::rowsInserted, count),
            QObject::connect(model, &QAbstractItemModel::rowsRemoved, count),
            QObject::connect(model, &QAbstractItemModel::rowsMoved, count),
            QObject::connect(model, &QAbstractItemModel::modelReset, count),
            QObject::connect(model, &QAbstractItemModel::layoutChanged, count),
        };
    }
    ~SignalCount()
    {
        for (const auto &connection : connections)
            QObject::disconnect(connection);
    }
    int total = 0;
    QList<QMetaObject::Connection> connections;
};

} // namespace Bench
