// Lists that follow their data: a committed change (an answer, an optimistic guess, set()) that
// changes a field a stored list filters on moves the entity out of the lists it no longer fits
// and into those it now fits, as one rowsRemoved and one rowsInserted (one rowsMoved within an
// ordered list), never a reset, and without asking the server for any list again.
#include "listfixture.h"

using namespace ListFixture;

namespace {

// Ordered by title: a row whose title changes moves to its place.
class ByTitle : public Collection
{
public:
    bool isOrdered(const Params &) const override { return true; }
    bool lessThan(const Params &, const QJsonObject &a, const QJsonObject &b) const override
    {
        return a.value(u"title"_s).toString() < b.value(u"title"_s).toString();
    }
    QStringList filterFields(const Params &args) const override
    {
        return Collection::filterFields(args) << u"title"_s;
    }
};

} // namespace

class tst_CollectionModelRefilter : public ListTest
{
    Q_OBJECT

private Q_SLOTS:
    void anAnswerMovesTheEntityBetweenFilteredLists()
    {
        start();
        auto open = model({{u"completed"_s, false}});
        auto done = model({{u"completed"_s, true}});
        QCOMPARE(ids(*open), QList<int>({1, 2, 4, 5}));
        QCOMPARE(ids(*done), QList<int>({3, 6}));
        const qsizetype reads = listReads();
        ModelSignals openSignals(open.get()), doneSignals(done.get());

        QVERIFY(
            controller
                ->fetch(todos.partialUpdate, {{u"id"_s, 2}}, QJsonObject {{u"completed"_s, true}})
                .isValid());
        QTRY_COMPARE(ids(*done), QList<int>({3, 6, 2}));
        QCOMPARE(ids(*open), QList<int>({1, 4, 5}));
        verifyRemoved(openSignals, 1);
        verifyInserted(doneSignals, 2);
        // What the server received: the one PATCH, and no list read again.
        const QList<RecordedRequest> patches = server->requests("PATCH", u"/todos/2"_s);
        QCOMPARE(patches.size(), 1);
        QCOMPARE(patches.at(0).json().toObject(), QJsonObject({{u"completed"_s, true}}));
        QCOMPARE(listReads(), reads);
    }

    void setMovesTheEntityWithoutARequest()
    {
        start();
        auto open = model({{u"completed"_s, false}});
        auto done = model({{u"completed"_s, true}});
        const qsizetype requests = server->requestCount();
        ModelSignals openSignals(open.get()), doneSignals(done.get());

        const StoreWrite write
            = controller->set(Schema::entity(EntitySchema(u"Todo"_s)),
                              QJsonObject {{u"id"_s, 6}, {u"completed"_s, false}});
        QVERIFY(!write.error);
        QCOMPARE(ids(*done), QList<int>({3}));
        QCOMPARE(ids(*open), QList<int>({1, 2, 4, 5, 6}));
        verifyRemoved(doneSignals, 1);
        verifyInserted(openSignals, 4);
        QCOMPARE(server->requestCount(), requests);
    }

    void aChangeOfAnotherFieldMovesNothing()
    {
        start();
        auto open = model({{u"completed"_s, false}});
        ModelSignals signalsOfOpen(open.get());
        controller->set(Schema::entity(EntitySchema(u"Todo"_s)),
                        QJsonObject {{u"id"_s, 2}, {u"title"_s, u"renamed"_s}});
        QCOMPARE(ids(*open), QList<int>({1, 2, 4, 5}));
        QCOMPARE(signalsOfOpen.changed.size(), 1);
        QCOMPARE(signalsOfOpen.total(), 1);
    }

    void aRecordWithoutTheFilterFieldStays()
    {
        // The server answers the PATCH without the field the list filters on: the stored record
        // keeps its value (a shallow merge), and the row stays where it is.
        start([](TestServer &s) {
            s.route("PATCH", u"/todos/:id"_s, [](const RecordedRequest &) {
                return ServerResponse::json(QJsonObject {{u"id"_s, 2}, {u"title"_s, u"t"_s}});
            });
        });
        auto user1 = model({{u"userId"_s, 1}});
        ModelSignals s(user1.get());
        QVERIFY(controller
                    ->fetch(todos.partialUpdate, {{u"id"_s, 2}}, QJsonObject {{u"title"_s, u"t"_s}})
                    .isValid());
        QTRY_COMPARE(user1->get(1).toMap().value(u"title"_s).toString(), u"t"_s);
        QCOMPARE(ids(*user1), QList<int>({1, 2, 3}));
        QCOMPARE(s.removed.size() + s.inserted.size() + s.reset.size(), 0);
    }

    void aValueNoListHasLeavesAndJoinsNone()
    {
        start();
        auto user1 = model({{u"userId"_s, 1}});
        auto user2 = model({{u"userId"_s, 2}});
        ModelSignals one(user1.get()), two(user2.get());
        QVERIFY(
            controller->fetch(todos.partialUpdate, {{u"id"_s, 1}}, QJsonObject {{u"userId"_s, 9}})
                .isValid());
        QTRY_COMPARE(ids(*user1), QList<int>({2, 3}));
        verifyRemoved(one, 0);
        QCOMPARE(ids(*user2), QList<int>({4, 5, 6}));
        QCOMPARE(two.total(), 0);
    }

    void overlappingListsKeepTheRowInBothWhileItFitsBoth()
    {
        start();
        auto open = model({{u"completed"_s, false}});
        auto user1 = model({{u"userId"_s, 1}});
        auto openOfUser1 = model({{u"userId"_s, 1}, {u"completed"_s, false}});
        ModelSignals a(open.get()), b(user1.get()), c(openOfUser1.get());
        controller->set(Schema::entity(EntitySchema(u"Todo"_s)),
                        QJsonObject {{u"id"_s, 1}, {u"completed"_s, true}});
        verifyRemoved(a, 0);
        verifyRemoved(c, 0);
        QCOMPARE(ids(*user1), QList<int>({1, 2, 3})); // still fits: stays, its data changed
        QCOMPARE(b.changed.size(), 1);
        QCOMPARE(b.total(), 1);

        a.clear();
        c.clear();
        controller->set(Schema::entity(EntitySchema(u"Todo"_s)),
                        QJsonObject {{u"id"_s, 1}, {u"completed"_s, false}});
        verifyInserted(a, 3);
        verifyInserted(c, 1); // appended: the list holds no order
        QCOMPARE(ids(*openOfUser1), QList<int>({2, 1}));
    }

    void anOrderedListMovesTheRowToItsPlace()
    {
        start({}, false, std::make_shared<ByTitle>());
        auto user1 = model({{u"userId"_s, 1}});
        QCOMPARE(ids(*user1), QList<int>({1, 2, 3})); // "todo 1" < "todo 2" < "todo 3"
        auto user2 = model({{u"userId"_s, 2}});
        ModelSignals s(user1.get()), other(user2.get());
        controller->set(Schema::entity(EntitySchema(u"Todo"_s)),
                        QJsonObject {{u"id"_s, 1}, {u"title"_s, u"todo 9"_s}});
        QCOMPARE(ids(*user1), QList<int>({2, 3, 1}));
        QCOMPARE(s.moved.size(), 1);
        QCOMPARE(s.removed.size() + s.inserted.size() + s.reset.size() + s.layout.size(), 0);

        // Joining an ordered list: where the order says.
        controller->set(Schema::entity(EntitySchema(u"Todo"_s)),
                        QJsonObject {{u"id"_s, 4}, {u"userId"_s, 1}, {u"title"_s, u"todo 2b"_s}});
        QCOMPARE(ids(*user1), QList<int>({2, 4, 3, 1}));
        QCOMPARE(s.inserted.size(), 1);
        QCOMPARE(s.inserted.at(0).at(1).toInt(), 1);
        QCOMPARE(ids(*user2), QList<int>({5, 6}));
        QCOMPARE(other.removed.size(), 1);
        QCOMPARE(other.reset.size(), 0);
    }

    void aCollectionThatKeepsAnswersDoesNotFollow()
    {
        start({}, false, std::make_shared<Collection>(Collection::KeepsAnswers));
        auto open = model({{u"completed"_s, false}});
        auto done = model({{u"completed"_s, true}});
        controller->set(Schema::entity(EntitySchema(u"Todo"_s)),
                        QJsonObject {{u"id"_s, 2}, {u"completed"_s, true}});
        QCOMPARE(ids(*open), QList<int>({1, 2, 4, 5}));
        QCOMPARE(ids(*done), QList<int>({3, 6}));
    }
};

QTEST_MAIN(tst_CollectionModelRefilter)
#include "tst_collectionmodel_refilter.moc"
