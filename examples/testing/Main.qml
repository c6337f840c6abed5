// The screen: the list (ticks save optimistically), a message after a failed save, more on
// scrolling to the end. `screen` is the TodoScreen (a context property).
import QtQuick

ListView {
    id: list
    width: 400
    height: 600
    model: screen.todos
    header: Text { text: screen.message; color: "firebrick"; visible: text !== "" }
    footer: Text { text: screen.todos.loading ? "Loading…" : ""; height: 20 }
    onAtYEndChanged: if (atYEnd && screen.todos.hasMore) screen.loadMore()
    delegate: Text {
        required property int id
        required property string title
        required property bool completed
        width: list.width
        height: 24
        text: (completed ? "[x] " : "[ ] ") + title
        MouseArea { anchors.fill: parent; onClicked: screen.setCompleted(id, !completed) }
    }
}
