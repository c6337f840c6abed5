// Shared fixtures of the Controller tests: a Todo/User schema, a resource on a FakeRestApi
// served by the in-process TestServer, a way to wait for a QFuture, and a recorder of the
// Controller's changed() signal.
#pragma once

#include <DataClient/controller.h>
#include <DataClient/createresource.h>
#include <DataClient/store.h>
#include <DataClient/testing/outcome.h>
#include <DataClient/testing/fakerestapi.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QFuture>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QObject>
#include <QTest>

#include <memory>
#include <optional>

namespace ControllerFixture {

using namespace DataClient;
using namespace Qt::StringLiterals;

//! What a future ended with: the shipped kit's Outcome (`const Outcome o = await(...)` deduces
//! Outcome<QVariant>).
using Testing::Outcome;

//! The shipped Testing::awaitOutcome() under the Controller tests' short name.
inline Outcome<QVariant> await(QFuture<QVariant> future, int timeoutMs = 5000)
{
    return Testing::awaitOutcome(future, timeoutMs);
}

//! Records every changed() emission.
class ChangeRecorder : public QObject
{
public:
    explicit ChangeRecorder(Controller *controller)
    {
        connect(controller, &Controller::changed, this,
                [this](const ChangeSet &changes) { sets.append(changes); });
    }
    QList<ChangeSet> sets;
    //! Every emission united.
    ChangeSet all() const
    {
        ChangeSet united;
        for (const ChangeSet &set : sets)
            united.unite(set);
        return united;
    }
    void clear() { sets.clear(); }
};

inline EntityRef todoRef(int id)
{
    return {u"Todo"_s, QString::number(id)};
}

//! The stored collection of getList with \a args (EntityRef of a collection: "[Todo]" + the
//! arguments key).
inline EntityRef todoListRef(const Params &args = {})
{
    return {u"[Todo]"_s, Collection::argumentsKey(args)};
}

inline Schema userSchema()
{
    return Schema::entity(EntitySchema(u"User"_s));
}

inline Schema todoSchema()
{
    return Schema::entity(EntitySchema(u"Todo"_s).withNested(u"author"_s, userSchema()));
}

inline QJsonObject todo(int id, int userId, const QString &title, bool completed = false)
{
    return {{u"id"_s, id}, {u"userId"_s, userId}, {u"title"_s, title}, {u"completed"_s, completed}};
}

//! Five todos: 1-3 of user 1, 4-5 of user 2.
inline QJsonArray seedTodos()
{
    return {todo(1, 1, u"one"_s), todo(2, 1, u"two"_s), todo(3, 1, u"three"_s, true),
            todo(4, 2, u"four"_s), todo(5, 2, u"five"_s)};
}

//! The ids of a denormalized list, in order.
inline QList<int> ids(const QVariant &list)
{
    QList<int> result;
    const QVariantList items = list.toList();
    for (const QVariant &item : items)
        result.append(item.toMap().value(u"id"_s).toInt());
    return result;
}

inline QVariantMap field(const QVariant &entity)
{
    return entity.toMap();
}

/*!
    A TestServer with a FakeRestApi serving \a seedTodos() at /todos (page-number pagination,
    2 per page on `?page=N`), and the todo resource on it: optimistic mutations, getPage.
*/
struct TodoBackend
{
    DataClient::Testing::TestServer server;
    DataClient::Testing::FakeRestApi api {&server};
    Resource todos;

    //! Listens, serves the seed, builds the resource. Tests make one backend per test function
    //! (init()), so routes a test adds never leak into the next.
    bool start(bool optimistic = true)
    {
        if (!server.listen())
            return false;
        DataClient::Testing::FakeRestApi::Options options;
        options.pagination = DataClient::Testing::FakeRestApi::Pagination::PageNumber;
        options.pageSize = 2;
        if (!api.addCollection(u"/todos"_s, seedTodos(), options))
            return false;
        todos = resource(optimistic);
        return todos.isValid();
    }
    Resource resource(bool optimistic, int pollFrequency = 0) const
    {
        return createResource({.path = u"/todos/:id"_s,
                               .schema = todoSchema(),
                               .urlPrefix = server.url(),
                               .searchParams = {u"userId"_s},
                               .paginationField = u"page"_s,
                               .optimistic = optimistic,
                               .pollFrequency = pollFrequency});
    }
};

/*!
    Base of the test classes that run against a TodoBackend: a fresh backend (server, seed,
    resource) and a fresh Controller for every test function, torn down controller first.
    A subclass passes whether the resource is optimistic and may prepare the Controller further
    in setUp().
*/
class BackendTest : public QObject
{
    Q_OBJECT

protected:
    explicit BackendTest(bool optimistic = false) : m_optimistic(optimistic) { }
    //! Runs after the backend and the Controller exist; QVERIFY may be used.
    virtual void setUp() { }

    std::unique_ptr<TodoBackend> backend;
    std::unique_ptr<Controller> controller;
    Resource todos;

private Q_SLOTS:
    void init()
    {
        backend = std::make_unique<TodoBackend>();
        QVERIFY(backend->start(m_optimistic));
        todos = backend->todos;
        controller = std::make_unique<Controller>();
        setUp();
    }
    void cleanup()
    {
        controller.reset();
        backend.reset();
    }

private:
    bool m_optimistic;
};

/*!
    A route whose answers the test sends when it wants, to order replies deterministically:
    requests are kept with their responders in arrival order.
*/
struct DeferredReplies
{
    struct Pending
    {
        DataClient::Testing::RecordedRequest request;
        DataClient::Testing::TestServer::Responder responder;
    };
    QList<Pending> pending;

    void install(DataClient::Testing::TestServer &server, const QByteArray &method,
                 const QString &path)
    {
        server.routeDeferred(method, path,
                             [this](const DataClient::Testing::RecordedRequest &request,
                                    const DataClient::Testing::TestServer::Responder &responder) {
                                 pending.append({request, responder});
                             });
    }
    //! Waits until \a count requests arrived.
    bool waitFor(qsizetype count, int timeoutMs = 5000)
    {
        return QTest::qWaitFor([&] { return pending.size() >= count; }, timeoutMs);
    }
    //! The pending request whose JSON body has \a field == \a value.
    qsizetype indexOf(const QString &field, const QJsonValue &value) const
    {
        for (qsizetype i = 0; i < pending.size(); ++i) {
            if (pending.at(i).request.json().toObject().value(field) == value)
                return i;
        }
        return -1;
    }
};

} // namespace ControllerFixture
