// The users (getList of the users resource); clicking one selects whose todos are shown.
pragma ComponentBehavior: Bound

import QtQuick
import QtQuick.Controls
import DataClient

ListView {
    id: list

    required property var endpoint // users.getList
    property int selectedUserId: 0
    readonly property alias query: users

    signal userSelected(int userId, string name)

    clip: true
    model: Suspense {
        id: users
        endpoint: list.endpoint
        params: ({})
    }
    header: Label {
        text: qsTr("Users")
        font.bold: true
        padding: 8
    }
    delegate: ItemDelegate {
        required property var entity
        width: list.width
        highlighted: entity.id === list.selectedUserId
        text: entity.name
        onClicked: list.userSelected(entity.id, entity.name)
    }
    BusyIndicator {
        anchors.centerIn: parent
        running: users.status === Suspense.Loading
    }
}
