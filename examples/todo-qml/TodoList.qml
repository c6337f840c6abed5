// One user's todos: `Suspense` on todos.getList with { userId } — a list model that updates with
// the smallest signals whenever any request changes one of its todos. Scrolling to the end loads
// the next page (getList.getPage) into the same list.
pragma ComponentBehavior: Bound

import QtQuick
import QtQuick.Controls
import DataClient

ListView {
    id: list

    required property var endpoint // todos.getList
    required property int userId
    readonly property alias query: todos

    signal toggleRequested(var todo, bool completed)
    signal renameRequested(var todo, string title)
    signal deleteRequested(var todo)

    clip: true
    model: Suspense {
        id: todos
        endpoint: list.endpoint
        params: list.userId > 0 ? { userId: list.userId } : null
    }
    delegate: TodoRow {
        width: list.width
        onToggleRequested: completed => list.toggleRequested(entity, completed)
        onRenameRequested: title => list.renameRequested(entity, title)
        onDeleteRequested: list.deleteRequested(entity)
    }
    // Infinite scroll: the model never starts a second page while one is in flight.
    onAtYEndChanged: {
        if (atYEnd && todos.hasMore && !todos.loadingMore)
            todos.loadMore();
    }
    footer: Item {
        width: list.width
        height: todos.loadingMore || !todos.hasMore ? 40 : 0
        BusyIndicator {
            anchors.centerIn: parent
            height: 32
            running: todos.loadingMore
        }
        Label {
            anchors.centerIn: parent
            visible: !todos.hasMore && todos.count > 0
            text: qsTr("%1 todos, all loaded").arg(todos.count)
            color: "#666"
        }
    }
    BusyIndicator {
        anchors.centerIn: parent
        running: todos.status === CollectionModel.Loading
    }
    Label {
        anchors.centerIn: parent
        visible: todos.status === CollectionModel.Ready && todos.count === 0
        text: qsTr("Nothing to do.")
    }
    ScrollBar.vertical: ScrollBar {}
}
