// The Controller singleton: fetch() results to bind to and chain, invalidation, expiry, reset.
import QtQuick
import QtTest
import DataClient

TestCase {
    id: testCase
    name: "Controller"

    Entity { id: todo; key: "Todo"; primaryKey: "id"; fields: ({ id: 0, title: "", completed: false }) }
    // retry: false: the failures these tests inject are the answers (docs/networking.md)
    Resource { id: todos; urlPrefix: backend.url; path: "/todos/:id"; schema: todo; retry: false }

    Component {
        id: query
        Suspense { endpoint: todos.getList; params: ({}) }
    }

    function init() {
        backend.reset()
        Controller.resetEntireStore()
    }

    function test_isTheSameControllerAsCpp() {
        verify(Controller.controller !== null)
        compare(Controller.controller, Controller.controller)
    }

    function test_fetchIsBindableAndChainable() {
        const result = Controller.fetch(todos.get, { id: 2 })
        compare(result.status, FetchResult.Loading)
        verify(result.loading)
        let seen = null
        const chained = result.then(function(value) { seen = value.id; return value.title })
        tryCompare(result, "status", FetchResult.Ready)
        compare(result.value.id, 2)
        compare(result.error, null)
        tryCompare(chained, "status", FetchResult.Ready)
        compare(seen, 2)
        compare(chained.value, backend.todo(2).title)
    }

    function test_errorsReachTheSecondCallback() {
        backend.failNext(1, 500)
        let message = ""
        const recovered = Controller.fetch(todos.get, { id: 2 })
            .then(function(value) { return "ok" }, function(error) { message = error.message; return error.status })
        tryCompare(recovered, "status", FetchResult.Ready)
        compare(recovered.value, 500)
        verify(message.length > 0)
    }

    function test_errorsPassThroughThenWithoutHandler() {
        const failed = Controller.fetch(todos.get, { id: 999 }).then(function(value) { return value })
        tryCompare(failed, "status", FetchResult.Error)
        compare(failed.error.status, 404)
    }

    function test_thenMayReturnAnotherFetch() {
        const second = Controller.fetch(todos.get, { id: 1 })
            .then(function(first) { return Controller.fetch(todos.get, { id: first.id + 1 }) })
        tryCompare(second, "status", FetchResult.Ready)
        compare(second.value.id, 2)
    }

    function test_invalidateMakesAQueryFetchAgain() {
        const list = createTemporaryObject(query, testCase)
        tryCompare(list, "status", Suspense.Ready)
        compare(backend.requestCount("GET", "/todos"), 1)
        Controller.invalidate(todos.getList, {})
        tryVerify(() => backend.requestCount("GET", "/todos") === 2)
        tryCompare(list, "status", Suspense.Ready)
    }

    function test_invalidateAllAndExpireAllTakeFilters() {
        const list = createTemporaryObject(query, testCase)
        tryCompare(list, "status", Suspense.Ready)
        Controller.expireAll(function(key) { return key.indexOf("/todos") >= 0 })
        tryVerify(() => backend.requestCount("GET", "/todos") === 2)
        tryCompare(list, "loading", false)
        Controller.invalidateAll("GET " + backend.url + "/todos")
        tryVerify(() => backend.requestCount("GET", "/todos") === 3)
        tryCompare(list, "loading", false)
        compare(list.status, Suspense.Ready)
    }

    function test_resetEntireStoreRefetchesVisibleQueries() {
        const list = createTemporaryObject(query, testCase)
        tryCompare(list, "status", Suspense.Ready)
        Controller.resetEntireStore()
        tryVerify(() => backend.requestCount("GET", "/todos") === 2)
        tryCompare(list, "status", Suspense.Ready)
        verify(list.count > 0)
    }

    function test_badArgumentsWarnAndFail_data() {
        return [
            { tag: "no endpoint", call: () => Controller.fetch(null, {}), message: /Controller.fetch\(\): the first argument must be an endpoint/ },
            { tag: "not an endpoint", call: () => Controller.fetch(testCase, {}), message: /the first argument must be an endpoint/ },
            { tag: "params not an object", call: () => Controller.fetch(todos.get, 5), message: /params must be an object of URL parameters/ },
        ]
    }
    function test_badArgumentsWarnAndFail(data) {
        ignoreWarning(data.message)
        const result = data.call()
        compare(result.status, FetchResult.Error)
        verify(data.message.test(result.error.message))
        compare(backend.totalRequests(), 0)
    }

    function test_badFilterWarns() {
        ignoreWarning(/Controller.invalidateAll\(\): expected a function\(key\)/)
        Controller.invalidateAll(42)
    }
}
