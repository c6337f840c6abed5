// Interim UI: reads the embedded server with XMLHttpRequest until the DataClient QML types
// (Suspense, Live, Resource, Entity) land; then this file switches to them.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts

ApplicationWindow {
    id: window

    required property string apiUrl
    required property bool embeddedServer
    required property int initialUserId

    property int userId: initialUserId
    property string error: ""
    property int pending: 0
    // The screenshot run waits for this (never for a timer).
    readonly property bool dataShown: users.count > 0 && todos.count > 0
    readonly property string statusText: error !== "" ? "error: " + error
        : "users: " + users.count + ", todos: " + todos.count + ", requests pending: " + pending

    width: 1100
    height: 720
    visible: true
    title: qsTr("DataClient todos")

    function request(path, onOk) {
        const xhr = new XMLHttpRequest();
        window.pending++;
        xhr.onreadystatechange = function() {
            if (xhr.readyState !== XMLHttpRequest.DONE)
                return;
            window.pending--;
            if (xhr.status >= 200 && xhr.status < 300)
                onOk(JSON.parse(xhr.responseText));
            else
                window.error = "GET " + path + ": " + xhr.status + " " + xhr.responseText;
        };
        xhr.open("GET", window.apiUrl + path);
        xhr.send();
    }
    function load() {
        error = "";
        request("/users", function(list) { users.clear(); list.forEach(u => users.append(u)); });
        request("/todos?userId=" + userId, function(list) {
            todos.clear();
            list.forEach(t => todos.append({ title: t.title, completed: t.completed,
                                             createdAt: new Date(t.createdAt) }));
        });
    }
    onUserIdChanged: load()
    Component.onCompleted: load()

    ListModel { id: users }
    ListModel { id: todos }

    header: ToolBar {
        RowLayout {
            anchors.fill: parent
            Label { text: qsTr("DataClient todos"); font.bold: true; Layout.leftMargin: 8 }
            Label { text: window.apiUrl; opacity: 0.6; Layout.fillWidth: true }
            BusyIndicator { running: window.pending > 0; Layout.preferredHeight: 28 }
        }
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: 0
        Rectangle {
            visible: window.error !== ""
            color: "#fdecea"
            Layout.fillWidth: true
            Layout.preferredHeight: 40
            RowLayout {
                anchors.fill: parent
                anchors.margins: 6
                Label { text: window.error; elide: Text.ElideRight; Layout.fillWidth: true }
                Button { text: qsTr("Retry"); onClicked: window.load() }
            }
        }
        RowLayout {
            Layout.fillWidth: true
            Layout.fillHeight: true
            ListView {
                id: userList
                Layout.preferredWidth: 240
                Layout.fillHeight: true
                model: users
                delegate: ItemDelegate {
                    required property int id
                    required property string name
                    required property string username
                    width: userList.width
                    highlighted: id === window.userId
                    text: name + "  (" + username + ")"
                    onClicked: window.userId = id
                }
            }
            ListView {
                id: todoList
                Layout.fillWidth: true
                Layout.fillHeight: true
                clip: true
                model: todos
                delegate: CheckDelegate {
                    required property string title
                    required property bool completed
                    required property date createdAt
                    width: todoList.width
                    checked: completed
                    text: title + "   " + Qt.formatDateTime(createdAt, "yyyy-MM-dd hh:mm")
                }
            }
        }
    }
}
