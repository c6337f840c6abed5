// The users (getList of the users resource); clicking one selects whose todos are shown.
pragma ComponentBehavior: Bound

import QtQuick
import QtQuick.Controls
import DataClient

Item {
    id: root

    required property var endpoint // users.getList
    property int selectedUserId: 0
    readonly property alias query: users
    readonly property alias count: view.count

    signal userSelected(int userId, string name)

    // APIs differ: a user may have no `name`; then its username, its email, or its id.
    function displayName(user) {
        return user.name || user.username || user.email || qsTr("User %1").arg(user.id);
    }

    Suspense {
        id: users
        endpoint: root.endpoint
        params: ({})
    }
    Label {
        id: heading
        text: qsTr("Users")
        font.bold: true
        padding: 8
    }
    ListView {
        id: view
        anchors.top: heading.bottom
        anchors.bottom: parent.bottom
        width: parent.width
        clip: true
        model: users
        delegate: ItemDelegate {
            required property var entity
            objectName: "userRow"
            width: view.width
            highlighted: entity.id === root.selectedUserId
            text: root.displayName(entity)
            onClicked: root.userSelected(entity.id, text)
        }
    }
    BusyIndicator {
        anchors.centerIn: parent
        running: users.status === CollectionModel.Loading && !users.paused // offline: a banner says so
    }
}
