// Live (useLive): polls at the endpoint's pollFrequency while it exists and is enabled.
import QtQuick
import QtTest
import DataClient

TestCase {
    id: testCase
    name: "Live"

    Entity { id: todo; key: "Todo"; primaryKey: "id"; fields: ({ id: 0, title: "", completed: false }) }
    Resource {
        id: polled
        urlPrefix: backend.url
        path: "/todos/:id"
        schema: todo
        pollFrequency: 50
        dataExpiryLength: 10
    }

    Component {
        id: live
        Live { endpoint: polled.get; params: ({ id: 1 }) }
    }
    Component {
        id: clock // another polled key: its requests mark the passing of time without sleeping
        Live { endpoint: polled.get; params: ({ id: 2 }) }
    }

    function init() {
        backend.reset()
        Controller.resetEntireStore()
    }

    function test_pollsAndStopsWhenDestroyed() {
        const query = createTemporaryObject(live, testCase)
        tryCompare(query, "status", Live.Ready)
        tryVerify(() => backend.requestCount("GET", "/todos/1") >= 3, 5000)
        query.destroy()
        wait(0) // deferred deletion
        const afterDestroy = backend.requestCount("GET", "/todos/1")
        const ticks = createTemporaryObject(clock, testCase)
        tryVerify(() => backend.requestCount("GET", "/todos/2") >= 4, 5000)
        // at most one request that was already in flight when the query went away
        verify(backend.requestCount("GET", "/todos/1") <= afterDestroy + 1)
        ticks.destroy()
    }

    function test_pollingShowsServerChanges() {
        const query = createTemporaryObject(live, testCase)
        tryCompare(query, "status", Live.Ready)
        const changed = backend.todo(1)
        changed.title = "changed on the server"
        backend.setTodo(changed)
        tryVerify(() => query.data.title === "changed on the server", 5000)
    }

    function test_disabledDoesNotPoll() {
        const query = createTemporaryObject(live, testCase, { enabled: false })
        const ticks = createTemporaryObject(clock, testCase)
        tryVerify(() => backend.requestCount("GET", "/todos/2") >= 3, 5000)
        compare(backend.requestCount("GET", "/todos/1"), 0)
        compare(query.status, Live.Idle)
        query.enabled = true
        tryVerify(() => backend.requestCount("GET", "/todos/1") >= 2, 5000)
        ticks.destroy()
    }
}
