// A red strip with a message, a Retry button and a close button. show() replaces what is shown.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts

Rectangle {
    id: banner

    property string message: ""
    property var retry: null // function, or null for no Retry button

    function show(text, retryFunction) {
        message = text;
        retry = retryFunction || null;
    }
    function clear() {
        message = "";
        retry = null;
    }

    visible: message !== ""
    color: "#fdecea"
    border.color: "#f5c2c0"
    implicitHeight: visible ? row.implicitHeight + 12 : 0

    RowLayout {
        id: row
        anchors.fill: parent
        anchors.margins: 6
        Label {
            text: "⚠ " + banner.message
            color: "#8a1c14"
            wrapMode: Text.Wrap
            maximumLineCount: 2
            elide: Text.ElideRight
            Layout.fillWidth: true
        }
        Button {
            visible: banner.retry !== null
            text: qsTr("Retry")
            onClicked: {
                const retry = banner.retry;
                banner.clear();
                retry();
            }
        }
        ToolButton {
            text: "✕"
            onClicked: banner.clear()
        }
    }
}
