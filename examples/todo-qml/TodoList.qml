// One user's todos: `Suspense` on todos.getList with { userId } — a list model that updates with
// the smallest signals whenever any request changes one of its todos. Scrolling to the end loads
// the next page (getList.getPage) into the same list. Switched to another user, the previous
// user's rows stay as a placeholder while the new list loads: dimmed, and not editable (a read
// paused offline keeps no placeholder: the list shows what is stored for the user, or says that
// nothing is).
// (No ListView header/footer: with Qt 6.4, `pragma ComponentBehavior: Bound` makes them fail to
// instantiate, so the paging indicator is an overlay.)
pragma ComponentBehavior: Bound

import QtQuick
import QtQuick.Controls
import DataClient

Item {
    id: root

    required property var endpoint // todos.getList
    required property int userId
    // Only the todos not completed: { userId, completed: false }. The list follows its todos: one
    // completed here leaves it at once, as one remove the view animates (docs/collections.md).
    property bool openOnly: false
    readonly property alias query: todos
    readonly property alias count: view.count

    // Scrolls to the top, where a todo just added is (the list is newest first).
    function showNewest() {
        view.positionViewAtBeginning();
    }

    signal toggleRequested(var todo, bool completed)
    signal renameRequested(var todo, string title)
    signal deleteRequested(var todo)

    Suspense {
        id: todos
        endpoint: root.endpoint
        params: root.userId > 0 ? (root.openOnly ? { userId: root.userId, completed: false }
                                                 : { userId: root.userId }) : null
    }
    ListView {
        id: view
        objectName: "todoView"
        anchors.fill: parent
        anchors.bottomMargin: pageStatus.height
        clip: true
        model: todos
        delegate: TodoRow {
            width: view.width
            placeholder: todos.placeholder
            // Never an edit of a row that is not this user's (the delegate is disabled too).
            onToggleRequested: completed => {
                if (!todos.placeholder)
                    root.toggleRequested(entity, completed);
            }
            onRenameRequested: title => {
                if (!todos.placeholder)
                    root.renameRequested(entity, title);
            }
            onDeleteRequested: {
                if (!todos.placeholder)
                    root.deleteRequested(entity);
            }
        }
        // Infinite scroll: the model never starts a second page while one is in flight.
        onAtYEndChanged: {
            if (atYEnd && todos.hasMore && !todos.loadingMore)
                todos.loadMore();
        }
        // A todo leaving the list (completed under "Open only", deleted) fades out; the rows
        // below close the gap.
        remove: Transition {
            NumberAnimation { property: "opacity"; to: 0; duration: 150 }
        }
        removeDisplaced: Transition {
            NumberAnimation { property: "y"; duration: 150 }
        }
        ScrollBar.vertical: ScrollBar {}
    }
    Item {
        id: pageStatus
        anchors.bottom: parent.bottom
        width: parent.width
        height: todos.count > 0 ? 32 : 0
        // Offline, a page asked for waits for the connection: no spinner, a line says so.
        readonly property bool waitingOffline: todos.loadingMore && !Controller.online
        BusyIndicator {
            objectName: "pageSpinner"
            anchors.centerIn: parent
            height: 28
            running: todos.loadingMore && !pageStatus.waitingOffline
            visible: running
        }
        Row {
            anchors.centerIn: parent
            spacing: 8
            visible: (!todos.loadingMore || pageStatus.waitingOffline) && todos.count > 0
            Label {
                objectName: "pageStatusLabel"
                anchors.verticalCenter: parent.verticalCenter
                // A page that failed is the page's error: the rows loaded so far stay.
                text: pageStatus.waitingOffline
                      ? qsTr("%1 todos loaded; offline: more load when back online").arg(
                            todos.count)
                      : todos.pageError
                      ? qsTr("%1 todos loaded; the next page failed: %2").arg(todos.count).arg(
                            todos.pageError.message)
                      : todos.hasMore ? qsTr("%1 todos loaded, scroll for more").arg(todos.count)
                                      : qsTr("%1 todos, all loaded").arg(todos.count)
                color: todos.pageError ? "#a00" : "#666"
            }
            Button {
                visible: !!todos.pageError
                text: qsTr("Retry")
                onClicked: todos.retryPage()
            }
        }
    }
    BusyIndicator {
        anchors.centerIn: parent
        running: todos.status === CollectionModel.Loading && !todos.paused
    }
    Label {
        anchors.centerIn: parent
        visible: todos.status === CollectionModel.Ready && todos.count === 0
        text: qsTr("Nothing to do.")
    }
    Label {
        objectName: "notLoadedLabel"
        anchors.centerIn: parent
        visible: todos.paused && todos.count === 0
        text: qsTr("Offline: this user's todos were not loaded yet.")
        color: "#6b4f00"
    }
}
