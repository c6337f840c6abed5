// Shared by the persisted-store tests and their child process (persistchild.cpp): the Todo
// schema, a todo list endpoint and a list of todos written in one "round".
#pragma once

#include <DataClient/controller.h>
#include <DataClient/entityschema.h>
#include <DataClient/restendpoint.h>
#include <DataClient/schema.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>

namespace PersistFixture {

using namespace DataClient;
using namespace Qt::StringLiterals;

inline Schema todoList(const QString &pkField = u"id"_s)
{
    return Schema::array(Schema::entity(EntitySchema(u"Todo"_s, pkField)));
}

//! GET <prefix>/todos with the Todo list schema.
inline EndpointPtr todos(const QString &prefix, bool persist = true,
                         const Schema &schema = todoList())
{
    return RestEndpoint::create(
        {.path = u"/todos"_s, .urlPrefix = prefix, .schema = schema, .persist = persist});
}

//! The todo list at a port nothing listens on: written with setResponse(), never fetched.
inline EndpointPtr offline()
{
    return todos(u"http://127.0.0.1:9"_s);
}

//! \a count todos, every one carrying \a round (a complete state has one round throughout).
inline QJsonArray todoValues(int count, int round)
{
    QJsonArray list;
    for (int i = 0; i < count; ++i) {
        list.append(QJsonObject {{u"id"_s, i + 1},
                                 {u"title"_s, u"todo %1 é"_s.arg(i + 1)},
                                 {u"round"_s, round},
                                 {u"done"_s, i % 2 == 0}});
    }
    return list;
}

} // namespace PersistFixture
