// Kept data while params change (docs/networking.md): a Suspense / Live whose
// params change to a key with nothing stored keeps its rows, with `placeholder` and `loading`
// true, until the new answer arrives; then the rows change in place, never through a reset.
// The edge cases with answers held and released one by one are in
// tst_collectionmodel_keepprevious.cpp.
import QtQuick
import QtTest
import DataClient

TestCase {
    id: testCase
    name: "KeepPrevious"
    when: windowShown
    width: 400
    height: 400

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
        searchParams: ["userId"]
    }
    Resource {
        id: polled
        urlPrefix: backend.url
        path: "/todos/:id"
        schema: todo
        searchParams: ["userId"]
        pollFrequency: 50
        dataExpiryLength: 10
    }

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
                params: ({ userId: view.userId })
            }
            delegate: Text {
                required property string title
                height: 20
                text: title
            }
        }
    }
    Component {
        id: emptyAtOnce
        Suspense {
            property var userId: 1
            endpoint: todos.getList
            params: ({ userId: userId })
            keepPrevious: false
        }
    }
    Component {
        id: liveList
        Live {
            property var userId: 1
            endpoint: polled.getList
            params: ({ userId: userId })
        }
    }
    Component {
        id: oneTodo
        Suspense {
            property int todoId: 1
            endpoint: todos.get
            params: ({ id: todoId })
        }
    }
    Component {
        id: boundaryScreen
        SuspenseBoundary {
            property alias list: list
            width: 400
            height: 400
            ListView {
                id: list
                property var userId: 1
                anchors.fill: parent
                model: Suspense { endpoint: todos.getList; params: ({ userId: list.userId }) }
                delegate: Text { required property string title; height: 20; text: title }
            }
        }
    }
    Component {
        id: signalCounter
        QtObject {
            id: counterObject
            property var target
            property int inserted: 0
            property int removed: 0
            property int changed: 0
            property int resets: 0
            property Connections connections: Connections {
                target: counterObject.target
                function onRowsInserted() { counterObject.inserted++ }
                function onRowsRemoved() { counterObject.removed++ }
                function onDataChanged() { counterObject.changed++ }
                function onModelReset() { counterObject.resets++ }
            }
            function total() { return inserted + removed + changed + resets }
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

    function titles(query) {
        const result = []
        for (let i = 0; i < query.count; ++i)
            result.push(query.get(i).title)
        return result
    }

    function loaded(component, properties) {
        const object = createTemporaryObject(component, testCase, properties || {})
        verify(object)
        const query = object.query || object
        tryCompare(query, "status", Suspense.Ready)
        return object
    }

    function test_keepsTheRowsUntilTheNewAnswer() {
        const view = loaded(todoList)
        const shown = titles(view.query)
        const spy = createTemporaryObject(signalCounter, testCase, { target: view.query })
        backend.setLatency(200) // the new answer comes later than the checks below
        view.userId = 2
        verify(view.query.placeholder)
        verify(view.query.loading)
        compare(view.query.status, Suspense.Ready)
        compare(titles(view.query), shown)
        compare(view.count, shown.length)
        compare(spy.total(), 0)

        tryCompare(view.query, "placeholder", false)
        compare(view.query.loading, false)
        compare(view.count, todosOfUser(2))
        compare(spy.resets, 0) // the rows changed in place: no flash to an empty list
        compare(backend.requestCount("GET", "/todos"), 2)
        compare(backend.lastRequest().query, "userId=2")
    }

    function test_keepPreviousFalseEmptiesAtOnce() {
        const query = loaded(emptyAtOnce)
        const spy = createTemporaryObject(signalCounter, testCase, { target: query })
        query.userId = 2
        compare(query.count, 0)
        compare(query.status, Suspense.Loading)
        verify(!query.placeholder)
        compare(spy.resets, 1)
        tryCompare(query, "status", Suspense.Ready)
        compare(query.count, todosOfUser(2))
    }

    function test_aFailureEndsThePlaceholder() {
        const view = loaded(todoList)
        const spy = createTemporaryObject(signalCounter, testCase, { target: view.query })
        backend.failNext(1, 404)
        view.userId = 2
        verify(view.query.placeholder)
        tryCompare(view.query, "status", Suspense.Error)
        verify(!view.query.placeholder)
        compare(view.query.error.status, 404)
        compare(view.count, 0) // the kept rows were not the failed key's
        compare(spy.resets, 0)
        compare(spy.removed, 1)
    }

    function test_backToTheShownParamsShowsThemAtOnce() {
        const view = loaded(todoList)
        const shown = titles(view.query)
        const spy = createTemporaryObject(signalCounter, testCase, { target: view.query })
        backend.setLatency(200)
        view.userId = 2
        verify(view.query.placeholder)
        view.userId = 1
        verify(!view.query.placeholder)
        verify(!view.query.loading)
        compare(titles(view.query), shown)
        compare(spy.total(), 0)
    }

    function test_theFirstLoadIsEmptyAndLoading() {
        backend.setLatency(100)
        const view = createTemporaryObject(todoList, testCase)
        compare(view.query.status, Suspense.Loading)
        verify(!view.query.placeholder)
        compare(view.count, 0)
        tryCompare(view.query, "status", Suspense.Ready)
        verify(!view.query.placeholder)
    }

    function test_liveKeepsThenPollsTheNewParams() {
        const query = loaded(liveList)
        const shown = titles(query)
        const spy = createTemporaryObject(signalCounter, testCase, { target: query })
        backend.setLatency(200)
        query.userId = 2
        verify(query.placeholder)
        compare(titles(query), shown)
        tryCompare(query, "placeholder", false)
        compare(query.count, todosOfUser(2))
        compare(spy.resets, 0)
        backend.setLatency(0)

        // Polling goes on for user 2 (user 1 is no longer subscribed) and shows what changed.
        const target = backend.todo(query.get(0).id)
        target.title = "changed on the server"
        backend.setTodo(target)
        tryVerify(() => query.get(0).title === "changed on the server", 5000)
        compare(backend.lastRequest().query, "userId=2")
        verify(!query.placeholder)
    }

    function test_aSingleEntityKeepsItsValue() {
        const query = loaded(oneTodo)
        compare(query.data.id, 1)
        backend.setLatency(200)
        query.todoId = 2
        verify(query.placeholder)
        verify(query.loading)
        compare(query.data.id, 1)
        tryCompare(query, "placeholder", false)
        compare(query.data.id, 2)
    }

    function test_aBoundaryKeepsShowingItsContent() {
        const boundary = createTemporaryObject(boundaryScreen, testCase)
        tryCompare(boundary.list.model, "status", Suspense.Ready)
        verify(!boundary.loading)
        backend.setLatency(200)
        boundary.list.userId = 2
        verify(boundary.list.model.placeholder)
        verify(!boundary.loading) // no fallback: the kept rows stay on screen
        tryCompare(boundary.list.model, "placeholder", false)
        compare(boundary.list.count, todosOfUser(2))
    }
}
