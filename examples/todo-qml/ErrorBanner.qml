// A red card saying in words what failed ("Could not save "Buy milk": the server refused it
// (500)."), with a Retry button, a close button and, behind "Details", the request and the
// server's answer for whoever wants them. The window lays it over the list (it never pushes rows
// down under the user's pointer). `message` may be bound (a query's error) or set with show() /
// showFailure(); dismissing only hides it, so a binding is never broken and a new message shows
// again.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts

Rectangle {
    id: banner

    property string message: ""
    property string details: ""
    property var retry: null // function, or null for no Retry button
    property bool dismissed: false
    property bool expanded: false

    // Why it failed, in a few words a user can act on (the error object of a query or of
    // Controller.fetch(): status, kind, message, body).
    function reason(error) {
        if (!error)
            return qsTr("something went wrong");
        if (error.status === 404)
            return qsTr("it is no longer on the server (404)");
        if (error.status >= 400)
            return qsTr("the server refused it (%1)").arg(error.status);
        if (error.kind === "Timeout")
            return qsTr("the server did not answer in time");
        if (error.status === 0)
            return qsTr("the server could not be reached");
        return qsTr("the server answered %1").arg(error.status);
    }
    // The request and the answer, for the Details part.
    function detailsOf(error) {
        if (!error)
            return "";
        const body = typeof error.body === "object" && error.body !== null
                ? JSON.stringify(error.body) : (error.body || "");
        // (The message often quotes the body already.)
        return error.message + (body !== "" && error.message.indexOf(body) < 0 ? "\n" + body : "");
    }
    function show(text, retryFunction, detailText) {
        message = text;
        details = detailText || "";
        retry = retryFunction || null;
        dismissed = false;
        expanded = false;
    }
    // "Could not <what>: <reason>." with the error's details.
    function showFailure(what, error, retryFunction) {
        show(qsTr("Could not %1: %2.").arg(what).arg(reason(error)), retryFunction,
             detailsOf(error));
    }
    // What the Retry button does: hide, then run the retry (which may show() a new failure).
    function runRetry() {
        const retryFunction = retry;
        dismissed = true;
        if (retryFunction)
            retryFunction();
    }

    onMessageChanged: {
        dismissed = false;
        expanded = false;
    }
    visible: message !== "" && !dismissed
    color: "#fdecea"
    border.color: "#f5c2c0"
    radius: 4
    implicitHeight: content.implicitHeight + 12

    ColumnLayout {
        id: content
        anchors.fill: parent
        anchors.margins: 6
        spacing: 2

        RowLayout {
            Label {
                objectName: "bannerText"
                text: "⚠ " + banner.message
                color: "#8a1c14"
                wrapMode: Text.Wrap
                maximumLineCount: 2
                elide: Text.ElideRight
                Layout.fillWidth: true
            }
            ToolButton {
                objectName: "bannerDetailsButton"
                visible: banner.details !== ""
                text: banner.expanded ? qsTr("Hide details") : qsTr("Details")
                onClicked: banner.expanded = !banner.expanded
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
        Label {
            objectName: "bannerDetails"
            visible: banner.expanded
            text: banner.details
            color: "#5f1510"
            font.family: "monospace"
            wrapMode: Text.WrapAnywhere
            maximumLineCount: 6
            elide: Text.ElideRight
            Layout.fillWidth: true
        }
    }
}
