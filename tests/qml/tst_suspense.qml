// Suspense (useSuspense) as a ListView model against the in-process backend: loading, toggles,
// pushes, optimistic deletes, errors and retry, pages, re-targeting, bad input, destruction.
import QtQuick
import QtTest
import DataClient

TestCase {
    id: testCase
    name: "Suspense"
    when: windowShown
    width: 400
    height: 400

    Entity {
        id: todo
        key: "Todo"
        primaryKey: "id"
        fields: ({ id: 0, userId: 0, title: "", completed: false, createdAt: Deserialize.dateTime })
    }
    Resource {
        id: todos
        urlPrefix: backend.url
        path: "/todos/:id"
        schema: todo
        searchParams: ["userId"]
        optimistic: true
    }
    Resource {
        id: pages
        urlPrefix: backend.url
        path: "/pages/todos/:id"
        schema: todo
        paginationField: "page"
    }
    // The same todos as Django REST Framework pages them: the server says when there is more.
    Resource {
        id: drfPages
        urlPrefix: backend.url
        path: "/drf/todos/:id"
        schema: todo
        keyCase: "snake_case"
        pagination: "pageNumber"
    }

    // As docs/qml.md shows it: the query is the ListView's model.
    Component {
        id: todoList
        ListView {
            id: view
            property alias query: query
            property var userId: 1
            width: 400
            height: 2000
            model: Suspense {
                id: query
                endpoint: todos.getList
                params: view.userId === null ? null : { userId: view.userId }
            }
            delegate: Text {
                required property var entity
                required property string title
                required property bool completed
                required property bool pending // the optimistic change is not confirmed yet
                height: 20
                text: title + (completed ? " [x]" : " [ ]")
            }
        }
    }

    Component {
        id: pagedQuery
        Suspense { endpoint: pages.getList; params: ({}) }
    }
    Component {
        id: drfQuery
        Suspense { endpoint: drfPages.getList; params: ({}) }
    }
    // A view asks its model for more rows itself (canFetchMore / fetchMore) when it shows the end.
    Component {
        id: pagedList
        ListView {
            property alias query: query
            width: 400
            height: 4000
            model: Suspense { id: query; endpoint: pages.getList; params: ({}) }
            delegate: Text { required property int id; height: 20; text: id }
        }
    }

    Component {
        id: oneTodo
        Item {
            property alias query: query
            property int changes: 0
            property var shown: query.data
            onShownChanged: changes++
            Suspense { id: query; endpoint: todos.get; params: ({ id: 3 }) }
        }
    }

    Component {
        id: signalCounter
        QtObject {
            id: counterObject
            property var target
            property int inserted: 0
            property int removed: 0
            property int moved: 0
            property int changed: 0
            property int resets: 0
            property var changedRows: []
            property Connections connections: Connections {
                target: counterObject.target
                function onRowsInserted() { inserted++ }
                function onRowsRemoved() { removed++ }
                function onRowsMoved() { moved++ }
                function onDataChanged(topLeft, bottomRight, roles) { changed++; changedRows.push(topLeft.row) }
                function onModelReset() { resets++ }
            }
            function total() { return inserted + removed + moved + changed + resets }
        }
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

    function loadedList(userId) {
        const view = createTemporaryObject(todoList, testCase, { userId: userId })
        verify(view)
        tryCompare(view.query, "status", Suspense.Ready)
        return view
    }

    function counter(target) {
        return createTemporaryObject(signalCounter, testCase, { target: target })
    }

    function test_listLoadsIntoListView() {
        const view = createTemporaryObject(todoList, testCase)
        compare(view.query.status, Suspense.Loading)
        tryCompare(view.query, "status", Suspense.Ready)
        compare(view.count, todosOfUser(1))
        compare(view.query.count, view.count)
        verify(view.count > 0)
        const first = view.query.get(0)
        view.forceLayout()
        compare(view.itemAtIndex(0).text, first.title + (first.completed ? " [x]" : " [ ]"))
        verify(first.createdAt instanceof Date, "createdAt is deserialized")
        compare(backend.requestCount("GET", "/todos"), 1)
    }

    function test_toggleChangesExactlyThatDelegate() {
        const view = loadedList(1)
        const row = 1
        const target = view.query.get(row)
        view.forceLayout()
        const delegates = []
        for (let i = 0; i < view.count; ++i)
            delegates.push(view.itemAtIndex(i))
        const texts = delegates.map(d => d.text)
        const signals_ = counter(view.query)

        Controller.fetch(todos.partialUpdate, { id: target.id }, { completed: !target.completed })
        // optimistic: at once, one dataChanged for that row only
        compare(signals_.total(), 1)
        compare(signals_.changed, 1)
        compare(signals_.changedRows, [row])
        compare(view.query.get(row).completed, !target.completed)
        verify(delegates[row].pending)
        tryVerify(() => backend.todo(target.id).completed === !target.completed)
        tryCompare(view.query, "loading", false)
        // the server confirms the same values: only `pending` flips back, one more dataChanged
        tryCompare(delegates[row], "pending", false)
        compare(signals_.total(), 2)
        compare(signals_.changedRows, [row, row])
        for (let i = 0; i < delegates.length; ++i) {
            compare(view.itemAtIndex(i), delegates[i], "delegate " + i + " was not recreated")
            if (i !== row)
                compare(delegates[i].text, texts[i])
        }
        verify(delegates[row].text !== texts[row])
    }

    function test_pushAppearsInListsOfTheSameArgumentsOnly() {
        const a = loadedList(1)
        const b = loadedList(1)
        const other = loadedList(2)
        const before = a.count
        const otherBefore = other.count
        const spyA = counter(a.query)
        const spyOther = counter(other.query)
        // no id before the server assigns one: shown at once under a placeholder key, pending
        failOnWarning(/optimistic/)
        const result = Controller.fetch(todos.push, { userId: 1 }, { userId: 1, title: "new one", completed: false })
        compare(a.count, before + 1)
        compare(b.count, before + 1)
        compare(a.query.get(before).title, "new one")
        a.forceLayout()
        const delegate = a.itemAtIndex(before)
        verify(delegate.pending)
        tryCompare(result, "status", FetchResult.Ready)
        // the same row (the same delegate) is now the server's todo: one dataChanged
        compare(a.count, before + 1)
        compare(a.itemAtIndex(before), delegate)
        verify(!delegate.pending)
        compare(typeof a.query.get(before).id, "number")
        compare(spyA.inserted, 1)
        compare(spyA.changed, 1)
        compare(spyA.total(), 2)
        compare(spyA.resets, 0)
        compare(other.count, otherBefore)
        compare(spyOther.total(), 0)
    }

    function test_optimisticDeleteDisappearsAtOnce() {
        const view = loadedList(1)
        const before = view.count
        const victim = view.query.get(0)
        const spy = counter(view.query)
        backend.setLatency(150)
        const result = Controller.fetch(todos["delete"], { id: victim.id })
        compare(view.count, before - 1) // before the server has answered
        compare(spy.removed, 1)
        compare(result.status, FetchResult.Loading)
        tryCompare(result, "status", FetchResult.Ready)
        compare(view.count, before - 1)
        compare(spy.total(), 1)
        for (let i = 0; i < view.count; ++i)
            verify(view.query.get(i).id !== victim.id)
    }

    function test_errorShowsAndRetryRecovers() {
        backend.failNext(1, 404)
        const view = createTemporaryObject(todoList, testCase)
        tryCompare(view.query, "status", Suspense.Error)
        compare(view.query.error.status, 404)
        verify(view.query.error.message.length > 0)
        compare(view.count, 0)
        view.query.refetch()
        tryCompare(view.query, "status", Suspense.Ready)
        compare(view.query.error, null)
        compare(view.count, todosOfUser(1))
    }

    function uniqueIds(query) {
        const ids = {}
        for (let i = 0; i < query.count; ++i) {
            const id = query.get(i).id
            if (ids[id])
                return false
            ids[id] = true
        }
        return true
    }

    function test_loadMorePagesWithoutDuplicates() {
        const query = createTemporaryObject(pagedQuery, testCase)
        tryCompare(query, "status", Suspense.Ready)
        compare(query.count, 5)
        verify(query.hasMore)
        query.loadMore()
        verify(query.loadingMore)
        query.loadMore() // ignored: a page is in flight
        verify(!query.canFetchMore(query.index(-1, -1)))
        tryCompare(query, "loadingMore", false)
        compare(query.count, 10)
        compare(backend.requestCount("GET", "/pages/todos"), 2)
        verify(query.hasMore)
        query.loadMore()
        tryCompare(query, "loadingMore", false)
        compare(query.count, 12)
        verify(!query.hasMore) // the last page was short
        verify(uniqueIds(query))
        query.loadMore() // nothing more to load
        compare(backend.requestCount("GET", "/pages/todos"), 3)
    }

    // Two full pages and next: null: hasMore is what the server said (the page-size guess
    // would ask for a third page).
    function test_hasMoreIsWhatTheServerSaid() {
        const query = createTemporaryObject(drfQuery, testCase)
        tryCompare(query, "status", Suspense.Ready)
        compare(query.count, 5)
        verify(query.hasMore)
        query.loadMore()
        tryCompare(query, "loadingMore", false)
        compare(query.count, 10)
        verify(!query.hasMore)
        compare(backend.requestCount("GET", "/drf/todos"), 2)
    }

    function test_destroyingAQueryWithAPageInFlightIsSafe() {
        let query = createTemporaryObject(pagedQuery, testCase)
        tryCompare(query, "status", Suspense.Ready)
        backend.setLatency(100)
        query.loadMore()
        verify(query.loadingMore)
        tryVerify(() => backend.requestCount("GET", "/pages/todos") === 2)
        // joins the page request in flight, so we know when its answer has been handled
        const samePage = Controller.fetchIfStale(pages.getPage, { page: 2 })
        query.destroy()
        query = null
        tryCompare(samePage, "loading", false)
        compare(samePage.status, FetchResult.Ready)
    }

    function test_listViewFetchesMoreByItself() {
        const view = createTemporaryObject(pagedList, testCase)
        tryCompare(view.query, "status", Suspense.Ready)
        tryCompare(view.query, "hasMore", false)
        compare(view.count, 12)
        verify(uniqueIds(view.query))
        compare(backend.requestCount("GET", "/pages/todos"), 3)
    }

    function test_singleEntityBindingFiresOncePerRealChange() {
        const holder = createTemporaryObject(oneTodo, testCase)
        tryCompare(holder.query, "status", Suspense.Ready)
        compare(holder.query.data.id, 3)
        compare(holder.query.count, 0) // one entity: no rows
        const changes = holder.changes
        // an unrelated write
        const other = Controller.fetch(todos.partialUpdate, { id: 4 }, { title: "not yours" })
        tryCompare(other, "status", FetchResult.Ready)
        compare(holder.changes, changes)
        // a real change: one notification (optimistic), none when the server confirms it; only
        // `pending` says it was confirmed
        const mine = Controller.fetch(todos.partialUpdate, { id: 3 }, { title: "yours" })
        compare(holder.changes, changes + 1)
        compare(holder.query.data.title, "yours")
        verify(holder.query.pending)
        tryCompare(mine, "status", FetchResult.Ready)
        verify(!holder.query.pending)
        compare(holder.changes, changes + 1)
    }

    function test_retargetShowsCachedDataAtOnce() {
        const view = loadedList(1)
        const firstCount = view.count
        const spy = counter(view.query)
        view.userId = 2
        tryCompare(view.query, "placeholder", false) // user 1's rows until user 2's arrive
        compare(view.query.status, Suspense.Ready)
        compare(view.count, todosOfUser(2))
        view.userId = 1
        compare(view.query.status, Suspense.Ready) // cached: no Loading in between
        compare(view.count, firstCount)
        // Re-targeting to stored data is the one case that resets; to user 2 (nothing stored)
        // the rows of user 1 stayed as a placeholder instead (tst_keepprevious.qml).
        compare(spy.resets, 1)
        compare(backend.requestCount("GET", "/todos"), 2)
    }

    function test_nullParamsOrDisabledIsIdle() {
        const view = createTemporaryObject(todoList, testCase, { userId: null })
        compare(view.query.status, Suspense.Idle)
        view.query.enabled = false
        view.userId = 1
        compare(view.query.status, Suspense.Idle)
        compare(backend.totalRequests(), 0)
        view.query.enabled = true
        tryCompare(view.query, "status", Suspense.Ready)
    }

    Component {
        id: badEndpoint
        Suspense { endpoint: testCase; params: ({}) }
    }
    Component {
        id: badParams
        Suspense { endpoint: todos.getList; params: "userId=1" }
    }
    Component {
        id: mutation
        Suspense { endpoint: todos.partialUpdate; params: ({ id: 1 }) }
    }

    function test_badInputIsAnError_data() {
        return [
            { tag: "endpoint is not one", component: badEndpoint, message: /Suspense.endpoint: expected an endpoint of a Resource/ },
            { tag: "params not an object", component: badParams, message: /Suspense.params: expected an object of URL parameters/ },
            { tag: "a mutation", component: mutation, message: /is a mutation \(PATCH\)/, noWarning: true },
        ]
    }
    function test_badInputIsAnError(data) {
        if (!data.noWarning)
            ignoreWarning(data.message)
        const query = createTemporaryObject(data.component, testCase)
        compare(query.status, Suspense.Error)
        verify(data.message.test(query.error.message), query.error.message)
        compare(query.count, 0)
        compare(backend.totalRequests(), 0)
        // and the query recovers once given good input
        query.endpoint = todos.get
        query.params = { id: 2 }
        tryCompare(query, "status", Suspense.Ready)
        compare(query.data.id, 2)
    }

    function test_destroyingAViewMidRequestIsSafe() {
        backend.setLatency(100)
        let view = createTemporaryObject(todoList, testCase)
        tryVerify(() => backend.requestCount("GET", "/todos") === 1)
        // joins the same request, so we know when its answer has been handled
        const sameRead = Controller.fetchIfStale(todos.getList, { userId: 1 })
        view.destroy()
        view = null
        tryCompare(sameRead, "status", FetchResult.Ready)
        compare(sameRead.value.length, todosOfUser(1))
    }
}
