// The fault suite's one question after every fault: does the Controller show what the server
// confirmed? Compares every todo the Controller can show, and every stored todo list, with the
// FakeRestApi's collection, and names the first difference (empty when they agree).
#pragma once

#include "controllerfixture.h"

#include <DataClient/testing/fakerestapi.h>

#include <QtCore/QJsonDocument>
#include <QtCore/QStringList>

namespace ServerView {

using namespace ControllerFixture;

//! The server's todos of \a userId, in the server's order.
inline QJsonArray serverList(const DataClient::Testing::FakeRestApi &api, int userId)
{
    QJsonArray list;
    const QJsonArray all = api.collection(u"/todos"_s);
    for (const QJsonValue &item : all) {
        if (item.toObject().value(u"userId"_s).toInt() == userId)
            list.append(item);
    }
    return list;
}

inline QString compact(const QJsonValue &value)
{
    return QString::fromUtf8(QJsonDocument(QJsonArray {value}).toJson(QJsonDocument::Compact));
}

/*!
    What the Controller shows that the server does not hold, or "" when both agree:
    - every todo id up to \a maxId: the Controller shows it only if the server holds it, and then
      with the server's fields (its view includes optimistic layers, so a layer left behind
      shows up here);
    - every stored list of \a userIds (getList {userId}): when the Controller has one, it is the
      server's list of that user, in the server's order;
    - no optimistic layer is left.
*/
inline QString differences(const Controller &controller,
                           const DataClient::Testing::FakeRestApi &api, const Resource &todos,
                           int maxId, const QList<int> &userIds = {1, 2})
{
    QStringList found;
    for (int id = 1; id <= maxId; ++id) {
        const QJsonObject truth = api.item(u"/todos"_s, id);
        const Denormalized shown = controller.get(todoSchema(), {{u"id"_s, id}});
        if (!shown.found)
            continue; // the Controller does not show it: nothing to contradict the server
        const QJsonObject view = QJsonObject::fromVariantMap(shown.data.toMap());
        if (truth.isEmpty())
            found << u"todo %1 is shown (%2) but the server deleted it"_s.arg(id).arg(
                compact(view));
        else if (view != truth)
            found << u"todo %1 is shown as %2, the server holds %3"_s.arg(id).arg(compact(view),
                                                                                  compact(truth));
    }
    for (const int userId : userIds) {
        const ResponseState state = controller.getResponse(todos.getList, {{u"userId"_s, userId}});
        if (!state.found)
            continue;
        QJsonArray view;
        const QVariantList items = state.data.toList();
        for (const QVariant &item : items) // Records: read each through toMap()
            view.append(QJsonObject::fromVariantMap(item.toMap()));
        const QJsonArray truth = serverList(api, userId);
        if (view != truth)
            found << u"the list of user %1 is %2, the server's is %3"_s.arg(userId).arg(
                compact(view), compact(truth));
    }
    if (!controller.store().optimisticLayers().isEmpty())
        found << u"%1 optimistic layer(s) left"_s.arg(controller.store().optimisticLayers().size());
    return found.join(u"; "_s);
}

} // namespace ServerView
