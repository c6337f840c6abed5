// The live panel: a `Live` query of the server's /status, re-fetched every pollFrequency ms
// while the panel exists, showing the server's clock and its latest requests; offline it says so
// instead of showing the last numbers as if they were live. An API without a
// /status endpoint (404, 405 or 501) sets `absent`: the window hides the panel and shows
// `absentReason`, one line.
pragma ComponentBehavior: Bound

import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import DataClient

Pane {
    id: panel

    required property var endpoint // status.get
    readonly property alias query: live
    readonly property var status: live.data
    // Derived from `status` (not from live.data) so bindings that test `ready` before reading
    // `status` never see one updated without the other.
    readonly property bool ready: status !== null && status !== undefined
    // What the panel shows as the server's numbers: only while online.
    readonly property bool liveShown: ready && Controller.online
    readonly property bool absent: !ready && !!live.error
                                   && [404, 405, 501].indexOf(live.error.status) >= 0
    readonly property string absentReason: qsTr("This API has no /status endpoint "
                                                + "(HTTP %1): the server panel is hidden.")
                                           .arg(live.error ? live.error.status : 0)

    Live {
        id: live
        endpoint: panel.endpoint
        params: ({ id: "server" })
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: 6

        Label {
            objectName: "panelTitle"
            text: Controller.online ? qsTr("Server (live)") : qsTr("Server (offline)")
            font.bold: true
        }
        // Offline nothing is polled: the last numbers would pass for live ones, so they go.
        Label {
            objectName: "panelOfflineLabel"
            visible: !Controller.online
            text: panel.ready
                  ? qsTr("Offline: not polling. Last answer at %1.").arg(
                        Qt.formatDateTime(panel.status.time, "hh:mm:ss"))
                  : qsTr("Offline: not polling.")
            color: "#6b4f00"
            wrapMode: Text.Wrap
            Layout.fillWidth: true
        }
        Label {
            visible: live.error !== null && live.error !== undefined && !panel.ready
            text: qsTr("No /status here: %1").arg(live.error ? live.error.message : "")
            wrapMode: Text.Wrap
            Layout.fillWidth: true
        }
        Label {
            objectName: "panelClock"
            visible: panel.liveShown
            text: panel.ready ? Qt.formatDateTime(panel.status.time, "hh:mm:ss") : ""
            font.pixelSize: 28
        }
        Label {
            objectName: "panelRequests"
            visible: panel.liveShown
            text: panel.ready
                  ? qsTr("%1 requests since %2").arg(panel.status.requestCount)
                        .arg(Qt.formatDateTime(panel.status.startedAt, "hh:mm:ss"))
                  : ""
            color: "#666"
        }
        Label {
            visible: panel.liveShown && (panel.status.latency > 0 || panel.status.failRate > 0
                                     || panel.status.refuseRate > 0)
            text: panel.ready ? qsTr("latency %1 ms, fail rate %2, refuse rate %3")
                                .arg(panel.status.latency).arg(panel.status.failRate)
                                .arg(panel.status.refuseRate || 0) : ""
            color: "#8a1c14"
        }
        Label {
            visible: panel.liveShown
            text: qsTr("Recent requests")
            font.bold: true
            Layout.topMargin: 8
        }
        Repeater {
            model: panel.liveShown ? panel.status.recent : []
            delegate: Label {
                required property var modelData
                text: modelData.method + " " + modelData.path + "  " + modelData.status
                color: modelData.status >= 400 ? "#b3261e" : "#333"
                font.family: "monospace"
                elide: Text.ElideRight
                Layout.fillWidth: true
            }
        }
        Item {
            Layout.fillHeight: true
        }
    }
}
