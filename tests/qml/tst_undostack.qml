// UndoStack: the changes sent through it are undone and redone on the server, shown at once;
// canUndo, canRedo, undoText and redoText follow with their NOTIFY signals; a refused undo is
// told by refused(text, reason) and the stack is put back; bad arguments are rejected by name.
import QtQuick
import QtTest
import DataClient

TestCase {
    id: testCase
    name: "UndoStack"

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
        optimistic: true
        retry: false
    }

    Component {
        id: listQuery
        Suspense { endpoint: todos.getList; params: ({}) }
    }
    Component {
        id: undoStack
        UndoStack { }
    }
    SignalSpy { id: undoTextSpy; signalName: "undoTextChanged" }
    SignalSpy { id: canRedoSpy; signalName: "canRedoChanged" }
    SignalSpy { id: refusedSpy; signalName: "refused" }

    function init() {
        backend.reset()
        Controller.resetEntireStore()
    }

    function loaded(component) {
        const query = createTemporaryObject(component, testCase)
        tryCompare(query, "status", Suspense.Ready)
        return query
    }

    function rowOf(list, id) {
        for (let row = 0; row < list.count; ++row)
            if (list.get(row).id === id)
                return list.get(row)
        return null
    }

    function watched(stack) {
        for (const spy of [undoTextSpy, canRedoSpy, refusedSpy]) {
            spy.target = stack
            spy.clear()
        }
        return stack
    }

    function test_anEditIsUndoneAndRedoneOnTheServer() {
        const list = loaded(listQuery)
        const stack = watched(createTemporaryObject(undoStack, testCase))
        const before = rowOf(list, 2).title
        compare(stack.canUndo, false)
        const sent = stack.update(todos.partialUpdate, { id: 2 }, { title: "renamed" },
                                  "rename '" + before + "'")
        compare(rowOf(list, 2).title, "renamed")
        tryCompare(sent, "status", FetchResult.Ready)
        compare(stack.canUndo, true)
        compare(stack.undoText, "rename '" + before + "'")
        verify(undoTextSpy.count > 0)
        compare(stack.count, 1)

        stack.undo()
        compare(rowOf(list, 2).title, before) // at once
        compare(stack.canRedo, true)
        verify(canRedoSpy.count > 0)
        compare(stack.redoText, "rename '" + before + "'")
        compare(stack.undoText, "")
        tryVerify(() => backend.todo(2).title === before)
        compare(backend.requestCount("PATCH", "/todos/2"), 2)

        stack.redo()
        compare(rowOf(list, 2).title, "renamed")
        tryVerify(() => backend.todo(2).title === "renamed")
        compare(stack.index, 1)
    }

    function test_aCreateIsDeletedByUndo() {
        const list = loaded(listQuery)
        const stack = createTemporaryObject(undoStack, testCase)
        const count = list.count
        const sent = stack.create(todos.getList.push, todos["delete"], {},
                                  { userId: 1, title: "new", completed: false }, "add 'new'")
        tryCompare(sent, "status", FetchResult.Ready)
        compare(list.count, count + 1)
        const id = sent.value.id
        stack.undo()
        compare(list.count, count)
        tryVerify(() => backend.requestCount("DELETE", "/todos/" + id) === 1)
        verify(!backend.todo(id).title)
    }

    function test_aRefusedUndoIsToldAndTheStackPutBack() {
        loaded(listQuery)
        const stack = watched(createTemporaryObject(undoStack, testCase))
        const sent = stack.update(todos.partialUpdate, { id: 3 }, { completed: true }, "check")
        tryCompare(sent, "status", FetchResult.Ready)
        backend.failNext(1, 404)
        stack.undo()
        tryCompare(refusedSpy, "count", 1)
        compare(refusedSpy.signalArguments[0][0], "check")
        verify(refusedSpy.signalArguments[0][1].indexOf("404") >= 0,
               refusedSpy.signalArguments[0][1])
        tryCompare(stack, "index", 1)
        compare(stack.canUndo, true)
    }

    function test_badArgumentsAreRejectedByName() {
        const stack = createTemporaryObject(undoStack, testCase)
        ignoreWarning(/UndoStack.update\(endpoint, params, body, text\): expected an endpoint/)
        const sent = stack.update(null, { id: 1 }, { title: "x" })
        compare(sent.status, FetchResult.Error)
        verify(sent.error.message.indexOf("todos.partialUpdate") >= 0, sent.error.message)
        compare(stack.count, 0)
        ignoreWarning(/mergeWindowMs must be 0 \(never merge\) or more/)
        stack.mergeWindowMs = -1
        compare(stack.mergeWindowMs, 2000)
    }
}
