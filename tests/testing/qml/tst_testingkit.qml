// import DataClient.Testing in a Qt Quick Test: MockNetwork, InitialState and
// VirtualClock on the Controller singleton; no server anywhere.
import QtQuick
import QtTest
import DataClient
import DataClient.Testing

TestCase {
    name: "TestingKit"

    Entity { id: todo; key: "Todo"; primaryKey: "id"; fields: ({ id: 0, title: "" }) }
    Resource {
        id: todos; urlPrefix: "http://api.test"; path: "/todos/:id"; schema: todo
        retry: ({ count: 0 })
    }
    MockNetwork {
        id: network
        fixtures: [
            { endpoint: todos.getList, response: [{ id: 1, title: "Buy milk" }, { id: 2, title: "Walk" }] },
            { endpoint: todos.get, params: { id: 9 }, error: true, response: { message: "boom" } },
            { method: "PATCH", url: "/todos/:id", response: { id: 1, title: "Buy oat milk" } }
        ]
    }
    VirtualClock { id: clock }
    Component { id: listQuery; Suspense { endpoint: todos.getList; params: ({}) } }
    Component { id: oneTodo; Suspense { property int todoId; endpoint: todos.get; params: ({ id: todoId }) } }
    Component {
        id: initialState
        InitialState { fixtures: [{ endpoint: todos.get, params: { id: 5 }, response: { id: 5, title: "Preloaded" } }] }
    }

    function init() {
        Controller.online = true // the offscreen platform may report no network: reads would wait
        Controller.resetEntireStore()
        network.clearRequests()
        network.failOnUnmatched = true
    }

    function test_aListFromAFixture() {
        const query = createTemporaryObject(listQuery, this)
        tryCompare(query, "status", Suspense.Ready)
        compare(query.count, 2)
        compare(query.data[0].title, "Buy milk")
        compare(network.requestCount("GET", "/todos"), 1)
        compare(network.requests()[0].url, "http://api.test/todos")
    }

    function test_anErrorFixture() {
        const query = createTemporaryObject(oneTodo, this, { todoId: 9 })
        tryCompare(query, "status", Suspense.Error)
        compare(query.error.status, 500)
    }

    function test_aMutationIsMatchedByMethodAndUrlPattern() {
        const result = Controller.fetch(todos.partialUpdate, { id: 1 }, { title: "Buy oat milk" })
        tryCompare(result, "status", 1 /* Ready */)
        compare(network.requests()[0].method, "PATCH")
        compare(network.requests()[0].body.title, "Buy oat milk")
    }

    function test_initialStateRendersWithoutARequest() {
        createTemporaryObject(initialState, this)
        const query = createTemporaryObject(oneTodo, this, { todoId: 5 })
        compare(query.status, Suspense.Ready) // synchronously
        compare(query.data.title, "Preloaded")
        compare(network.requestCount(), 0)
    }

    function test_anUnmatchedRequestIsCountedAndFails() {
        network.failOnUnmatched = false
        ignoreWarning(new RegExp("no fixture or interceptor answers GET http://api.test/todos/77"))
        const query = createTemporaryObject(oneTodo, this, { todoId: 77 })
        tryCompare(query, "status", Suspense.Error)
        compare(network.unmatchedCount, 1)
    }

    function test_virtualClock() {
        const start = clock.now
        clock.advance(30000)
        compare(clock.now - start, 30000)
        ignoreWarning(new RegExp("advance\\(-1\\) refused"))
        compare(clock.advance(-1), -1)
        compare(clock.now - start, 30000)
    }
}
