// Real networks in QML: Resource `retry` (and bad settings warned about, nothing
// sent), a Suspense showing `retrying` and `attempt` while a read is retried, and
// `Controller.online` driving a manual connectivity: `paused` while offline, refetched online;
// and `queueWhenOffline`: `Controller.outbox.count` and `Controller.outboxFailed`.
import QtQuick
import QtTest
import DataClient

TestCase {
    name: "Network"
    when: windowShown

    Entity { id: todo; key: "Todo"; primaryKey: "id"; fields: ({ id: 0, title: "" }) }
    // One quick retry: the test waits for its signal, never for a long backoff.
    Resource {
        id: todos; urlPrefix: backend.url; path: "/todos/:id"; schema: todo
        retry: ({ count: 1, delay: 50, maxDelay: 50 })
    }
    Component {
        id: absurdResource
        Resource { urlPrefix: backend.url; path: "/todos/:id"; schema: todo; retry: ({ count: -1 }) }
    }
    Component {
        id: query
        Suspense { endpoint: todos.get; params: ({ id: 2 }) }
    }
    SignalSpy { id: retryingSpy; signalName: "retryingChanged" }
    // The outbox (docs/offline-outbox.md).
    Resource {
        id: queued; urlPrefix: backend.url; path: "/todos/:id"; schema: todo
        optimistic: true; queueWhenOffline: true
    }
    SignalSpy { id: outboxFailedSpy; target: Controller; signalName: "outboxFailed" }

    function init() {
        Controller.online = true
        Controller.resetEntireStore()
        backend.reset()
    }

    function test_retryOptionReadsBack() {
        compare(todos.retry.count, 1)
        compare(todos.refetchOnActivate, true)
    }

    function test_anOfflineChangeWaitsInTheOutbox() {
        compare(todos.queueWhenOffline, false)
        Controller.online = false
        Controller.fetch(queued.partialUpdate, { id: 1 }, { title: "offline" })
        compare(Controller.outbox.count, 1)
        wait(0)
        compare(backend.requestCount("PATCH", "/todos/1"), 0)
        Controller.online = true
        tryCompare(Controller.outbox, "count", 0, 5000)
        compare(backend.requestCount("PATCH", "/todos/1"), 1)
        compare(backend.todo(1).title, "offline")
    }

    function test_aRefusedChangeIsReported() {
        outboxFailedSpy.clear()
        Controller.online = false // queued: its refusal is reported by the signal
        Controller.fetch(queued.partialUpdate, { id: 1 }, { title: "refused" })
        backend.failNext(1, 422)
        ignoreWarning(/outbox: dropped PATCH/)
        Controller.online = true
        outboxFailedSpy.wait(5000)
        compare(outboxFailedSpy.signalArguments[0][0], "PATCH")
        compare(outboxFailedSpy.signalArguments[0][1], backend.url + "/todos/1")
        compare(outboxFailedSpy.signalArguments[0][3], 422)
        compare(Controller.outbox.count, 0)
    }

    function test_aQueryShowsRetrying() {
        backend.failNext(1, 503)
        const q = createTemporaryObject(query, this)
        retryingSpy.target = q
        retryingSpy.clear()
        tryCompare(q, "status", Suspense.Ready, 5000)
        // The backoff is short (jitter in [0, 50] ms): its signals prove it, on and off.
        compare(retryingSpy.count, 2)
        verify(!q.retrying)
        compare(q.attempt, 0)
        compare(backend.requestCount("GET", "/todos/2"), 2)
    }

    function test_badRetrySettingsAreRefused() {
        ignoreWarning(new RegExp("retry.count must be 0 to 100"))
        const absurd = createTemporaryObject(absurdResource, this)
        verify(!absurd.get) // no endpoint is made: nothing can be sent
        compare(backend.requestCount("GET", "/todos/1"), 0)
    }

    function test_offlinePausesAndOnlineRefetches() {
        Controller.online = false
        compare(Controller.online, false)
        const q = createTemporaryObject(query, this)
        tryVerify(function() { return q.paused })
        compare(q.status, Suspense.Loading)
        Controller.online = true
        tryCompare(q, "status", Suspense.Ready, 5000)
        verify(!q.paused)
        compare(backend.requestCount("GET", "/todos/2"), 1)
    }
}
