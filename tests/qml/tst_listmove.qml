// Lists that follow their data, in QML: a todo completed through getList.move or a partialUpdate
// leaves the "open" Suspense and joins the "done" one, as one rowsRemoved and one rowsInserted.
import QtQuick
import QtTest
import DataClient

TestCase {
    id: testCase
    name: "ListMove"
    when: windowShown

    Entity {
        id: todo
        key: "Todo"
        primaryKey: "id"
        fields: ({ id: 0, userId: 0, title: "", completed: false })
    }
    Resource {
        id: todos
        urlPrefix: backend.url
        path: "/todos/:id"
        schema: todo
        searchParams: ["completed"]
    }
    Resource {
        id: keeping
        urlPrefix: backend.url
        path: "/todos/:id"
        schema: todo
        searchParams: ["completed"]
        followChanges: false
    }
    Component {
        id: listQuery
        Suspense { }
    }
    Component {
        id: spyComponent
        SignalSpy { }
    }

    function init() {
        backend.reset()
        Controller.resetEntireStore()
    }

    function test_aCompletedTodoMovesFromOpenToDone_data() {
        return [
            { tag: "getList.move", member: () => todos.getList.move, withOldArgs: true },
            { tag: "partialUpdate (re-filtering)", member: () => todos.partialUpdate },
        ]
    }
    function test_aCompletedTodoMovesFromOpenToDone(data) {
        verify(todos.getList.move)
        verify(todos.getList.remove)
        verify(todos.getList.assign)
        const open = createTemporaryObject(listQuery, testCase,
                                           { endpoint: todos.getList, params: { completed: false } })
        const done = createTemporaryObject(listQuery, testCase,
                                           { endpoint: todos.getList, params: { completed: true } })
        tryCompare(open, "status", Suspense.Ready)
        tryCompare(done, "status", Suspense.Ready)
        const openCount = open.count
        const doneCount = done.count
        verify(openCount > 0)
        const moved = open.get(0).id
        const removed = createTemporaryObject(spyComponent, testCase,
                                              { target: open, signalName: "rowsRemoved" })
        const inserted = createTemporaryObject(spyComponent, testCase,
                                               { target: done, signalName: "rowsInserted" })
        const reset = createTemporaryObject(spyComponent, testCase,
                                            { target: done, signalName: "modelReset" })
        const patches = backend.requestCount("PATCH", "/todos/" + moved)
        const params = data.withOldArgs ? { id: moved, completed: false } : { id: moved }
        Controller.fetch(data.member(), params, { completed: true })
        tryCompare(done, "count", doneCount + 1)
        compare(open.count, openCount - 1)
        compare(done.get(doneCount).id, moved)
        compare(removed.count, 1)
        compare(inserted.count, 1)
        compare(reset.count, 0)
        compare(backend.requestCount("PATCH", "/todos/" + moved), patches + 1)
        compare(backend.todo(moved).completed, true)
    }

    function test_listsThatKeepTheirAnswersDoNotFollow() {
        const open = createTemporaryObject(listQuery, testCase,
                                           { endpoint: keeping.getList, params: { completed: false } })
        tryCompare(open, "status", Suspense.Ready)
        const openCount = open.count
        const first = open.get(0).id
        Controller.fetch(keeping.partialUpdate, { id: first }, { completed: true })
        // The answer is in (the row shows it) and the row stayed.
        tryVerify(() => open.get(0).completed === true)
        compare(open.count, openCount)
        compare(open.get(0).id, first)
        compare(backend.todo(first).completed, true)
    }
}
