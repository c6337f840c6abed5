// SuspenseBoundary: shows `fallback` while any Suspense / Live inside has nothing to show yet,
// and `errorDelegate` (with a retry) when one fails; otherwise the content.
//
//     SuspenseBoundary {
//         id: boundary
//         anchors.fill: parent
//         ListView { anchors.fill: parent; model: Suspense { endpoint: todos.getList; params: ({}) } ... }
//         errorDelegate: Component {
//             Text { text: boundary.error.message; TapHandler { onTapped: boundary.retry() } }
//         }
//     }
//
// The content stays loaded while hidden, so its queries keep running.
pragma ComponentBehavior: Bound

import QtQuick
import DataClient

Item {
    id: boundary

    //! The children: shown when no query inside is loading or failed.
    default property alias content: container.data
    //! Shown while some query inside has nothing to show yet.
    property Component fallback: defaultFallback
    //! Shown when a query inside fails; read `boundary.error` and call `boundary.retry()`.
    property Component errorDelegate: defaultError

    readonly property bool loading: scope.loading && !scope.failed
    readonly property bool failed: scope.failed
    //! The first failed query's error: {status, statusText, message, body, url, kind}, or null.
    readonly property var error: scope.error
    //! Queries inside.
    readonly property int count: scope.count

    //! Fetches every failed query inside again.
    function retry() {
        scope.retry()
    }

    implicitWidth: container.childrenRect.width
    implicitHeight: container.childrenRect.height

    QueryScope {
        id: scope
    }

    Item {
        id: container
        anchors.fill: parent
        visible: !boundary.loading && !boundary.failed
    }

    // The fallback or the error view, made with createObject() rather than a Loader: a Loader
    // instantiates in a context of its own, which Qt refuses for components declared in a file
    // with `pragma ComponentBehavior: Bound` ("Cannot instantiate bound component outside its
    // creation context"); createObject() uses the component's own creation context.
    Item {
        id: overlay

        readonly property Component shown: boundary.failed ? boundary.errorDelegate
                                                           : boundary.loading ? boundary.fallback
                                                                              : null
        property Item item: null

        function show() {
            if (item)
                item.destroy()
            item = shown ? shown.createObject(overlay) : null
            if (item)
                item.anchors.fill = overlay
        }

        anchors.fill: parent
        onShownChanged: show()
        Component.onCompleted: show()
    }

    Component {
        id: defaultFallback
        Text {
            text: qsTr("Loading…")
            horizontalAlignment: Text.AlignHCenter
            verticalAlignment: Text.AlignVCenter
        }
    }

    Component {
        id: defaultError
        Column {
            spacing: 8
            Text {
                width: parent.width
                wrapMode: Text.Wrap
                text: boundary.error ? boundary.error.message : ""
            }
            Text {
                text: qsTr("Retry")
                font.underline: true
                TapHandler {
                    onTapped: boundary.retry()
                }
            }
        }
    }
}
