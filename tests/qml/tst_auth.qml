// TokenSource and the Controller singleton's authentication: the token goes with the requests to
// its origins, a 401 asks onRefreshRequested once and the request is replayed with the new token,
// a refresh that fails reaches authenticationFailed, logout() clears the token.
import QtQuick
import QtTest
import DataClient

TestCase {
    id: testCase
    name: "Authentication"

    Entity { id: todo; key: "Todo"; primaryKey: "id"; fields: ({ id: 0, title: "", completed: false }) }
    Resource { id: todos; urlPrefix: backend.url; path: "/todos/:id"; schema: todo; retry: false }

    TokenSource {
        id: tokens
        origins: [backend.url]
        property int refreshes: 0
        property bool refuse: false
        onRefreshRequested: {
            ++refreshes
            if (refuse)
                refreshFailed("the session ended")
            else
                accessToken = "t" + (refreshes + 1)
        }
    }

    SignalSpy { id: failures; target: Controller; signalName: "authenticationFailed" }

    function init() {
        backend.reset()
        Controller.resetEntireStore()
        tokens.accessToken = "t1"
        tokens.refreshes = 0
        tokens.refuse = false
        failures.clear()
        Controller.tokenSource = tokens
    }

    function cleanup() {
        Controller.tokenSource = null
    }

    function test_theTokenGoesWithTheRequest() {
        compare(Controller.tokenSource, tokens)
        const result = Controller.fetch(todos.get, { id: 1 })
        tryCompare(result, "status", FetchResult.Ready)
        compare(backend.lastRequest().headers["authorization"], "Bearer t1")
    }

    function test_a401RefreshesOnceAndReplays() {
        backend.failNext(1, 401)
        const result = Controller.fetch(todos.get, { id: 2 })
        tryCompare(result, "status", FetchResult.Ready)
        compare(tokens.refreshes, 1)
        compare(backend.requestCount("GET", "/todos/2"), 2)
        compare(backend.lastRequest().headers["authorization"], "Bearer t2")
        compare(failures.count, 0)
    }

    function test_aFailedRefreshReachesAuthenticationFailed() {
        tokens.refuse = true
        backend.failNext(1, 401)
        const result = Controller.fetch(todos.get, { id: 3 })
        tryCompare(result, "status", FetchResult.Error)
        compare(result.error.status, 401)
        verify(result.error.message.indexOf("unauthorized") >= 0)
        compare(failures.count, 1)
        verify(failures.signalArguments[0][0].indexOf("the session ended") >= 0)
    }

    function test_logoutClearsTheToken() {
        Controller.logout()
        compare(tokens.accessToken, "")
    }
}
