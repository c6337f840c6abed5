// Base of the tests of the race between reads and changes that wait (docs/controller.md
// "Requests are dated when they are sent"): the virtual-time fixture (server, Controller on a
// VirtualClock, a manual Connectivity) with garbage collection off, and a todo resource whose
// changes are optimistic and queue in the outbox.
#pragma once

#include "virtualtimefixture.h"

#include <DataClient/createresource.h>
#include <DataClient/rowlist.h>

#include <QtCore/QJsonArray>

#include <optional>

class OutboxRaceTest : public VirtualTimeTest
{
    Q_OBJECT

protected:
    static constexpr int todoCount = 4;
    DataClient::Resource todos;

    void setUp() override
    {
        controller->setGcEnabled(false); // the virtual clock jumps over backoffs
        todos = makeTodos();
    }
    DataClient::Resource makeTodos() const
    {
        using namespace Qt::StringLiterals;
        return DataClient::createResource({.path = u"/todos/:id"_s,
                                           .schema = ControllerFixture::todoSchema(),
                                           .urlPrefix = server->url(),
                                           .optimistic = true,
                                           .queueWhenOffline = true});
    }
    //! Todos 1..todoCount of user 1, none completed.
    static QJsonArray untickedTodos()
    {
        using namespace Qt::StringLiterals;
        QJsonArray seed;
        for (int id = 1; id <= todoCount; ++id)
            seed.append(ControllerFixture::todo(id, 1, u"todo %1"_s.arg(id)));
        return seed;
    }
    //! Todo \a id as the list shows it: completed, or nullopt when the list does not show it.
    std::optional<bool> shownCompleted(int id) const
    {
        using namespace Qt::StringLiterals;
        const DataClient::ResponseState state = controller->getResponse(todos.getList);
        for (const QVariant &row : DataClient::rowsOf(state.data)) {
            const QVariantMap map = row.toMap();
            if (map.value(u"id"_s).toInt() == id)
                return map.value(u"completed"_s).toBool();
        }
        return std::nullopt;
    }
};
