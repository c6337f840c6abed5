// Controller::set() and remove(): entities written without an endpoint show in every list and
// view fetched from the server, obey the race rule of answers in both orders, end the optimistic
// guesses they supersede, are persisted, and refuse bad input without touching the store.
#include "controllerfixture.h"

#include <DataClient/testing/virtualclock.h>

#include <QtCore/QRegularExpression>
#include <QtCore/QTemporaryDir>
#include <QTest>

using namespace ControllerFixture;
using namespace DataClient::Testing;

class tst_ControllerEntityWrites : public BackendTest
{
    Q_OBJECT

private:
    QTemporaryDir dir; // outlives the Controllers that lock a file in it
    QVariantMap entity(int id) const
    {
        return controller->get(todoSchema(), {{u"id"_s, id}}).data.toMap();
    }
    QVariantMap shown(int id) const
    {
        return controller->getResponse(todos.get, {{u"id"_s, id}}).data.toMap();
    }
    QList<int> list() const { return ids(controller->getResponse(todos.getList, {}).data); }
    QString listTitle(int id) const
    {
        const QVariantList rows = controller->getResponse(todos.getList, {}).data.toList();
        for (const QVariant &row : rows) {
            if (row.toMap().value(u"id"_s).toInt() == id)
                return row.toMap().value(u"title"_s).toString();
        }
        return {};
    }
    //! An optimistic partialUpdate of todo \a id titled "guess", whose answer waits in \a replies.
    QFuture<QVariant> guess(DeferredReplies &replies, int id)
    {
        replies.install(backend->server, "PATCH", u"/todos/%1"_s.arg(id));
        const Resource optimistic = backend->resource(true);
        return controller->fetch(optimistic.partialUpdate, {{u"id"_s, id}},
                                 QJsonObject {{u"title"_s, u"guess"_s}});
    }
    qint64 storedDate(int id) const { return controller->store().entityMeta(todoRef(id)).date; }

protected:
    void setUp() override
    {
        // A list and a view fetched from the server before any write.
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        QVERIFY(await(controller->fetch(todos.get, {{u"id"_s, 2}})).value);
    }

private Q_SLOTS:
    void setOneShowsInTheFetchedListAndView()
    {
        ChangeRecorder changes(controller.get());
        const StoreWrite write = controller->set(todoSchema(), todo(2, 1, u"pushed"_s, true));
        QVERIFY(write.ok());
        QCOMPARE(changes.sets.size(), 1);
        QCOMPARE(changes.sets.at(0), write.changes);
        QVERIFY(write.changes.entities.contains(todoRef(2)));
        // The results showing it changed with it; no result key was written.
        QCOMPARE(write.changes.results,
                 QSet<QString>({todos.getList->key({}), todos.get->key({{u"id"_s, 2}})}));
        QCOMPARE(listTitle(2), u"pushed"_s);
        QCOMPARE(shown(2).value(u"title"_s).toString(), u"pushed"_s);
        QCOMPARE(shown(2).value(u"completed"_s).toBool(), true);
        QCOMPARE(controller->store().resultKeys().size(), 2);

        // The same again changes nothing: nothing is emitted.
        QVERIFY(controller->set(todoSchema(), todo(2, 1, u"pushed"_s, true)).changes.isEmpty());
        QCOMPARE(changes.sets.size(), 1);
    }

    void setManyUpsertsEntitiesAndLeavesListsAsTheyAre_data()
    {
        QTest::addColumn<Schema>("schema");
        QTest::newRow("entity schema, array value") << todoSchema();
        QTest::newRow("array schema") << Schema::array(todoSchema());
        QTest::newRow("getList's collection schema") << todos.getList->schema();
    }
    void setManyUpsertsEntitiesAndLeavesListsAsTheyAre()
    {
        QFETCH(Schema, schema);
        const qsizetype before = controller->store().entityCount(u"Todo"_s);
        ChangeRecorder changes(controller.get());
        const QJsonArray value {todo(3, 1, u"three again"_s), todo(9, 3, u"new"_s)};
        QVERIFY(controller->set(schema, value).ok());
        QCOMPARE(changes.sets.size(), 1);
        QCOMPARE(controller->store().entityCount(u"Todo"_s), before + 1);
        QCOMPARE(listTitle(3), u"three again"_s);
        QCOMPARE(entity(9).value(u"title"_s).toString(), u"new"_s);
        QCOMPARE(list(), QList<int>({1, 2, 3, 4, 5})); // a list changes by its own answers only
    }

    void setNormalizesNestedEntities()
    {
        QJsonObject value = todo(1, 7, u"with author"_s);
        value.insert(u"author"_s, QJsonObject {{u"id"_s, 7}, {u"name"_s, u"Ada"_s}});
        QVERIFY(controller->set(todoSchema(), value).ok());
        QCOMPARE(controller->get(userSchema(), {{u"id"_s, 7}}).data.toMap().value(u"name"_s),
                 QVariant(u"Ada"_s));
        QCOMPARE(entity(1).value(u"author"_s).toMap().value(u"name"_s), QVariant(u"Ada"_s));

        // The nested entity alone changes every todo showing it.
        ChangeRecorder changes(controller.get());
        QVERIFY(controller->set(userSchema(), QJsonObject {{u"id"_s, 7}, {u"name"_s, u"Grace"_s}})
                    .ok());
        QVERIFY(changes.all().entities.contains({u"User"_s, u"7"_s}));
        QCOMPARE(entity(1).value(u"author"_s).toMap().value(u"name"_s), QVariant(u"Grace"_s));
    }

    void setDatedBeforeAStoredAnswerOnlyFillsMissingFields()
    {
        const qint64 answered = storedDate(1);
        QVERIFY(answered > 0);
        QJsonObject older = todo(1, 1, u"older"_s);
        older.insert(u"note"_s, u"only here"_s);
        QVERIFY(controller->set(todoSchema(), older, answered - 1).ok());
        QCOMPARE(listTitle(1), u"one"_s);
        QCOMPARE(entity(1).value(u"note"_s).toString(), u"only here"_s);
        QCOMPARE(storedDate(1), answered);

        QVERIFY(controller->set(todoSchema(), todo(1, 1, u"newer"_s), answered + 1).ok());
        QCOMPARE(listTitle(1), u"newer"_s);
        QCOMPARE(storedDate(1), answered + 1);
    }

    void setDatedBeforeAResetIsDropped()
    {
        const qint64 before = controller->now() - 1;
        controller->resetEntireStore();
        const StoreWrite write = controller->set(todoSchema(), todo(1, 1, u"stale"_s), before);
        QVERIFY(write.ok());
        QVERIFY(write.changes.isEmpty());
        QCOMPARE(controller->store().entityCount(), 0);
        QVERIFY(controller->set(todoSchema(), todo(1, 1, u"fresh"_s)).ok());
        QCOMPARE(entity(1).value(u"title"_s).toString(), u"fresh"_s);
    }

    void answerSentBeforeASetDoesNotReplaceIt()
    {
        // The other order: a read on the wire, a set() meanwhile, then the read's answer.
        // A clock standing still: the set() is ordered after the read by its date alone.
        VirtualClock clock(controller->now() + 1000);
        clock.install(controller.get());
        DeferredReplies replies;
        replies.install(backend->server, "GET", u"/todos"_s);
        controller->invalidate(todos.getList, {});
        QFuture<QVariant> read = controller->fetch(todos.getList, {});
        QVERIFY(replies.waitFor(1));
        QVERIFY(controller->set(todoSchema(), todo(1, 1, u"pushed"_s)).ok());
        replies.pending.at(0).responder.send(ServerResponse::json(seedTodos()));
        QVERIFY(await(read).value);
        QCOMPARE(listTitle(1), u"pushed"_s);
        QCOMPARE(listTitle(2), u"two"_s);

        // A read sent after the set() is newer: its answer replaces it.
        QFuture<QVariant> later = controller->fetch(todos.getList, {});
        QVERIFY(replies.waitFor(2));
        replies.pending.at(1).responder.send(ServerResponse::json(seedTodos()));
        QVERIFY(await(later).value);
        QCOMPARE(listTitle(1), u"one"_s);
    }

    void setSupersedesTheGuessOfAPendingMutation()
    {
        DeferredReplies replies;
        QFuture<QVariant> update = guess(replies, 1);
        QCOMPARE(listTitle(1), u"guess"_s);
        QVERIFY(replies.waitFor(1));
        QCOMPARE(controller->store().optimisticLayers().size(), 1);

        // Dated before the change was sent: the guess stays over it.
        const StoreWrite early
            = controller->set(todoSchema(), todo(1, 1, u"early"_s), storedDate(1) + 1);
        QVERIFY(early.ok());
        QCOMPARE(controller->store().optimisticLayers().size(), 1);
        QCOMPARE(listTitle(1), u"guess"_s);

        // Dated now (after the send): the guess is ended, in the write's one change.
        ChangeRecorder changes(controller.get());
        QVERIFY(controller->set(todoSchema(), todo(1, 1, u"pushed"_s)).ok());
        QVERIFY(controller->store().optimisticLayers().isEmpty());
        QCOMPARE(changes.sets.size(), 1);
        QCOMPARE(listTitle(1), u"pushed"_s);

        // The change's own answer arrives after the set(): the server's confirmed value shows.
        replies.pending.at(0).responder.send(ServerResponse::json(todo(1, 1, u"guess"_s)));
        QVERIFY(await(update).value);
        QCOMPARE(listTitle(1), u"guess"_s);
    }

    void removeHidesTheEntityFromTheFetchedListAndView()
    {
        ChangeRecorder changes(controller.get());
        const StoreWrite write = controller->remove(todoSchema().entitySchema(), u"2"_s);
        QVERIFY(write.ok());
        QCOMPARE(changes.sets.size(), 1);
        QVERIFY(write.changes.entities.contains(todoRef(2)));
        QCOMPARE(list(), QList<int>({1, 3, 4, 5}));
        QVERIFY(!controller->get(todoSchema(), {{u"id"_s, 2}}).found);
        QVERIFY(shown(2).isEmpty());
        QVERIFY(!controller->store().entity(todoRef(2)));

        // Removed again: nothing changes.
        QVERIFY(controller->remove(todoSchema(), u"2"_s).ok());
        QCOMPARE(changes.sets.size(), 1);
        // An older set() cannot bring it back; a newer one does.
        const qint64 removed = storedDate(2);
        QVERIFY(controller->set(todoSchema(), todo(2, 1, u"late"_s), removed - 1).ok());
        QCOMPARE(list(), QList<int>({1, 3, 4, 5}));
        QVERIFY(controller->set(todoSchema(), todo(2, 1, u"back"_s)).ok());
        QCOMPARE(controller->get(todoSchema(), {{u"id"_s, 2}}).data.toMap().value(u"title"_s),
                 QVariant(u"back"_s));
    }

    void removeDatedBeforeANewerWriteKeepsTheEntity()
    {
        QVERIFY(controller->set(todoSchema(), todo(3, 1, u"pushed"_s)).ok());
        const qint64 written = storedDate(3);
        ChangeRecorder changes(controller.get());
        const StoreWrite kept = controller->remove(todoSchema(), u"3"_s, written - 1);
        QVERIFY(kept.ok());
        QVERIFY(kept.changes.isEmpty());
        QVERIFY(changes.sets.isEmpty());
        QCOMPARE(listTitle(3), u"pushed"_s);

        // Dated the same as the write or after it: removed.
        QVERIFY(controller->remove(todoSchema(), u"3"_s, written).ok());
        QCOMPARE(list(), QList<int>({1, 2, 4, 5}));
    }

    void removeSupersedesTheGuessOfAPendingMutation()
    {
        DeferredReplies replies;
        QFuture<QVariant> update = guess(replies, 4);
        QVERIFY(replies.waitFor(1));
        QVERIFY(controller->remove(todoSchema(), u"4"_s).ok());
        QVERIFY(controller->store().optimisticLayers().isEmpty());
        QCOMPARE(list(), QList<int>({1, 2, 3, 5}));
        replies.pending.at(0).responder.send(ServerResponse::json(todo(4, 2, u"guess"_s)));
        QVERIFY(await(update).value);
    }

    void setIsPersisted()
    {
        const QString path = dir.filePath(u"store.dcstore"_s);
        controller->setPersistence(path);
        QCOMPARE(controller->persistence(), path);
        QJsonObject value = todo(42, 7, u"pushed"_s);
        value.insert(u"author"_s, QJsonObject {{u"id"_s, 7}, {u"name"_s, u"Ada"_s}});
        QVERIFY(controller->set(todoSchema(), value).ok());
        QVERIFY(controller->remove(todoSchema(), u"1"_s).ok());
        controller.reset(); // writes what is not on disk yet

        controller = std::make_unique<Controller>();
        controller->setPersistence(path);
        const QVariantMap restored = entity(42);
        QCOMPARE(restored.value(u"title"_s).toString(), u"pushed"_s);
        QCOMPARE(restored.value(u"author"_s).toMap().value(u"name"_s), QVariant(u"Ada"_s));
        QVERIFY(!controller->get(todoSchema(), {{u"id"_s, 1}}).found);
        QCOMPARE(ids(controller->getResponse(todos.getList, {}).data), QList<int>({2, 3, 4, 5}));
    }

    void setFollowsThePersistedSchemas()
    {
        const QString path = dir.filePath(u"schemas.dcstore"_s);
        controller->setPersistence(path);
        QVERIFY(controller->set(todoSchema(), todo(1, 1, u"pushed"_s)).ok());
        // An entity type that is never persisted stays out of the file.
        const Schema secret = Schema::entity(EntitySchema(u"Secret"_s).withPersist(false));
        QVERIFY(controller->set(secret, QJsonObject {{u"id"_s, 1}, {u"pin"_s, 1234}}).ok());
        controller.reset();

        controller = std::make_unique<Controller>();
        controller->setPersistence(path);
        QVERIFY(!controller->get(secret, {{u"id"_s, 1}}).found);
        QCOMPARE(controller->store().entityCount(u"Todo"_s), 5);
        // A build whose Todo schema differs drops the file's records before it writes its own:
        // a stored record is never read under another schema.
        const Schema renamed = Schema::entity(EntitySchema(u"Todo"_s, u"slug"_s));
        QVERIFY(controller->set(renamed, QJsonObject {{u"slug"_s, u"a"_s}}).ok());
        QCOMPARE(controller->store().entityCount(u"Todo"_s), 1);
    }

    void badInputChangesNothing_data()
    {
        QTest::addColumn<QString>("call"); // "set" or "remove"
        QTest::addColumn<Schema>("schema");
        QTest::addColumn<QJsonValue>("value"); // set: the value; remove: the pk (a string)
        QTest::addColumn<qint64>("date");
        QTest::addColumn<QString>("message"); // a regular expression the warning matches

        const QJsonValue one = todo(1, 1, u"bad"_s);
        QTest::newRow("set: null schema")
            << u"set"_s << Schema() << one << qint64(0)
            << u"set\\(\\).*expected an Entity schema.*found a null schema"_s;
        QTest::newRow("set: object schema")
            << u"set"_s << Schema::object({{u"results"_s, Schema::array(todoSchema())}}) << one
            << qint64(0) << u"expected an Entity schema.*found an Object schema"_s;
        QTest::newRow("set: invalidate schema")
            << u"set"_s << Schema::invalidate(todoSchema()) << one << qint64(0)
            << u"found an Invalidate schema"_s;
        QTest::newRow("set: array of plain values")
            << u"set"_s << Schema::array(Schema()) << one << qint64(0)
            << u"found an Array schema of a null schema"_s;
        QTest::newRow("set: a number")
            << u"set"_s << todoSchema() << QJsonValue(5) << qint64(0)
            << u"set\\(Todo\\).*expected an object, or an array of objects"_s;
        QTest::newRow("set: a pk string")
            << u"set"_s << todoSchema() << QJsonValue(u"1"_s) << qint64(0)
            << u"expected an object, or an array of objects"_s;
        QTest::newRow("set: null") << u"set"_s << todoSchema() << QJsonValue() << qint64(0)
                                   << u"expected an object, or an array of objects"_s;
        QTest::newRow("set: a number in the array")
            << u"set"_s << todoSchema() << QJsonValue(QJsonArray {one, 3}) << qint64(0)
            << u"\\[1\\].*expected an object"_s;
        QTest::newRow("set: no pk")
            << u"set"_s << todoSchema() << QJsonValue(QJsonObject {{u"title"_s, u"x"_s}})
            << qint64(0) << u"Todo.*id"_s;
        QTest::newRow("set: no pk in the second item")
            << u"set"_s << todoSchema()
            << QJsonValue(QJsonArray {todo(1, 1, u"first"_s), QJsonObject {{u"title"_s, 2}}})
            << qint64(0) << u"\\[1\\]"_s;
        QTest::newRow("set: nested entity without pk")
            << u"set"_s << todoSchema()
            << QJsonValue(QJsonObject {{u"id"_s, 1}, {u"author"_s, QJsonObject {{u"n"_s, 1}}}})
            << qint64(0) << u"author"_s;
        QTest::newRow("set: negative date") << u"set"_s << todoSchema() << one << qint64(-5)
                                            << u"expected a date of 0 \\(now\\) or more.*-5"_s;
        QTest::newRow("remove: null schema")
            << u"remove"_s << Schema() << QJsonValue(u"1"_s) << qint64(0)
            << u"remove\\(\\).*expected an Entity schema.*found a null schema"_s;
        QTest::newRow("remove: collection schema")
            << u"remove"_s << todos.getList->schema() << QJsonValue(u"1"_s) << qint64(0)
            << u"found a Collection schema"_s;
        QTest::newRow("remove: unknown pk")
            << u"remove"_s << todoSchema() << QJsonValue(u"77"_s) << qint64(0)
            << u"remove\\(Todo\\).*stored Todo.*\"77\", which the store does not hold"_s;
        QTest::newRow("remove: empty pk") << u"remove"_s << todoSchema() << QJsonValue(u""_s)
                                          << qint64(0) << u"found an empty key"_s;
        QTest::newRow("remove: negative date") << u"remove"_s << todoSchema() << QJsonValue(u"1"_s)
                                               << qint64(-1) << u"expected a date of 0"_s;
    }
    void badInputChangesNothing()
    {
        QFETCH(QString, call);
        QFETCH(Schema, schema);
        QFETCH(QJsonValue, value);
        QFETCH(qint64, date);
        QFETCH(QString, message);
        const qsizetype entities = controller->store().entityCount();
        const QStringList results = controller->store().resultKeys();
        const QList<int> listBefore = list();
        const QVariantMap oneBefore = entity(1);
        ChangeRecorder changes(controller.get());

        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(message));
        const StoreWrite write = call == u"set"_s
            ? controller->set(schema, value, date)
            : controller->remove(schema, value.toString(), date);
        QVERIFY(write.error);
        QVERIFY(QRegularExpression(message)
                    .match(u"Controller::"_s + call + u"("_s + write.error->entityKey() + u"): "_s
                           + write.error->message())
                    .hasMatch());
        QVERIFY(write.changes.isEmpty());
        QVERIFY(changes.sets.isEmpty());
        QCOMPARE(controller->store().entityCount(), entities);
        QCOMPARE(controller->store().resultKeys(), results);
        QCOMPARE(list(), listBefore);
        QCOMPARE(entity(1), oneBefore);
    }
};

QTEST_MAIN(tst_ControllerEntityWrites)
#include "tst_controllerentitywrites.moc"
