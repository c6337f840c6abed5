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
