// Every signal a view reacts to, counted: the list model tests assert the exact signals a change
// gives (one dataChanged, one rowsInserted, ... and never a modelReset where none is due).
#pragma once

#include <QtCore/QAbstractItemModel>
#include <QSignalSpy>

struct ModelSignals
{
    explicit ModelSignals(QAbstractItemModel *model)
        : inserted(model, &QAbstractItemModel::rowsInserted),
          removed(model, &QAbstractItemModel::rowsRemoved),
          moved(model, &QAbstractItemModel::rowsMoved),
          changed(model, &QAbstractItemModel::dataChanged),
          reset(model, &QAbstractItemModel::modelReset),
          layout(model, &QAbstractItemModel::layoutChanged)
    { }
    int total() const
    {
        return int(inserted.size() + removed.size() + moved.size() + changed.size() + reset.size()
                   + layout.size());
    }
    void clear()
    {
        for (QSignalSpy *spy : {&inserted, &removed, &moved, &changed, &reset, &layout})
            spy->clear();
    }
    QSignalSpy inserted, removed, moved, changed, reset, layout;
};
