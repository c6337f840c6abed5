// Controller.set() and Controller.remove(): entities written from QML without an endpoint show in
// the lists and views fetched from the server; bad arguments return and warn the error and write
// nothing.
import QtQuick
import QtTest
import DataClient

TestCase {
    id: testCase
    name: "EntityWrites"

    Entity { id: user; key: "User"; primaryKey: "id"; fields: ({ id: 0, name: "" }) }
    Entity {
        id: todo
        key: "Todo"
        primaryKey: "id"
        fields: ({ id: 0, userId: 0, title: "", completed: false, author: user })
    }
    Resource { id: todos; urlPrefix: backend.url; path: "/todos/:id"; schema: todo; retry: false }

    Component {
        id: listQuery
        Suspense { endpoint: todos.getList; params: ({}) }
    }
    Component {
        id: oneQuery
        Suspense { property int todoId: 2; endpoint: todos.get; params: ({ id: todoId }) }
    }

    function init() {
        backend.reset()
        Controller.resetEntireStore()
    }

    function loaded(component, properties) {
        const query = createTemporaryObject(component, testCase, properties || {})
        tryCompare(query, "status", Suspense.Ready)
        return query
    }

    function rowOf(list, id) {
        for (let row = 0; row < list.count; ++row)
            if (list.get(row).id === id)
                return list.get(row)
        return null
    }

    function test_setShowsInTheFetchedListAndView() {
        const list = loaded(listQuery)
        const one = loaded(oneQuery)
        const requests = backend.totalRequests()
        compare(Controller.set(todo, { id: 2, userId: 1, title: "pushed", completed: true }), "")
        compare(rowOf(list, 2).title, "pushed")
        compare(rowOf(list, 2).completed, true)
        compare(one.data.title, "pushed")
        compare(backend.totalRequests(), requests) // nothing was sent
    }

    // The snippet of docs/controller.md, run as it is shown there.
    function test_theDocsSnippet() {
        const list = loaded(listQuery)
        const message = { todos: [{ id: 9, title: "nine" }], sentAt: new Date() }
        Controller.set(todo, { id: 2, title: "from the socket" })  // an Entity, [Entity] or todos.get
        Controller.set([todo], message.todos, message.sentAt)      // a Date or ms since the epoch
        const error = Controller.remove(todo, 3)                   // "" when written
        compare(error, "")
        compare(rowOf(list, 2).title, "from the socket")
        compare(rowOf(list, 3), null)
    }

    function test_setManyThroughAListSchemaOrAnEndpoint_data() {
        return [
            { tag: "[Entity]", schema: () => [todo] },
            { tag: "getList endpoint", schema: () => todos.getList },
            { tag: "Entity with an array", schema: () => todo },
        ]
    }
    function test_setManyThroughAListSchemaOrAnEndpoint(data) {
        const list = loaded(listQuery)
        const count = list.count
        compare(Controller.set(data.schema(), [
            { id: 3, title: "three", author: { id: 7, name: "Ada" } },
            { id: 50, title: "fifty" },
        ]), "")
        compare(rowOf(list, 3).title, "three")
        compare(rowOf(list, 3).author.name, "Ada") // the nested entity too
        compare(list.count, count) // a list changes by its own answers only
        // A view of an entity written by set() shows it without a request.
        const requests = backend.totalRequests()
        const fifty = loaded(oneQuery, { todoId: 50 })
        compare(fifty.data.title, "fifty")
        compare(backend.totalRequests(), requests)
    }

    function test_setDatedBeforeTheAnswerKeepsIt() {
        const list = loaded(listQuery)
        const title = rowOf(list, 1).title
        compare(Controller.set(todo, { id: 1, title: "old news" }, new Date(2000, 0, 1)), "")
        compare(rowOf(list, 1).title, title)
        compare(Controller.set(todo, { id: 1, title: "news" }), "")
        compare(rowOf(list, 1).title, "news")
    }

    function test_removeHidesTheEntityFromTheFetchedList() {
        const list = loaded(listQuery)
        const count = list.count
        compare(Controller.remove(todo, 4), "")
        compare(list.count, count - 1)
        compare(rowOf(list, 4), null)
        compare(Controller.remove(todos.remove, "3"), "") // a delete endpoint names the entity too
        compare(rowOf(list, 3), null)
        // Dated before a newer write: kept.
        compare(Controller.set(todo, { id: 5, title: "five" }), "")
        compare(Controller.remove(todos.get, "5", 1), "")
        compare(rowOf(list, 5).title, "five")
    }

    function test_badArgumentsWriteNothing_data() {
        return [
            { tag: "null schema", call: () => Controller.set(null, { id: 1 }),
              message: /set\(\): .*expected an Entity schema.*found a null schema/ },
            { tag: "not a schema", call: () => Controller.set(testCase, { id: 1 }),
              message: /Controller.set\(\): the first argument must be an Entity, \[Entity\] or an endpoint/ },
            { tag: "a number", call: () => Controller.set(todo, 5),
              message: /set\(Todo\): .*expected an object, or an array of objects/ },
            { tag: "a number in the array", call: () => Controller.set([todo], [{ id: 1 }, 2]),
              message: /set\(Todo\): .*\[1\].*expected an object/ },
            { tag: "no primary key", call: () => Controller.set(todo, { title: "x" }),
              message: /set\(Todo\): .*id/ },
            { tag: "negative date", call: () => Controller.set(todo, { id: 1 }, -1),
              message: /set\(Todo\): .*expected a date of 0 \(now\) or more/ },
            { tag: "date not a number", call: () => Controller.set(todo, { id: 1 }, "yesterday"),
              message: /Controller.set\(\): the date must be a Date or a number of ms/ },
            { tag: "remove: object pk", call: () => Controller.remove(todo, { id: 1 }),
              message: /Controller.remove\(Todo\): the primary key must be a string or a number/ },
            { tag: "remove: unknown pk", call: () => Controller.remove(todo, 999),
              message: /remove\(Todo\): .*"999", which the store does not hold/ },
            { tag: "remove: object schema", call: () => Controller.remove({ results: [todo] }, 1),
              message: /remove\(\[Todo\]\): .*expected an Entity schema.*found an Object schema/ },
        ]
    }
    function test_badArgumentsWriteNothing(data) {
        const list = loaded(listQuery)
        const count = list.count
        const title = rowOf(list, 1).title
        const requests = backend.totalRequests()
        ignoreWarning(data.message)
        const error = data.call()
        verify(data.message.test(error), error)
        compare(list.count, count)
        compare(rowOf(list, 1).title, title)
        compare(backend.totalRequests(), requests)
    }
}
