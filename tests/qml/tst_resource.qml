// Resource: createResource()'s options as properties, its members (get, getList, push, unshift,
// getPage, update, partialUpdate, delete) as endpoint objects, extend() in its three forms, JS
// hooks, and clear errors for bad options.
import QtQuick
import QtTest
import DataClient

TestCase {
    id: testCase
    name: "Resource"

    Entity { id: todo; key: "Todo"; primaryKey: "id"; fields: ({ id: 0, title: "", completed: false }) }

    Resource {
        id: todos
        urlPrefix: backend.url
        path: "/todos/:id"
        schema: todo
        searchParams: ["userId"]
        paginationField: "page"
        optimistic: true
        pollFrequency: 250
    }
    Resource {
        id: plain
        urlPrefix: backend.url
        path: "/todos/:id"
        schema: todo
    }

    Component { id: noSchema; Resource { path: "/todos/:id" } }
    Component { id: invalidSchema; Resource { path: "/todos/:id"; schema: Entity { primaryKey: "id" } } }
    Component { id: noPath; Resource { schema: todo } }
    Component { id: badCredentials; Resource { path: "/todos/:id"; schema: todo; credentials: "always" } }
    Component { id: badHook; Resource { path: "/todos/:id"; schema: todo; process: 5 } }
    Component { id: badTimeout; Resource { path: "/todos/:id"; schema: todo; timeout: -5 } }
    Component { id: badLimit; Resource { path: "/todos/:id"; schema: todo; maxResponseBytes: -1 } }

    function init() {
        backend.reset()
        Controller.resetEntireStore()
    }

    function test_membersOfSpec41_data() {
        return [
            { tag: "get", member: "get", method: "GET", path: "/todos/:id" },
            { tag: "getList", member: "getList", method: "GET", path: "/todos" },
            { tag: "push", member: "push", method: "POST", path: "/todos" },
            { tag: "unshift", member: "unshift", method: "POST", path: "/todos" },
            { tag: "getPage", member: "getPage", method: "GET", path: "/todos" },
            { tag: "update", member: "update", method: "PUT", path: "/todos/:id" },
            { tag: "partialUpdate", member: "partialUpdate", method: "PATCH", path: "/todos/:id" },
            { tag: "delete", member: "delete", method: "DELETE", path: "/todos/:id" },
        ]
    }
    function test_membersOfSpec41(data) {
        verify(todos.valid, todos.errorString)
        const endpoint = todos[data.member]
        verify(endpoint, data.member)
        compare(endpoint.method, data.method)
        compare(endpoint.path, data.path)
        compare(endpoint.urlPrefix, backend.url)
        compare(endpoint.pollFrequency, 250)
    }

    function test_listMembersHangOffGetList() {
        compare(todos.getList.push, todos.push)
        compare(todos.getList.unshift, todos.unshift)
        compare(todos.getList.getPage, todos.getPage)
        compare(todos.getList.getPage.paginationField, "page")
        compare(todos.remove, todos["delete"])
        compare(todos.member("getList.push"), todos.push)
        compare(todos.getList.searchParams, ["userId"])
        verify(todos.update.optimistic)
        verify(!plain.update.optimistic)
    }

    function test_getPageOnlyWithAPaginationField() {
        compare(plain.getPage, null)
        compare(plain.getList.getPage, null)
        verify(plain.memberNames.indexOf("getList.getPage") < 0)
    }

    function test_keysAreMethodAndUrl() {
        compare(Controller.key(todos.getList, { userId: 1 }), "GET " + backend.url + "/todos?userId=1")
        compare(Controller.key(todos.get, { id: 5 }), "GET " + backend.url + "/todos/5")
    }

    function test_badOptionsMakeAnInvalidResource_data() {
        return [
            { tag: "no schema", component: noSchema, message: /`schema` is not set/ },
            { tag: "invalid entity", component: invalidSchema, message: /`key` is not set/, alsoLogged: true },
            { tag: "no path", component: noPath, message: /the option 'path' is required/, alsoLogged: true },
            { tag: "credentials", component: badCredentials, message: /option "credentials" must be "omit", "same-origin" or "include"; got always/ },
            { tag: "negative timeout", component: badTimeout, message: /option "timeout" must be a number of milliseconds \(0 or more\); got -5/ },
            { tag: "negative size limit", component: badLimit, message: /option "maxResponseBytes" must be a number of bytes \(0 or more\); got -1/ },
            { tag: "hook not a function", component: badHook, message: /`process` must be a function/ },
        ]
    }
    function test_badOptionsMakeAnInvalidResource(data) {
        ignoreWarning(data.message)
        if (data.alsoLogged) // the REST layer (or the Entity) reports it too
            ignoreWarning(data.message)
        const resource = createTemporaryObject(data.component, testCase)
        verify(resource)
        verify(!resource.valid)
        verify(data.message.test(resource.errorString), resource.errorString)
        compare(resource.get, null)
        compare(resource.getList, null)
    }

    function test_changingAnOptionRebuildsMembers() {
        ignoreWarning(/`schema` is not set/)
        const resource = createTemporaryQmlObject(
            'import DataClient; Resource { path: "/todos/:id" }', testCase)
        compare(resource.get, null)
        resource.schema = todo
        verify(resource.valid, resource.errorString)
        compare(resource.get.path, "/todos/:id")
        resource.path = "/items/:id"
        compare(resource.get.path, "/items/:id")
        compare(resource.getList.path, "/items")
    }

    function test_extendBatch() {
        const extended = todos.extend({ getList: { path: "/lists/:listId/todos" }, update: { optimistic: false } })
        verify(extended, "extend returned null")
        compare(extended.getList.path, "/lists/:listId/todos")
        compare(extended.getList.push.path, "/lists/:listId/todos") // rebuilt from the new getList
        verify(!extended.update.optimistic)
        compare(todos.getList.path, "/todos") // the base is unchanged
    }

    // A derived resource reports the options its members use (all of them).
    function test_extendKeepsEveryOption() {
        const tuned = createTemporaryQmlObject('import DataClient; Resource { path: "/todos/:id"; '
            + 'urlPrefix: "http://x"; schema: todo; pollFrequency: 250; timeout: 1234; '
            + 'dataExpiryLength: 5; errorExpiryLength: 6; credentials: "include"; '
            + 'maxResponseBytes: 4096; headers: ({ "X-Token": "t" }); validators: false; '
            + 'process: function(value, params) { return value } }', testCase)
        tryVerify(function() { return tuned.valid })
        const extended = tuned.extend({ update: { optimistic: true } })
        verify(extended)
        compare(extended.pollFrequency, 250)
        compare(extended.timeout, 1234)
        compare(extended.dataExpiryLength, 5)
        compare(extended.errorExpiryLength, 6)
        compare(extended.credentials, "include")
        compare(extended.maxResponseBytes, 4096)
        compare(extended.headers["X-Token"], "t")
        compare(extended.validators, false)
        verify(typeof extended.process === "function")
        compare(extended.urlPrefix, "http://x")
        // ... and the members use them.
        compare(extended.get.timeout, 1234)
        compare(extended.get.pollFrequency, 250)
        compare(extended.get.validators, false)
    }

    function test_unsetOptionsReadAsTheirDefaults() {
        compare(plain.pollFrequency, 0)
        compare(plain.dataExpiryLength, 60000)
        compare(plain.errorExpiryLength, 1000)
        compare(plain.credentials, "same-origin")
        compare(plain.timeout, 30000)
        compare(plain.maxResponseBytes, 64 * 1024 * 1024)
        compare(plain.validators, true)
        compare(plain.get.validators, true)
    }

    function test_extendTakesEverySharedOption() {
        const extended = plain.extend({ get: { timeout: 50, maxResponseBytes: 10, credentials: "omit" } })
        verify(extended)
        compare(extended.get.timeout, 50)
        compare(extended.getList.timeout, 30000)
    }

    function test_extendAdd() {
        const extended = todos.extend("byUser", { path: "/users/:userId/todos", schema: [todo] })
        verify(extended)
        const byUser = extended.member("byUser")
        verify(byUser)
        compare(byUser.path, "/users/:userId/todos")
        compare(byUser.method, "GET")
        verify(extended.memberNames.indexOf("byUser") >= 0)
    }

    function test_extendFunction() {
        const extended = todos.extend(function(base) {
            return { getList: base.getList.extend({ path: "/v2/todos", searchParams: ["owner"] }) }
        })
        verify(extended)
        compare(extended.getList.path, "/v2/todos")
        compare(extended.getList.searchParams, ["owner"])
        compare(extended.get.path, "/todos/:id")
    }

    function test_extendMistakesWarnAndReturnNull_data() {
        return [
            { tag: "unknown option", args: [{ getList: { colour: "red" } }], message: /unknown endpoint option "colour"/ },
            { tag: "wrong type", args: ["x", { path: 5 }], message: /option "path" must be a string/ },
            { tag: "negative size limit", args: [{ get: { maxResponseBytes: -2 } }], message: /option "maxResponseBytes" must be a number of bytes/ },
            { tag: "validators not a boolean", args: [{ get: { validators: "no" } }], message: /option "validators" must be true or false; got no/ },
            { tag: "bad schema", args: ["x", { path: "/x", schema: [1] }], message: /exactly one Entity/ },
            { tag: "function returns junk", args: [function(base) { return 5 }], message: /must return an object of members/ },
            { tag: "member not an endpoint", args: [function(base) { return { get: testCase } }], message: /member "get" is not an endpoint/ },
            { tag: "nothing usable", args: [42], message: /expected an object of member options/ },
        ]
    }
    function test_extendMistakesWarnAndReturnNull(data) {
        ignoreWarning(data.message)
        compare(todos.extend(data.args[0], data.args[1]), null)
        verify(todos.valid)
        compare(todos.getList.path, "/todos")
    }

    // The hooks as QML functions: getRequestInit changes what is sent.
    Resource {
        id: hooked
        urlPrefix: backend.url
        path: "/todos/:id"
        schema: todo
        getRequestInit: function(body, init) {
            init.headers["X-Client"] = "qml"
            if (init.body && init.body.title)
                init.body = { title: init.body.title.toUpperCase() }
            return init
        }
    }

    function test_getRequestInitHook() {
        const result = Controller.fetch(hooked.partialUpdate, { id: 2 }, { title: "shout" })
        tryVerify(function() { return backend.requestCount("PATCH", "/todos/2") === 1 })
        const request = backend.lastRequest()
        compare(request.headers["x-client"], "qml")
        compare(request.body.title, "SHOUT")
        compare(request.headers["content-type"], "application/json")
        tryCompare(result, "loading", false)
    }

    // process: transforms the parsed response before it is normalized.
    Resource {
        id: processed
        urlPrefix: backend.url
        path: "/todos/:id"
        schema: todo
        process: function(value, params) {
            if (value && value.id !== undefined)
                value.title = value.title + " (#" + params.id + ")"
            return value
        }
    }
    Component { id: processedTodo; Suspense { endpoint: processed.get; params: ({ id: 3 }) } }

    function test_processHook() {
        const query = createTemporaryObject(processedTodo, testCase)
        tryCompare(query, "status", Suspense.Ready)
        compare(query.data.title, backend.todo(3).title + " (#3)")
    }

    // parseResponse: reads a header, and getList returns a {results, total} wrapper.
    Resource {
        id: counted
        urlPrefix: backend.url
        path: "/todos/:id"
        schema: todo
        parseResponse: function(response) {
            if (response.headers["x-total-count"] === undefined)
                return response.value
            return { results: response.value, total: Number(response.headers["x-total-count"]) }
        }
    }
    property var countedList: counted.valid ? counted.extend({ getList: { schema: ({ results: [todo], total: 0 }) } }) : null
    Component { id: countedQuery; Suspense { endpoint: testCase.countedList.getList; params: ({ userId: 2 }) } }

    function test_parseResponseHookAndWrappedList() {
        const query = createTemporaryObject(countedQuery, testCase)
        tryCompare(query, "status", Suspense.Ready)
        compare(query.data.total, query.count) // the header, next to the list
        verify(query.count > 0)
        for (let i = 0; i < query.count; ++i)
            compare(query.get(i).userId, 2)
    }
}
