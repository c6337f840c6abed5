// WebSocketSource as Live's source: pushed messages update, add and remove rows without a poll;
// the key's subscribe message is not sent (no hook) but the key is watched while shown.
import QtQuick
import QtTest
import DataClient

TestCase {
    id: testCase
    name: "PushSources"

    Entity { id: todo; key: "Todo"; primaryKey: "id"; fields: ({ id: 0, userId: 0, title: "", completed: false }) }
    Resource {
        id: todos
        urlPrefix: backend.url
        path: "/todos/:id"
        schema: todo
        searchParams: ["userId"]
    }

    Component {
        id: socketComponent
        WebSocketSource {
            url: backend.pushUrl
            entities: [todo]
            lists: ({ todos: todos.getList })
        }
    }
    Component {
        id: liveComponent
        Live { endpoint: todos.getList; params: ({ userId: 1 }) }
    }

    function init() {
        backend.reset()
        Controller.resetEntireStore()
    }

    function test_pushKeepsALiveListCurrent() {
        const socket = createTemporaryObject(socketComponent, testCase)
        const query = createTemporaryObject(liveComponent, testCase, { source: socket })
        tryCompare(query, "status", Live.Ready)
        tryCompare(socket, "state", WebSocketSource.Open)
        compare(socket.feed.malformedCount, 0)
        const before = query.count
        const requests = backend.requestCount("GET", "/todos")
        const first = query.get(0)

        compare(backend.push({ type: "updated", entity: "Todo",
                               data: { id: first.id, userId: 1, title: "pushed", completed: false } }), 1)
        tryVerify(() => query.get(0).title === "pushed", 5000)

        backend.push({ type: "added", collection: "todos", args: { userId: 1 },
                       data: { id: 900, userId: 1, title: "new", completed: false } })
        tryCompare(query, "count", before + 1)
        compare(query.get(before).title, "new")

        backend.push({ type: "deleted", entity: "Todo", pk: 900 })
        tryCompare(query, "count", before)

        ignoreWarning(/a malformed message \(not an envelope\)/)
        backend.push({ type: "nonsense" })
        tryCompare(socket.feed, "malformedCount", 1)
        compare(socket.state, WebSocketSource.Open)
        compare(backend.requestCount("GET", "/todos"), requests) // never polled
        compare(socket.feed.watchedKeyCount, 1)
        query.destroy()
        wait(0)
        tryCompare(socket.feed, "watchedKeyCount", 0)
    }

    function test_controllerWritesFromQml() {
        const socket = createTemporaryObject(socketComponent, testCase)
        const query = createTemporaryObject(liveComponent, testCase, { source: socket })
        tryCompare(query, "status", Live.Ready)
        const first = query.get(0)
        Controller.set(todo, { id: first.id, userId: 1, title: "set from QML", completed: false })
        tryVerify(() => query.get(0).title === "set from QML", 5000)
        Controller.remove(todo, String(first.id))
        tryVerify(() => query.get(0).id !== first.id, 5000)
    }
}
