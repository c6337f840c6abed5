// SuspenseBoundary: a fallback while a query inside loads, an error delegate with retry.
// The file is `Bound` on purpose: components declared under that pragma may only be instantiated
// in their own creation context, which a boundary must respect for its fallback and error views.
pragma ComponentBehavior: Bound

import QtQuick
import QtTest
import DataClient

TestCase {
    id: testCase
    name: "SuspenseBoundary"
    when: windowShown
    visible: true // TestCase is hidden by default; the boundary shows and hides its content
    width: 400
    height: 400

    Entity { id: todo; key: "Todo"; primaryKey: "id"; fields: ({ id: 0, title: "" }) }
    // retry: false: the 503 this test injects is the answer (docs/networking.md)
    Resource { id: todos; urlPrefix: backend.url; path: "/todos/:id"; schema: todo; retry: false }

    Component {
        id: screen
        SuspenseBoundary {
            id: boundary
            width: 400
            height: 400
            property alias list: list
            fallback: Component { Text { objectName: "fallback"; text: "Loading…" } }
            errorDelegate: Component {
                Text { objectName: "errorView"; text: boundary.error ? boundary.error.message : "" }
            }
            ListView {
                id: list
                anchors.fill: parent
                model: Suspense { endpoint: todos.getList; params: ({}) }
                delegate: Text { required property string title; height: 20; text: title }
            }
        }
    }

    function init() {
        backend.reset()
        Controller.resetEntireStore()
    }

    function test_fallbackWhileLoadingThenContent() {
        backend.setLatency(100)
        const boundary = createTemporaryObject(screen, testCase)
        compare(boundary.count, 1)
        verify(boundary.loading)
        verify(findChild(boundary, "fallback"))
        verify(!boundary.list.visible)
        tryCompare(boundary, "loading", false)
        verify(boundary.list.visible)
        tryVerify(() => !findChild(boundary, "fallback")) // destroyed, not only hidden
        compare(boundary.list.count, 12)
    }

    function test_errorDelegateAndRetry() {
        backend.failNext(1, 503)
        const boundary = createTemporaryObject(screen, testCase)
        tryCompare(boundary, "failed", true)
        compare(boundary.error.status, 503)
        const errorView = findChild(boundary, "errorView")
        verify(errorView)
        compare(errorView.text, boundary.error.message)
        verify(!boundary.list.visible)
        boundary.retry()
        tryCompare(boundary, "failed", false)
        tryCompare(boundary, "loading", false)
        verify(boundary.list.visible)
        tryVerify(() => !findChild(boundary, "errorView"))
        compare(boundary.list.count, 12)
    }
}
