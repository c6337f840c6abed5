// A primary key that cannot be computed from a record is refused, however the pk is declared:
// a pk field, a gadget's pk() (its fields declared or found), a pk function given its fields.
// Never stored under the pk of the gadget's defaults ("0" for `int id = 0`), nothing written.
#include "gadgettodo.h"

#include <DataClient/schema.h>
#include <DataClient/store.h>
#include <DataClient/private/storelayers_p.h>

#include <QtCore/QJsonArray>
#include <QTest>

using namespace DataClient;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(DataClient::EntitySchema)

namespace {

// The same with `primaryKey`: the control (already refused).
struct FieldTodo
{
    Q_GADGET
    Q_PROPERTY(int id MEMBER id)
    Q_PROPERTY(QString title MEMBER title)
public:
    int id = 0;
    QString title;
    static constexpr auto key = "Todo";
    static constexpr auto primaryKey = "id";
};

// A composite pk read from two properties, one of them a string holding a number.
struct Membership
{
    Q_GADGET
    Q_PROPERTY(QString group MEMBER group)
    Q_PROPERTY(int user MEMBER user)
    Q_PROPERTY(QString role MEMBER role)
public:
    QString group;
    int user = 0;
    QString role;
    QString pk() const { return group + u'/' + QString::number(user); }
    static constexpr auto key = "Membership";
};

// pk() in a form a changed default cannot reveal (a hash): the fields are declared.
struct Hashed
{
    Q_GADGET
    Q_PROPERTY(QString code MEMBER code)
    Q_PROPERTY(QString title MEMBER title)
public:
    QString code;
    QString title;
    QString pk() const { return QString::number(qHash(code)); }
    static constexpr auto key = "Hashed";
    static constexpr const char *pkFields[] = {"code"};
};

// One record of its kind: its pk reads no field.
struct Settings
{
    Q_GADGET
    Q_PROPERTY(QString theme MEMBER theme)
public:
    QString theme;
    QString pk() const { return u"me"_s; }
    static constexpr auto key = "Settings";
};

EntitySchema membershipFunction()
{
    return EntitySchema(u"Membership"_s,
                        [](const QJsonObject &value) {
                            return value.value(u"group"_s).toString() + u'/'
                                + QString::number(value.value(u"user"_s).toInt());
                        },
                        {u"group"_s, u"user"_s});
}

} // namespace

class tst_GadgetPk : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void theFieldsPkReadsAreFound()
    {
        QCOMPARE(EntitySchema::fromGadget<GadgetTodo>().pkFields(), QStringList {u"id"_s});
        QCOMPARE(EntitySchema::fromGadget<Membership>().pkFields(),
                 (QStringList {u"group"_s, u"user"_s}));
        QCOMPARE(EntitySchema::fromGadget<Hashed>().pkFields(), QStringList {u"code"_s});
        QCOMPARE(EntitySchema::fromGadget<FieldTodo>().pkFields(), QStringList {u"id"_s});
        QVERIFY(EntitySchema::fromGadget<Settings>().pkFields().isEmpty());
        QCOMPARE(membershipFunction().pkFields(), (QStringList {u"group"_s, u"user"_s}));
        // A pk function without its fields: unknown, nothing checked.
        QVERIFY(
            EntitySchema(u"X"_s, [](const QJsonObject &) { return u"x"_s; }).pkFields().isEmpty());
    }

    void aRecordWithoutItsPkFieldsHasNoPk_data()
    {
        QTest::addColumn<EntitySchema>("schema");
        QTest::addColumn<QJsonObject>("record");
        QTest::addColumn<QStringList>("missing");
        const QJsonObject title {{u"title"_s, u"x"_s}};
        QTest::newRow("pk() of an int id: no id")
            << EntitySchema::fromGadget<GadgetTodo>() << title << QStringList {u"id"_s};
        QTest::newRow("pk() of an int id: null")
            << EntitySchema::fromGadget<GadgetTodo>()
            << QJsonObject {{u"id"_s, QJsonValue::Null}, {u"title"_s, u"x"_s}}
            << QStringList {u"id"_s};
        QTest::newRow("pk() of an int id: not a number")
            << EntitySchema::fromGadget<GadgetTodo>()
            << QJsonObject {{u"id"_s, u"abc"_s}, {u"title"_s, u"x"_s}} << QStringList {u"id"_s};
        QTest::newRow("pk() of two fields: one missing")
            << EntitySchema::fromGadget<Membership>()
            << QJsonObject {{u"group"_s, u"g"_s}, {u"role"_s, u"admin"_s}}
            << QStringList {u"user"_s};
        QTest::newRow("pk() with declared pkFields")
            << EntitySchema::fromGadget<Hashed>() << title << QStringList {u"code"_s};
        QTest::newRow("pk function given its fields")
            << membershipFunction() << QJsonObject {{u"role"_s, u"admin"_s}}
            << QStringList {u"group"_s, u"user"_s};
        QTest::newRow("primaryKey field")
            << EntitySchema::fromGadget<FieldTodo>() << title << QStringList {u"id"_s};
    }
    void aRecordWithoutItsPkFieldsHasNoPk()
    {
        QFETCH(EntitySchema, schema);
        QFETCH(QJsonObject, record);
        QFETCH(QStringList, missing);
        QCOMPARE(schema.missingPkFields(record), missing);
        QCOMPARE(schema.pk(record), QString()); // not the defaults' "0" or "g/0"
    }

    // What the store does with it: a SchemaError naming the entity and the field(s), nothing
    // written, as an entity, in a list (the whole answer), and as an optimistic guess.
    void aRecordWithoutItsPkFieldsIsRefused_data() { aRecordWithoutItsPkFieldsHasNoPk_data(); }
    void aRecordWithoutItsPkFieldsIsRefused()
    {
        QFETCH(EntitySchema, schema);
        QFETCH(QJsonObject, record);
        QFETCH(QStringList, missing);
        const Schema entity = Schema::entity(schema);
        Store store;
        const QJsonObject kept = schema.key() == u"Membership"
            ? QJsonObject {{u"group"_s, u"g"_s}, {u"user"_s, 1}, {u"code"_s, u"c"_s}}
            : QJsonObject {{u"id"_s, 1}, {u"code"_s, u"c"_s}, {u"title"_s, u"kept"_s}};
        QVERIFY(store.setResponse(u"kept"_s, entity, {}, kept, Meta {1, 1, 1}).ok());
        const qsizetype before = store.entityCount();
        const QStringList keysBefore = store.resultKeys();

        const StoreWrite write = store.setResponse(u"one"_s, entity, {}, record, Meta {2, 2, 2});
        QVERIFY2(!write.ok(), "a record without its pk fields was stored");
        const QString message = write.error->message();
        QVERIFY2(message.contains(u"entity \"%1\""_s.arg(schema.key())), qPrintable(message));
        for (const QString &field : missing)
            QVERIFY2(message.contains(u'"' + field + u'"'), qPrintable(message));
        QVERIFY2(message.contains(u"primary key"_s), qPrintable(message));

        const Schema list = Schema::collection(Schema::array(entity));
        QVERIFY(!store.setResponse(u"list"_s, list, {}, QJsonArray {kept, record}, Meta {3, 3, 3})
                     .ok());
        QVERIFY(!StoreLayers::setOptimisticResponse(store, 7, QString(), entity, {}, record,
                                                    Meta {4, 4, 4})
                     .ok());

        QCOMPARE(store.entityCount(), before);
        QCOMPARE(store.resultKeys(), keysBefore);
        QVERIFY(!store.entity(EntityRef {schema.key(), u"0"_s}));
        QVERIFY(!store.entity(EntityRef {schema.key(), u"g/0"_s}));
        QVERIFY(!store.entity(EntityRef {schema.key(), u"/0"_s}));
    }

    void theMessageSaysWhatIsMissingAndWhere()
    {
        Store store;
        const Schema list = Schema::array(Schema::entity<GadgetTodo>());
        const StoreWrite write = store.setResponse(
            u"l"_s, list, {},
            QJsonArray {QJsonObject {{u"id"_s, 1}}, QJsonObject {{u"title"_s, u"x"_s}}},
            Meta {1, 1, 1});
        QVERIFY(!write.ok());
        QCOMPARE(write.error->message(),
                 u"Schema error in entity \"Todo\" at \"[1].id\": expected a primary key, which "
                 u"its pk() computes from the field \"id\" (present and not null, converting to "
                 u"the property's type), found \"id\": nothing in the object {\"title\":\"x\"}"_s);
        QCOMPARE(store.entityCount(), 0);
    }

    void recordsWithTheirPkFieldsAreStored()
    {
        Store store;
        QVERIFY(store
                    .setResponse(u"t"_s, Schema::entity<GadgetTodo>(), {},
                                 QJsonObject {{u"id"_s, u"12"_s}, {u"title"_s, u"x"_s}},
                                 Meta {1, 1, 1})
                    .ok());
        QVERIFY(store.entity(EntityRef {u"Todo"_s, u"12"_s}));
        // An id of 0 that the server sends is a pk like any other.
        QVERIFY(store
                    .setResponse(u"z"_s, Schema::entity<GadgetTodo>(), {},
                                 QJsonObject {{u"id"_s, 0}, {u"title"_s, u"zero"_s}},
                                 Meta {1, 1, 1})
                    .ok());
        QCOMPARE(store.entity(EntityRef {u"Todo"_s, u"0"_s})->value(u"title"_s), u"zero"_s);
        QVERIFY(store
                    .setResponse(u"m"_s, Schema::entity<Membership>(), {},
                                 QJsonObject {{u"group"_s, u"g"_s}, {u"user"_s, 3}}, Meta {1, 1, 1})
                    .ok());
        QVERIFY(store.entity(EntityRef {u"Membership"_s, u"g/3"_s}));
        QVERIFY(store
                    .setResponse(u"s"_s, Schema::entity<Settings>(), {},
                                 QJsonObject {{u"theme"_s, u"dark"_s}}, Meta {1, 1, 1})
                    .ok());
        QVERIFY(store.entity(EntityRef {u"Settings"_s, u"me"_s}));
    }
};

QTEST_GUILESS_MAIN(tst_GadgetPk)
#include "tst_gadgetpk.moc"
