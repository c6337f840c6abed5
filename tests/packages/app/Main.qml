import QtQuick
import DataClient

Window {
    id: window
    width: 320
    height: 240
    visible: true

    required property string serverUrl
    property int rows: list.count
    signal rowsShown

    Entity {
        id: todo
        key: "Todo"
        primaryKey: "id"
        fields: ({ id: 0, title: "" })
    }
    Resource {
        id: todos
        path: "/todos/:id"
        schema: todo
        urlPrefix: window.serverUrl
    }
    Suspense {
        id: query
        endpoint: todos.getList
        params: ({})
    }
    ListView {
        id: list
        anchors.fill: parent
        model: query
        delegate: Text { required property var entity; text: entity.title }
        onCountChanged: if (count === 3) window.rowsShown()
    }
}
