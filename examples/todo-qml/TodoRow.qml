// One todo: a check box (toggle), its title (double-click or ✎ to rename: Return or a click
// elsewhere keeps the new title, Escape cancels), when it was created
// (a Date, from the Deserialize.dateTime field) and a delete button. It only asks; the list's
// owner runs the optimistic mutations. A row the server has not confirmed yet (the model's
// `pending` role: a new todo, or an edit on its way) is greyed; edits of a new todo wait for its
// create and are then sent with the server's id (docs/optimistic-updates.md). A row of another
// user's list, shown while this user's list loads (the model's `placeholder`), is dimmed and
// cannot be edited: it is not this user's todo.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts

Rectangle {
    id: row

    required property var entity
    required property int index
    required property bool pending
    property bool placeholder: false

    signal toggleRequested(bool completed)
    signal renameRequested(string title)
    signal deleteRequested

    objectName: "todoRow"
    implicitHeight: 40
    color: index % 2 ? "#f7f7f7" : "white"

    RowLayout {
        objectName: "todoRowContent"
        anchors.fill: parent
        enabled: !row.placeholder
        opacity: row.placeholder ? 0.35 : 1
        anchors.leftMargin: 6
        anchors.rightMargin: 6
        spacing: 8

        CheckBox {
            objectName: "todoCheck"
            checked: row.entity.completed
            onToggled: row.toggleRequested(checked)
        }
        Label {
            id: title
            visible: !editor.visible
            text: row.entity.title
            font.strikeout: row.entity.completed
            opacity: row.pending ? 0.5 : 1
            elide: Text.ElideRight
            Layout.fillWidth: true
            MouseArea {
                anchors.fill: parent
                onDoubleClicked: editor.open()
            }
        }
        // As in Qt's item views: Return or leaving the field (a click elsewhere, Tab) keeps the
        // new title; Escape cancels.
        TextField {
            id: editor
            objectName: "titleEditor"
            visible: false
            Layout.fillWidth: true
            function open() {
                text = row.entity.title;
                visible = true;
                forceActiveFocus();
                selectAll();
            }
            function commit() {
                if (!visible)
                    return; // cancelled, or committed already
                visible = false;
                focus = false; // a hidden editor keeping the focus would take Ctrl+Z for itself
                const title = text.trim();
                if (title !== "" && title !== row.entity.title)
                    row.renameRequested(title);
            }
            onAccepted: commit()
            Keys.onEscapePressed: {
                visible = false; // hidden first: the focus loss commits nothing
                focus = false;
            }
            onActiveFocusChanged: if (!activeFocus) commit()
        }
        Label {
            text: Qt.formatDateTime(row.entity.createdAt, "d MMM yyyy, hh:mm")
            color: "#666"
        }
        ToolButton {
            text: "✎"
            onClicked: editor.open()
            ToolTip.visible: hovered
            ToolTip.text: qsTr("Rename")
        }
        ToolButton {
            text: "✕"
            onClicked: row.deleteRequested()
            ToolTip.visible: hovered
            ToolTip.text: qsTr("Delete")
        }
    }
}
