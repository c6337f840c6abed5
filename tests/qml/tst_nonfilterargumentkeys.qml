// Resource.nonFilterArgumentKeys (the `Collection` option in QML): the function decides
// which list arguments do not filter, so which shown lists a pushed todo joins.
import QtQuick
import QtTest
import DataClient

TestCase {
    id: testCase
    name: "NonFilterArgumentKeys"
    when: windowShown

    Entity {
        id: todo
        key: "Todo"
        primaryKey: "id"
        fields: ({ id: 0, userId: 0, title: "", completed: false })
    }
    Component {
        id: resourceComponent
        Resource {
            urlPrefix: backend.url
            path: "/todos/:id"
            schema: todo
            searchParams: ["userId"]
        }
    }
    Component {
        id: listQuery
        Suspense { }
    }

    function init() {
        backend.reset()
        Controller.resetEntireStore()
    }

    function todosOfUser(userId) {
        let count = 0
        for (let id = 1; id <= 12; ++id)
            if (backend.todo(id).userId === userId)
                ++count
        return count
    }

    // The shown lists, in this order; `grows` says which of them get the new todo.
    readonly property var lists: [
        { userId: 1 },
        { userId: 1, ignoredMe: 5 },
        { userId: 2 },
        { },
    ]

    function test_pushJoinsTheListsTheFunctionAllows_data() {
        return [
            { tag: "not set: every key but order* filters", grows: [true, false, false, true] },
            { tag: "ignoredMe does not filter", keys: key => key === "ignoredMe",
              grows: [true, true, false, true] },
            { tag: "no key filters", keys: key => true, grows: [true, true, true, true] },
            { tag: "a function that throws: the default", keys: key => { throw new Error("no") },
              grows: [true, false, false, true] },
        ]
    }
    function test_pushJoinsTheListsTheFunctionAllows(data) {
        const options = data.keys === undefined ? {} : { nonFilterArgumentKeys: data.keys }
        const resource = createTemporaryObject(resourceComponent, testCase, options)
        verify(resource)
        verify(resource.valid, resource.errorString)

        const queries = []
        const before = []
        for (const params of lists) {
            const query = createTemporaryObject(listQuery, testCase,
                                                { endpoint: resource.getList, params: params })
            tryCompare(query, "status", Suspense.Ready)
            queries.push(query)
            before.push(query.count)
        }
        // the server does not filter by ignoredMe: both lists of user 1 hold the same todos
        compare(before[0], todosOfUser(1))
        compare(before[1], todosOfUser(1))
        compare(before[2], todosOfUser(2))
        compare(before[3], 12)

        const result = Controller.fetch(resource.push, { userId: 1 },
                                        { userId: 1, title: "pushed", completed: false })
        tryCompare(result, "status", FetchResult.Ready)
        const request = backend.lastRequest()
        compare(request.method, "POST")
        compare(request.path, "/todos")
        compare(request.body.title, "pushed")
        const id = result.value.id
        verify(id > 12, "a new id: " + id) // (the server never reuses an id)

        tryCompare(queries[0], "count", before[0] + 1)
        for (let i = 0; i < lists.length; ++i) {
            const label = JSON.stringify(lists[i])
            compare(queries[i].count, before[i] + (data.grows[i] ? 1 : 0), label)
            if (data.grows[i])
                compare(queries[i].get(queries[i].count - 1).id, id, label + ": appended last")
        }
    }

    function test_changingTheFunctionRebuildsTheMembers() {
        const resource = createTemporaryObject(resourceComponent, testCase)
        const spy = createTemporaryObject(signalSpy, testCase,
                                          { target: resource, signalName: "membersChanged" })
        resource.nonFilterArgumentKeys = key => key === "ignoredMe"
        compare(spy.count, 1)
        verify(resource.valid)
        ignoreWarning(/`nonFilterArgumentKeys` must be a function/)
        resource.nonFilterArgumentKeys = "ignoredMe"
        verify(!resource.valid)
        verify(/nonFilterArgumentKeys/.test(resource.errorString), resource.errorString)
    }
    Component {
        id: signalSpy
        SignalSpy { }
    }
}
