// The ids of a list model's rows, in order.
#pragma once

#include "readback.h"

#include <DataClient/collectionmodel.h>

inline QList<int> modelIds(const DataClient::CollectionModel &model)
{
    QList<int> result;
    for (int row = 0; row < model.rowCount(); ++row)
        result.append(ReadBack::toMap(model.get(row)).value(QStringLiteral("id")).toInt());
    return result;
}
