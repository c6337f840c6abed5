// The demo's window: users on the left, the selected user's todos in the middle, the
// live status on the right. Every mutation is optimistic: it shows at once, and a failure
// (try --refuse-rate 0.5) rolls back only that change and offers a retry; a failed load retries
// by itself (the header says "retrying"). The header's Online switch (or --offline) takes the
// app offline: no read is sent, queries keep their rows and show "paused", edits wait in the
// Controller's outbox ("2 changes waiting") and switching back replays them in order, then
// refetches what is shown (docs/offline-outbox.md).
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import DataClient
import DataClient.Inspector

ApplicationWindow {
    id: window

    required property string apiUrl
    required property bool embeddedServer
    required property int initialUserId

    //! --inspector: the store inspector opens with the window (Ctrl+Shift+D toggles it).
    property bool inspectorOpen: false
    property int userId: initialUserId
    property string userName: ""

    // The screenshot run waits for this (a property, never a timer).
    // With the embedded server, also wait for a /status poll that has seen those requests.
    readonly property bool dataShown: userList.count > 0 && todoList.count > 0
                                      && (!embeddedServer
                                          || (activity.ready && activity.status.requestCount > 0))
    // --screenshot waits for this: the data, or offline (--offline) the banner over the
    // paused queries.
    readonly property bool readyForScreenshot: Controller.online
                                               ? dataShown
                                               : offlineBanner.visible && userList.query.paused
    readonly property string statusText: (Controller.online ? "" : "offline; ")
                                         + "users: " + describe(userList.query)
                                         + "; todos: " + describe(todoList.query)
                                         + "; status: " + describe(activity.query)

    function describe(query) {
        if (query.error)
            return "error " + query.error.status + " " + query.error.message;
        return ["idle", "loading", "ready", "error"][query.status] + ", " + query.count + " rows"
               + (query.paused ? ", paused" : query.retrying
                                 ? ", retrying (attempt " + query.attempt + ")"
                                 : query.loading ? ", request in flight" : "");
    }

    // Reports a mutation's failure: the optimistic change is already rolled back, so the banner
    // only has to say what failed, in words, and offer to run it again.
    function reportFailure(what, sent, retry) {
        sent.then(function () {}, error => banner.showFailure(what, error, retry));
    }
    // The todo changes go through the undo stack: Ctrl+Z undoes them on the server too.
    function edit(what, params, body) {
        reportFailure(what, undoStack.update(todos.partialUpdate, params, body, what),
                      () => window.edit(what, params, body));
    }
    function add(what, params, body) {
        reportFailure(what, undoStack.create(todos.getList.unshift, todos["delete"], params, body,
                                             what), () => window.add(what, params, body));
    }
    function remove(what, params) {
        reportFailure(what, undoStack.remove(todos["delete"], todos.getList.unshift, params, what),
                      () => window.remove(what, params));
    }

    width: 1100
    height: 720
    visible: true
    title: qsTr("DataClient todos")

    Entity {
        id: user
        key: "User"
        primaryKey: "id"
    }
    Entity {
        id: todo
        key: "Todo"
        primaryKey: "id"
        fields: ({ createdAt: Deserialize.dateTime, author: user })
    }
    Entity {
        id: serverStatus
        key: "ServerStatus"
        primaryKey: "id"
        fields: ({ time: Deserialize.dateTime, startedAt: Deserialize.dateTime })
    }
    Resource {
        id: users
        urlPrefix: window.apiUrl
        // A demo retries quickly: --fail-rate shows reads recovering, a dead server an error
        // within a second (the default is 3 retries from 1 s, docs/networking.md).
        retry: ({ count: 2, delay: 250, maxDelay: 1000 })
        path: "/users/:id"
        schema: user
        queueWhenOffline: true
    }
    Resource {
        id: todos
        urlPrefix: window.apiUrl
        retry: ({ count: 2, delay: 250, maxDelay: 1000 })
        path: "/todos/:id"
        schema: todo
        searchParams: ["userId", "completed"]
        paginationField: "page"
        optimistic: true
        queueWhenOffline: true
    }
    // Undo and redo of the changes made here (docs/undo.md). A refused undo (the todo changed
    // meanwhile, or is gone from the server) says why in the banner; the change stays done.
    UndoStack {
        id: undoStack
        objectName: "undoStack"
        onRefused: (text, reason) => banner.show(reason)
    }
    Shortcut {
        sequences: ["Ctrl+Z"]
        onActivated: undoStack.undo()
    }
    Shortcut {
        sequences: ["Ctrl+Shift+Z", "Ctrl+Y"]
        onActivated: undoStack.redo()
    }
    Resource {
        id: status
        urlPrefix: window.apiUrl
        retry: ({ count: 2, delay: 250, maxDelay: 1000 })
        path: "/status/:id"
        schema: serverStatus
        pollFrequency: 1000
    }

    header: ToolBar {
        RowLayout {
            anchors.fill: parent
            Label {
                text: qsTr("DataClient todos")
                font.bold: true
                Layout.leftMargin: 8
            }
            Label {
                text: window.apiUrl + (window.embeddedServer ? qsTr(" (embedded)") : "")
                opacity: 0.6
                Layout.fillWidth: true
            }
            Label {
                visible: todoList.query.stale && Controller.online
                text: qsTr("refreshing…")
                opacity: 0.6
            }
            // A retry can be over in a fraction of a second: after the last attempt the line
            // says how it ended ("loaded on attempt 2") for a few seconds, long enough to read.
            Label {
                objectName: "retryingLabel"
                readonly property var query: todoList.query.retrying ? todoList.query
                                                                     : userList.query
                readonly property bool retrying: query.retrying
                property var lastQuery: null // the query of the last retry shown
                property int lastAttempt: 0
                onRetryingChanged: {
                    if (retrying)
                        lastQuery = query;
                    else
                        lingering.restart();
                }
                readonly property int attempt: retrying ? query.attempt : 0
                onAttemptChanged: {
                    if (attempt > 0)
                        lastAttempt = attempt;
                }
                Timer {
                    id: lingering
                    interval: 4000
                }
                visible: retrying || lingering.running
                text: retrying ? qsTr("retrying (attempt %1)…").arg(query.attempt)
                               : lastQuery && lastQuery.error
                                 ? qsTr("failed after %1 attempts").arg(lastAttempt)
                                 : qsTr("loaded on attempt %1").arg(lastAttempt)
                color: "#8a5a00"
            }
            // The outbox: changes the server has not confirmed yet (made offline, or retrying).
            Label {
                objectName: "outboxLabel"
                visible: Controller.outbox.count > 0
                text: Controller.outbox.count === 1 ? qsTr("1 change waiting")
                                                    : qsTr("%1 changes waiting").arg(
                                                          Controller.outbox.count)
                color: "#8a5a00"
            }
            BusyIndicator {
                running: Controller.online && (userList.query.loading || todoList.query.loading)
                Layout.preferredHeight: 28
                Layout.preferredWidth: 28
            }
            ToolButton {
                objectName: "undoButton"
                text: qsTr("Undo")
                enabled: undoStack.canUndo
                onClicked: undoStack.undo()
                ToolTip.visible: hovered && undoStack.canUndo
                ToolTip.text: qsTr("Undo %1 (Ctrl+Z)").arg(undoStack.undoText)
            }
            ToolButton {
                objectName: "redoButton"
                text: qsTr("Redo")
                enabled: undoStack.canRedo
                onClicked: undoStack.redo()
                ToolTip.visible: hovered && undoStack.canRedo
                ToolTip.text: qsTr("Redo %1 (Ctrl+Shift+Z)").arg(undoStack.redoText)
            }
            // The app's own connectivity source (main.cpp), not the machine's network.
            Switch {
                objectName: "onlineSwitch"
                text: qsTr("Online")
                checked: Controller.online
                onToggled: Controller.online = checked
            }
        }
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: 0

        Rectangle {
            id: offlineBanner
            objectName: "offlineBanner"
            visible: !Controller.online
            color: "#fff4ce"
            border.color: "#f0d68a"
            implicitHeight: visible ? offlineText.implicitHeight + 12 : 0
            Layout.fillWidth: true
            Label {
                id: offlineText
                anchors.fill: parent
                anchors.margins: 6
                text: qsTr("Offline: showing what was loaded. Edits wait in the outbox and reads "
                           + "wait until you are back online; then the edits are sent in order "
                           + "and what is shown is refreshed.")
                color: "#6b4f00"
                wrapMode: Text.Wrap
            }
        }
        RowLayout {
            spacing: 0
            Layout.fillWidth: true
            Layout.fillHeight: true

            UserList {
                id: userList
                objectName: "userList"
                endpoint: users.getList
                selectedUserId: window.userId
                onUserSelected: (id, name) => {
                    window.userId = id;
                    window.userName = name;
                }
                Layout.preferredWidth: 220
                Layout.fillHeight: true
            }
            ColumnLayout {
                spacing: 4
                Layout.fillWidth: true
                Layout.fillHeight: true
                Layout.margins: 6

                NewTodoBar {
                    objectName: "newTodoBar"
                    Layout.fillWidth: true
                    onAddRequested: title => {
                        const params = { userId: window.userId };
                        // No id: the row shows at once under a placeholder key of the
                        // library's, and gets the server's id when it answers. The server lists
                        // newest first, so the new todo goes on top (unshift), and the list
                        // scrolls there: where the user looks, and where it stays when later
                        // pages load.
                        window.add(qsTr("add '%1'").arg(title), params, {
                            userId: window.userId,
                            title: title,
                            completed: false,
                            createdAt: new Date().toISOString()
                        });
                        todoList.showNewest();
                    }
                }
                CheckBox {
                    id: openOnlyCheck
                    objectName: "openOnlyCheck"
                    text: qsTr("Open only")
                }
                TodoList {
                    id: todoList
                    objectName: "todoList"
                    endpoint: todos.getList
                    userId: window.userId
                    openOnly: openOnlyCheck.checked
                    Layout.fillWidth: true
                    Layout.fillHeight: true
                    onToggleRequested: (todo, completed) => window.edit(
                        qsTr("save '%1'").arg(todo.title), { id: todo.id }, { completed: completed })
                    onRenameRequested: (todo, title) => window.edit(
                        qsTr("rename '%1'").arg(todo.title), { id: todo.id }, { title: title })
                    onDeleteRequested: todo => window.remove(
                        qsTr("delete '%1'").arg(todo.title), { id: todo.id })
                }
                Label { // the one line the server panel leaves when the API has no /status
                    objectName: "noStatusLine"
                    visible: activity.absent
                    text: activity.absentReason
                    color: "#666"
                    Layout.fillWidth: true
                }
            }
            ActivityPanel {
                id: activity
                objectName: "activity"
                endpoint: status.get
                visible: !absent
                Layout.preferredWidth: 260
                Layout.fillHeight: true
            }
        }
    }
    // Failures float over the bottom of the window: showing one never moves the rows under the
    // user's pointer.
    Column {
        objectName: "bannerOverlay"
        anchors.bottom: parent.bottom
        anchors.horizontalCenter: parent.horizontalCenter
        anchors.bottomMargin: 12
        width: Math.min(parent.width - 24, 760)
        spacing: 6
        z: 10

        ErrorBanner {
            id: banner
            objectName: "mutationBanner"
            width: parent.width
        }
        // A failed load: the query keeps its error until a retry succeeds.
        ErrorBanner {
            id: loadBanner
            objectName: "loadErrorBanner"
            width: parent.width
            // Hidden while a retry is in flight, so a repeated failure shows it again.
            message: todoList.query.error && !todoList.query.loading
                     ? qsTr("Could not load the todos: %1.").arg(
                           loadBanner.reason(todoList.query.error))
                     : ""
            details: loadBanner.detailsOf(todoList.query.error)
            retry: () => todoList.query.refetch()
        }
    }

    // The store inspector (docs/inspector.md): Ctrl+Shift+D, or --inspector.
    InspectorOverlay {
        objectName: "inspectorOverlay"
        shown: window.inspectorOpen
    }
}
