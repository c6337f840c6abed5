// The example of docs/qml.md, run as a test: a todo list whose check boxes
// toggle todos through partialUpdate.
import QtQuick
import QtQuick.Controls
import QtTest
import DataClient

TestCase {
    id: testCase
    name: "DocExample"
    when: windowShown
    visible: true
    width: 400
    height: 600

    Component {
        id: example
        Item {
            width: 400
            height: 600
            property alias list: list

            Entity { id: todo; key: "Todo"; primaryKey: "id"; fields: ({ createdAt: Deserialize.dateTime }) }
            Resource {
                id: todos
                urlPrefix: backend.url; path: "/todos/:id"; schema: todo
                searchParams: ["userId"]; paginationField: "page"; optimistic: true
            }
            ListView {
                id: list
                anchors.fill: parent
                model: Suspense { endpoint: todos.getList; params: ({ userId: 1 }) }   // a QAbstractListModel
                delegate: CheckBox {
                    required property var entity
                    text: entity.title; checked: entity.completed
                    onToggled: Controller.fetch(todos.partialUpdate, { id: entity.id }, { completed: checked })
                }
            }
        }
    }

    function init() {
        backend.reset()
        Controller.resetEntireStore()
    }

    function test_toggleACheckBox() {
        const page = createTemporaryObject(example, testCase)
        tryCompare(page.list.model, "status", Suspense.Ready)
        // The view asks for page 2 by itself (paginationField is set); this backend's /todos is
        // not paginated, so that page adds nothing and ends the paging. Let it settle first: a
        // read started after the toggle would legitimately win over it (the newer request wins).
        tryCompare(page.list.model, "hasMore", false)
        tryCompare(page.list.model, "loadingMore", false)
        page.list.forceLayout()
        const box = page.list.itemAtIndex(0)
        verify(box)
        const id = box.entity.id
        const wasChecked = box.checked
        box.toggle() // what a click does, without depending on pointer delivery
        box.toggled()
        compare(box.checked, !wasChecked)
        compare(page.list.model.get(0).completed, !wasChecked) // optimistic: at once
        tryVerify(() => backend.todo(id).completed === !wasChecked)
        compare(backend.lastRequest().method, "PATCH")
        tryCompare(page.list.model, "loading", false)
        compare(page.list.model.get(0).completed, !wasChecked)
    }
}
