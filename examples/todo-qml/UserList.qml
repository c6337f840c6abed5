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
            width: view.width
            highlighted: entity.id === root.selectedUserId
            text: entity.name
            onClicked: root.userSelected(entity.id, entity.name)
        }
    }
    BusyIndicator {
        anchors.centerIn: parent
        running: users.status === CollectionModel.Loading && !users.paused // offline: a banner says so
    }
}
