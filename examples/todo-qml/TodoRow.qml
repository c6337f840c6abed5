// One todo: a check box (toggle), its title (double-click or ✎ to rename), when it was created
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
        TextField {
            id: editor
            visible: false
            Layout.fillWidth: true
            function open() {
                text = row.entity.title;
                visible = true;
                forceActiveFocus();
                selectAll();
            }
            onAccepted: {
                visible = false;
                if (text.trim() !== "" && text !== row.entity.title)
                    row.renameRequested(text.trim());
            }
            Keys.onEscapePressed: visible = false
            onActiveFocusChanged: if (!activeFocus) visible = false
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
