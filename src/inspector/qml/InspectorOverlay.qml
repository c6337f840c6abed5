// The store inspector over a Qt Quick app (docs/inspector.md): one line in the app's window,
//     InspectorOverlay {}
// toggled with Ctrl+Shift+D. Tabs: the entities (by type), the results, the requests, the
// outbox, the Controller's status and the timeline of changes; the search field filters every
// tab by key, pk or URL.
// Closed, its StoreInspector is detached: nothing is recorded.
pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import QtQml.Models
import DataClient.Inspector

Item {
    id: overlay

    //! Open or closed (Ctrl+Shift+D toggles it).
    property bool shown: false
    //! The Controller to inspect; unset: the engine's (the Controller singleton's).
    property alias controller: inspector.controller
    property alias inspector: inspector
    property alias currentTab: tabs.currentIndex
    property alias search: searchField.text
    //! The entity type whose entities the Entities tab lists.
    property int typeRow: 0

    function matches(text) {
        return search.length === 0 || String(text).toLowerCase().indexOf(search.toLowerCase()) >= 0
    }

    anchors.fill: parent
    z: 1000

    StoreInspector {
        id: inspector
        objectName: "storeInspector"
        active: overlay.shown
    }

    Shortcut {
        sequence: "Ctrl+Shift+D"
        context: Qt.ApplicationShortcut
        onActivated: overlay.shown = !overlay.shown
    }

    Rectangle {
        id: panel
        objectName: "inspectorPanel"
        visible: overlay.shown
        anchors.fill: parent
        anchors.margins: 24
        color: "#f4f6f8"
        border.color: "#8a96a3"
        radius: 6

        // The app below gets no clicks while the panel is open.
        MouseArea { anchors.fill: parent; acceptedButtons: Qt.AllButtons; onWheel: (wheel) => wheel.accepted = true }

        ColumnLayout {
            anchors.fill: parent
            anchors.margins: 10
            spacing: 6

            RowLayout {
                Layout.fillWidth: true
                Label { text: qsTr("Store inspector"); font.bold: true; font.pixelSize: 16 }
                Label {
                    objectName: "inspectorStatus"
                    text: inspector.statusText
                    color: "#4a5561"
                    Layout.fillWidth: true
                    elide: Text.ElideRight
                }
                TextField {
                    id: searchField
                    objectName: "inspectorSearch"
                    placeholderText: qsTr("Search keys, pks, URLs")
                    Layout.preferredWidth: 240
                }
                Switch {
                    text: qsTr("Online")
                    checked: inspector.online
                    enabled: inspector.attached
                    onToggled: inspector.online = checked
                }
                Button { text: qsTr("Reset store"); onClicked: inspector.resetStore() }
                Button { text: qsTr("Close"); onClicked: overlay.shown = false }
            }

            TabBar {
                id: tabs
                objectName: "inspectorTabs"
                Layout.fillWidth: true
                TabButton { text: qsTr("Entities") }
                TabButton { text: qsTr("Results") }
                TabButton { text: qsTr("Requests") }
                TabButton { text: qsTr("Outbox") }
                TabButton { text: qsTr("Status") }
                TabButton { text: qsTr("Timeline") }
            }

            StackLayout {
                Layout.fillWidth: true
                Layout.fillHeight: true
                currentIndex: tabs.currentIndex

                // Entities: the types on the left, the chosen type's entities on the right.
                RowLayout {
                    spacing: 8
                    ListView {
                        id: typeList
                        objectName: "typeList"
                        Layout.preferredWidth: 180
                        Layout.fillHeight: true
                        clip: true
                        model: inspector.entities
                        currentIndex: overlay.typeRow
                        delegate: ItemDelegate {
                            required property int index
                            required property string type
                            required property int count
                            width: ListView.view.width
                            text: type + " (" + count + ")"
                            highlighted: index === overlay.typeRow
                            onClicked: overlay.typeRow = index
                        }
                    }
                    ListView {
                        objectName: "entityList"
                        Layout.fillWidth: true
                        Layout.fillHeight: true
                        clip: true
                        // The chosen type's children; no model while there is no type (the
                        // root's rows are types, not entities).
                        model: DelegateModel {
                            model: typeList.count > overlay.typeRow ? inspector.entities : null
                            rootIndex: typeList.count > overlay.typeRow
                                       ? inspector.entities.index(overlay.typeRow, 0)
                                       : inspector.entities.index(-1, 0)
                            delegate: Rectangle {
                                id: entityRow
                                objectName: "entityRow"
                                required property string type
                                required property string pk
                                required property string fields
                                required property bool optimistic
                                required property var references
                                readonly property bool match: overlay.matches(pk + " " + fields)
                                visible: match
                                width: ListView.view.width
                                height: match ? entityText.implicitHeight + 8 : 0
                                color: optimistic ? "#fff4d6" : "transparent"
                                Text {
                                    id: entityText
                                    anchors.left: parent.left
                                    anchors.right: entityActions.left
                                    anchors.verticalCenter: parent.verticalCenter
                                    font.family: "monospace"
                                    font.pixelSize: 12
                                    elide: Text.ElideRight
                                    text: entityRow.pk + "  " + entityRow.fields
                                          + (entityRow.references.length
                                             ? "  -> " + entityRow.references.join(", ") : "")
                                }
                                Row {
                                    id: entityActions
                                    anchors.right: parent.right
                                    anchors.verticalCenter: parent.verticalCenter
                                    ToolButton {
                                        text: qsTr("Copy")
                                        onClicked: inspector.copy(inspector.entityJson(entityRow.type, entityRow.pk))
                                    }
                                    ToolButton {
                                        text: qsTr("Drop")
                                        onClicked: inspector.dropEntity(entityRow.type, entityRow.pk)
                                    }
                                }
                            }
                        }
                    }
                }

                ListView {
                    objectName: "resultList"
                    clip: true
                    model: inspector.results
                    delegate: Rectangle {
                        id: resultRow
                        objectName: "resultRow"
                        required property string key
                        required property string summary
                        required property string preview
                        readonly property bool match: overlay.matches(key)
                        visible: match
                        width: ListView.view.width
                        height: match ? resultColumn.implicitHeight + 8 : 0
                        color: "transparent"
                        Column {
                            id: resultColumn
                            anchors.left: parent.left
                            anchors.right: resultActions.left
                            anchors.verticalCenter: parent.verticalCenter
                            Text { width: parent.width; elide: Text.ElideRight; text: resultRow.summary; font.pixelSize: 12 }
                            Text {
                                width: parent.width
                                elide: Text.ElideRight
                                text: resultRow.preview
                                font.family: "monospace"
                                font.pixelSize: 11
                                color: "#4a5561"
                            }
                        }
                        Row {
                            id: resultActions
                            anchors.right: parent.right
                            anchors.verticalCenter: parent.verticalCenter
                            ToolButton { text: qsTr("Invalidate"); onClicked: inspector.invalidate(resultRow.key) }
                            ToolButton { text: qsTr("Expire"); onClicked: inspector.expire(resultRow.key) }
                            ToolButton { text: qsTr("Refetch"); onClicked: inspector.refetch(resultRow.key) }
                            ToolButton { text: qsTr("Copy"); onClicked: inspector.copy(inspector.answerJson(resultRow.key)) }
                        }
                    }
                }

                ListView {
                    objectName: "requestList"
                    clip: true
                    model: inspector.requests
                    delegate: Text {
                        objectName: "requestRow"
                        required property string summary
                        required property string url
                        required property string error
                        readonly property bool match: overlay.matches(url)
                        visible: match
                        width: ListView.view.width
                        height: match ? implicitHeight + 4 : 0
                        elide: Text.ElideRight
                        font.pixelSize: 12
                        text: summary + (error ? "  " + error : "")
                    }
                }

                ListView {
                    objectName: "outboxList"
                    clip: true
                    model: inspector.outbox
                    delegate: Text {
                        objectName: "outboxRow"
                        required property string method
                        required property string url
                        readonly property bool match: overlay.matches(url)
                        visible: match
                        width: ListView.view.width
                        height: match ? implicitHeight + 4 : 0
                        font.pixelSize: 12
                        text: method + " " + url
                    }
                }

                ListView {
                    objectName: "statusList"
                    clip: true
                    model: inspector.status
                    delegate: Text {
                        objectName: "statusRow"
                        required property string name
                        required property string value
                        width: ListView.view.width
                        font.pixelSize: 12
                        text: name + ": " + value
                    }
                }

                // Timeline: each change of the store, what made it and the rows it changed.
                ListView {
                    objectName: "timelineList"
                    clip: true
                    model: inspector.timeline
                    delegate: Text {
                        objectName: "timelineRow"
                        required property string summary
                        readonly property bool match: overlay.matches(summary)
                        visible: match
                        width: ListView.view.width
                        height: match ? implicitHeight + 4 : 0
                        elide: Text.ElideRight
                        font.pixelSize: 12
                        text: summary
                    }
                }
            }
        }
    }
}
