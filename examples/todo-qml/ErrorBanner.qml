// A red strip with a message, a Retry button and a close button. `message` may be bound (a
// query's error) or set with show(); dismissing only hides it, so a binding is never broken and
// a new message shows again.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts

Rectangle {
    id: banner

    property string message: ""
    property var retry: null // function, or null for no Retry button
    property bool dismissed: false

    function show(text, retryFunction) {
        message = text;
        retry = retryFunction || null;
        dismissed = false;
    }
    // What the Retry button does: hide, then run the retry (which may show() a new failure).
    function runRetry() {
        const retryFunction = retry;
        dismissed = true;
        if (retryFunction)
            retryFunction();
    }

    onMessageChanged: dismissed = false
    visible: message !== "" && !dismissed
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
            onClicked: banner.runRetry()
        }
        ToolButton {
            text: "✕"
            onClicked: banner.dismissed = true
        }
    }
}
