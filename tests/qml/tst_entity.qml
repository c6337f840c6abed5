// Entity and Deserialize: a declaration becomes a schema; mistakes are reported, not hidden.
import QtQuick
import QtTest
import DataClient

TestCase {
    id: testCase
    name: "Entity"

    Entity {
        id: user
        key: "User"
        primaryKey: "id"
        fields: ({ id: 0, name: "" })
    }
    Entity {
        id: todo
        key: "Todo"
        primaryKey: "id"
        fields: ({
            id: 0, title: "", completed: false,
            createdAt: Deserialize.dateTime,
            price: Deserialize.decimal,
            author: user,
            tags: function(value) { return value.split(",") }
        })
    }
    Entity {
        id: composite
        key: "Membership"
        primaryKey: function(record) { return record.group + "/" + record.user }
    }

    // Field deserializers and a nested entity, read through a Resource.
    Entity { id: owner; key: "Owner"; primaryKey: "id"; fields: ({ id: 0, name: "" }) }
    Entity {
        id: product
        key: "Product"
        primaryKey: "id"
        fields: ({
            price: Deserialize.decimal,
            createdAt: Deserialize.dateTime,
            tags: function(value) { return value.split(",") },
            owner: owner
        })
    }
    Resource { id: products; urlPrefix: backend.url; path: "/products/:id"; schema: product }
    // process: runs on every record before it is normalized
    Entity {
        id: labelled
        key: "LabelledProduct"
        primaryKey: "id"
        process: function(record, parent, args) { record.label = record.name + " #" + record.id; return record }
    }
    Resource { id: labelledProducts; urlPrefix: backend.url; path: "/products/:id"; schema: labelled }
    Component { id: labelledQuery; Suspense { endpoint: labelledProducts.get; params: ({ id: 2 }) } }
    Resource { id: owners; urlPrefix: backend.url; path: "/owners/:id"; schema: owner }
    Component { id: productQuery; Suspense { endpoint: products.get; params: ({ id: 1 }) } }
    Component { id: productList; Suspense { endpoint: products.getList; params: ({}) } }
    Component { id: ownerQuery; Suspense { endpoint: owners.get; params: ({ id: 7 }) } }

    Component { id: noKey; Entity { primaryKey: "id" } }
    Component { id: noPrimaryKey; Entity { key: "Thing" } }
    Component { id: badPrimaryKey; Entity { key: "Thing"; primaryKey: 5 } }
    Component { id: badFields; Entity { key: "Thing"; primaryKey: "id"; fields: [1, 2] } }
    Component { id: badField; Entity { key: "Thing"; primaryKey: "id"; fields: ({ when: testCase }) } }

    function test_validEntities() {
        verify(todo.valid, todo.errorString)
        compare(todo.errorString, "")
        verify(user.valid)
        verify(composite.valid, composite.errorString)
    }

    function test_fieldNamesAreTheModelRoles() {
        compare(todo.fieldNames, ["id", "title", "completed", "createdAt", "price", "author", "tags"])
        compare(composite.fieldNames, [])
    }

    function init() {
        backend.reset()
        Controller.resetEntireStore()
    }

    function test_fieldsAreDeserializedWhenRead() {
        const query = createTemporaryObject(productQuery, testCase)
        tryCompare(query, "status", Suspense.Ready)
        const pen = query.data
        compare(String(pen.price), "1.10") // every digit kept
        compare(pen.tags, ["blue", "office"])
        verify(pen.createdAt instanceof Date)
        compare(pen.createdAt.getUTCFullYear(), 2023)
        compare(pen.owner.name, "Ada")
    }

    function test_processRunsOnEveryRecord() {
        const query = createTemporaryObject(labelledQuery, testCase)
        tryCompare(query, "status", Suspense.Ready)
        compare(query.data.label, "Ink #2")
    }

    function test_nestedEntitiesAreNormalized() {
        const list = createTemporaryObject(productList, testCase)
        tryCompare(list, "status", Suspense.Ready)
        compare(list.count, 2)
        // Owner 7 came inside the products: reading it needs no request.
        const before = backend.totalRequests()
        const ada = createTemporaryObject(ownerQuery, testCase)
        compare(ada.status, Suspense.Ready)
        compare(ada.data.name, "Ada")
        compare(backend.totalRequests(), before)
    }

    function test_deserializersDescribeTheirInput() {
        compare(Deserialize.dateTime.expected, "an ISO 8601 date-time string")
        verify(Deserialize.decimal.expected.length > 0)
        const custom = Deserialize.custom("a comma list", function(v) { return v.split(",") })
        compare(custom.expected, "a comma list")
    }

    function test_customWithoutFunctionWarns() {
        ignoreWarning(/Deserialize.custom\(\): the second argument must be a function/)
        compare(Deserialize.custom("x", 5), null)
    }

    function test_missingKeyIsAnError_data() {
        return [
            { tag: "no key", component: noKey, message: /`key` is not set/ },
            { tag: "no primaryKey", component: noPrimaryKey, message: /`primaryKey` must be a field name .* got undefined/ },
            { tag: "number primaryKey", component: badPrimaryKey, message: /`primaryKey` must be a field name .* got 5/ },
            { tag: "fields not an object", component: badFields, message: /`fields` must be an object/ },
            { tag: "field of a wrong kind", component: badField, message: /field "when" holds a/ },
        ]
    }
    function test_missingKeyIsAnError(data) {
        ignoreWarning(data.message)
        const entity = createTemporaryObject(data.component, testCase)
        verify(entity)
        verify(!entity.valid)
        verify(data.message.test(entity.errorString), entity.errorString)
    }

    function test_changingAPropertyRebuilds() {
        const entity = createTemporaryQmlObject('import DataClient; Entity { key: "A"; primaryKey: "id" }', testCase)
        verify(entity.valid)
        const spy = createTemporaryQmlObject('import QtTest; SignalSpy { signalName: "schemaChanged" }', testCase)
        spy.target = entity
        entity.fields = ({ id: 0, name: "" })
        compare(spy.count, 1)
        compare(entity.fieldNames, ["id", "name"])
        ignoreWarning(/`key` is not set/)
        entity.key = ""
        verify(!entity.valid)
    }
}
