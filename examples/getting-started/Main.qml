// Getting started, QML: an Entity, a Resource and a Suspense query shown in a ListView.
pragma ComponentBehavior: Bound

import QtQuick
import QtQuick.Controls
import DataClient

ApplicationWindow {
    id: window

    required property string apiUrl

    width: 480
    height: 640
    visible: true
    title: qsTr("Todos")

    Entity {
        id: todo
        key: "Todo"
        primaryKey: "id"
        fields: ({ createdAt: Deserialize.dateTime })
    }
    Resource {
        id: todos
        urlPrefix: window.apiUrl
        path: "/todos/:id"
        schema: todo
        searchParams: ["userId"]
        optimistic: true
    }
    ListView {
        id: list
        objectName: "todoList"
        anchors.fill: parent
        model: Suspense {
            endpoint: todos.getList
            params: ({ userId: 1 })
        }
        delegate: CheckDelegate {
            required property var entity
            width: list.width
            text: entity.title + "  (" + entity.createdAt.toLocaleDateString() + ")"
            checked: entity.completed
            onToggled: Controller.fetch(todos.partialUpdate, { id: entity.id },
                                        { completed: checked })
        }
    }
}
