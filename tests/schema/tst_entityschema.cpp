// EntitySchema: dynamic and Q_GADGET entities, typed results (docs/schemas.md).
#include <DataClient/decimal.h>
#include <DataClient/record.h>
#include <DataClient/schema.h>
#include <DataClient/store.h>

#include <QTest>

#include "utcdatetime.h"

using namespace DataClient;
using namespace Qt::StringLiterals;

struct Address
{
    Q_GADGET
    Q_PROPERTY(QString city MEMBER city)
public:
    QString city;
    friend bool operator==(const Address &a, const Address &b) { return a.city == b.city; }
    friend bool operator!=(const Address &a, const Address &b) { return !(a == b); }
};

struct Todo
{
    Q_GADGET
    Q_PROPERTY(int id MEMBER id)
    Q_PROPERTY(QString title MEMBER title)
    Q_PROPERTY(bool completed MEMBER completed)
    Q_PROPERTY(QDateTime createdAt MEMBER createdAt)
    Q_PROPERTY(DataClient::Decimal price MEMBER price)
    Q_PROPERTY(Address address MEMBER address)
    Q_PROPERTY(QStringList tags MEMBER tags)
public:
    int id = 0;
    QString title = u"untitled"_s;
    bool completed = false;
    QDateTime createdAt;
    Decimal price;
    Address address;
    QStringList tags;
    QString pk() const { return QString::number(id); }
    static constexpr auto key = "Todo";
};

struct Tagged
{
    Q_GADGET
    Q_PROPERTY(QString name MEMBER name)
public:
    QString name;
    static constexpr auto key = "Tag";
    static constexpr auto primaryKey = "name";
};

class tst_EntitySchema : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void dynamicSchema()
    {
        const EntitySchema user = EntitySchema(u"User"_s, u"login"_s);
        QCOMPARE(user.key(), u"User"_s);
        QCOMPARE(user.pk(QJsonObject {{u"login"_s, u"ann"_s}}), u"ann"_s);
        QCOMPARE(user.pk(QJsonObject {{u"login"_s, 12}}), u"12"_s);
        QCOMPARE(user.pk(QJsonObject {{u"name"_s, u"x"_s}}), QString());
        const EntitySchema composite(u"Membership"_s, [](const QJsonObject &value) {
            return value.value(u"group"_s).toString() + u'/' + value.value(u"user"_s).toString();
        });
        QCOMPARE(composite.pk(QJsonObject {{u"group"_s, u"g"_s}, {u"user"_s, u"u"_s}}), u"g/u"_s);
        QVERIFY(composite.pkField().isEmpty());

        const EntitySchema todo = EntitySchema(u"Todo"_s)
                                      .withField(u"createdAt"_s, Deserialize::dateTime())
                                      .withNested(u"author"_s, Schema::entity(user));
        QCOMPARE(todo.deserializedFields(), QStringList {u"createdAt"_s});
        QCOMPARE(todo.nestedFields(), QStringList {u"author"_s});
        QCOMPARE(todo.nested(u"author"_s).entitySchema(), user);
        QVERIFY(todo.nested(u"other"_s).isNull());
        QVERIFY(!todo.deserializer(u"createdAt"_s).isNull());
        QVERIFY(todo.deserializer(u"title"_s).isNull());
        // with*() returns a copy; the original is unchanged
        const EntitySchema plain(u"Todo"_s);
        QVERIFY(plain.withField(u"x"_s, Deserialize::decimal()) != plain);
        QVERIFY(plain.deserializedFields().isEmpty());
        QVERIFY(EntitySchema().isNull());
    }

    void shallowMergeByDefault()
    {
        const EntitySchema thing(u"Thing"_s);
        QCOMPARE(thing.merge(QJsonObject {{u"a"_s, 1}, {u"b"_s, QJsonObject {{u"x"_s, 1}}}},
                             QJsonObject {{u"b"_s, QJsonObject {{u"y"_s, 2}}}}),
                 (QJsonObject {{u"a"_s, 1}, {u"b"_s, QJsonObject {{u"y"_s, 2}}}}));
    }

    void gadgetSchema()
    {
        const EntitySchema schema = EntitySchema::fromGadget<Todo>();
        QCOMPARE(schema.key(), u"Todo"_s);
        QCOMPARE(schema.gadget(), &Todo::staticMetaObject);
        QCOMPARE(schema.pk(QJsonObject {{u"id"_s, 5}, {u"title"_s, u"x"_s}}), u"5"_s);
        // QDateTime and Decimal properties get their deserializers
        QCOMPARE(schema.deserializedFields(), (QStringList {u"createdAt"_s, u"price"_s}));
        QCOMPARE(schema.defaults().value(u"title"_s), QVariant(u"untitled"_s));
        QCOMPARE(Schema::entity<Todo>().key(), u"Todo"_s);

        const EntitySchema tag = EntitySchema::fromGadget<Tagged>();
        QCOMPARE(tag.pkField(), u"name"_s);
        QCOMPARE(tag.pk(QJsonObject {{u"name"_s, u"qt"_s}}), u"qt"_s);
    }

    void typedResultsFromTheStore()
    {
        Store store;
        const Schema schema = Schema::entity<Todo>();
        const QJsonObject value {{u"id"_s, 3},
                                 {u"completed"_s, true},
                                 {u"createdAt"_s, u"2023-05-15T15:36:43.144Z"_s},
                                 {u"price"_s, u"19.99"_s},
                                 {u"address"_s, QJsonObject {{u"city"_s, u"Zürich"_s}}},
                                 {u"tags"_s, QJsonArray {u"a"_s, u"b"_s}}};
        QVERIFY(store.setResponse(u"t"_s, schema, {}, value, Meta {1, 1, 1}).ok());
        const QVariant data = store.denormalize(u"t"_s, schema, {}).data;
        QString error;
        const Todo todo = fromVariant<Todo>(data, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(todo.id, 3);
        QCOMPARE(todo.title, u"untitled"_s); // missing: the gadget's default
        QVERIFY(todo.completed);
        QCOMPARE(todo.createdAt, utcDateTime(QDate(2023, 5, 15), QTime(15, 36, 43, 144)));
        QCOMPARE(todo.price, *Decimal::fromString(u"19.99"_s));
        QCOMPARE(todo.address.city, u"Zürich"_s);
        QCOMPARE(todo.tags, (QStringList {u"a"_s, u"b"_s}));
        // the same from a plain map
        const Todo fromMap = fromVariant<Todo>(data.toMap());
        QCOMPARE(fromMap.price, todo.price);
        QCOMPARE(fromMap.createdAt, todo.createdAt);
        // and a list
        QVERIFY(store
                    .setResponse(u"l"_s, Schema::collection(schema), {}, QJsonArray {value},
                                 Meta {1, 1, 1})
                    .ok());
        const QList<Todo> list
            = fromVariantList<Todo>(store.denormalize(u"l"_s, Schema::collection(schema), {}).data);
        QCOMPARE(list.size(), 1);
        QCOMPARE(list.first().id, 3);
    }

    void typedResultFromBadValue()
    {
        QString error;
        const Todo todo = fromVariant<Todo>(
            QVariantMap {{u"id"_s, u"not a number"_s}, {u"title"_s, u"ok"_s}}, &error);
        QVERIFY2(error.contains(u"id"_s), qPrintable(error));
        QCOMPARE(todo.title, u"ok"_s);
        error.clear();
        fromVariant<Todo>(QVariant(42), &error);
        QVERIFY(error.contains(u"expected an object"_s));
    }
};

QTEST_GUILESS_MAIN(tst_EntitySchema)
#include "tst_entityschema.moc"
