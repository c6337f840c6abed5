// The screen: the list (ticks save optimistically), a message after a failed save, more on
// scrolling to the end. `screen` is the TodoScreen (set by main.cpp). No ListView header/footer:
// with Qt 6.4 `pragma ComponentBehavior: Bound` makes them fail to instantiate (todo-qml's note).
pragma ComponentBehavior: Bound
import QtQuick

Column {
    id: root
    required property var screen
    width: 400
    height: 600

    Text { text: root.screen.message; color: "firebrick"; visible: text !== "" }
    ListView {
        id: list
        width: root.width
        height: root.height - 40
        model: root.screen.todos
        onAtYEndChanged: if (list.atYEnd && root.screen.todos.hasMore) root.screen.loadMore()
        delegate: Text {
            id: row
            required property int id
            required property string title
            required property bool completed
            width: list.width
            height: 24
            text: (row.completed ? "[x] " : "[ ] ") + row.title
            MouseArea { anchors.fill: row; onClicked: root.screen.setCompleted(row.id, !row.completed) }
        }
    }
    Text { text: root.screen.todos.loading ? "Loading…" : ""; height: 20 }
}
