// Kept data while params change (issue 13 item 4, docs/networking.md): a CollectionModel
// re-targeted to a key with nothing stored keeps the rows it showed, with isPlaceholder() and
// isLoading() true, until the new key answers; the new rows then arrive as precise row signals,
// never a modelReset. The server holds each list answer until the test sends it, so every step
// of the change is observed.
#include <DataClient/collectionmodel.h>

#include "controllerfixture.h"
#include "modelsignals.h"

#include <QtCore/QJsonObject>
#include <QtTest/QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include <memory>
#include <optional>

using namespace DataClient;
using namespace DataClient::Testing;
using namespace ControllerFixture;
using namespace Qt::StringLiterals;

namespace {

// The row signals a view reacts to, and placeholderChanged().
struct QuerySignals : ModelSignals
{
    explicit QuerySignals(CollectionModel *model)
        : ModelSignals(model), placeholder(model, &CollectionModel::placeholderChanged)
    { }
    void clear()
    {
        ModelSignals::clear();
        placeholder.clear();
    }
    QSignalSpy placeholder;
};

// The seed (controllerfixture.h): todos 1-3 of user 1, 4-5 of user 2.
const Params user1 {{u"userId"_s, 1}};
const Params user2 {{u"userId"_s, 2}};
const Params everyone {};

} // namespace

class tst_CollectionModelKeepPrevious : public BackendTest
{
    Q_OBJECT

public:
    tst_CollectionModelKeepPrevious() : BackendTest(true) { }

private:
    DeferredReplies held;

    void setUp() override { held.pending.clear(); }
    std::unique_ptr<CollectionModel> makeModel(const EndpointPtr &endpoint, const Params &params)
    {
        auto model = std::make_unique<CollectionModel>(controller.get(), endpoint, params);
        new QAbstractItemModelTester(
            model.get(), QAbstractItemModelTester::FailureReportingMode::QtTest, model.get());
        return model;
    }
    std::unique_ptr<CollectionModel> loadedList(const Params &params)
    {
        auto model = makeModel(todos.getList, params);
        if (!QTest::qWaitFor([&] { return model->status() == CollectionModel::Ready; }))
            qWarning("the list of %s did not load", qPrintable(model->key()));
        return model;
    }
    // From now on the server holds every answer at `path` until answer() sends it.
    void holdAnswers(const QString &path) { held.install(backend->server, "GET", path); }
    qsizetype heldIndex(const QString &query) const
    {
        for (qsizetype i = 0; i < held.pending.size(); ++i)
            if (held.pending.at(i).request.query.toString() == query)
                return i;
        return -1;
    }
    bool isHeld(const QString &query) const { return heldIndex(query) >= 0; }
    // Sends the held answer of the request with \a query: \a response, or by default what the
    // API would have answered.
    void answer(const QString &query, const std::optional<ServerResponse> &response = {})
    {
        const qsizetype index = heldIndex(query);
        QVERIFY2(index >= 0, qPrintable(u"no request with query '%1' is held"_s.arg(query)));
        const auto request = held.pending.takeAt(index);
        request.responder.send(response ? *response
                                        : ServerResponse::json(served(request.request)));
    }
    QJsonValue served(const RecordedRequest &request) const
    {
        if (request.pathParams.contains(u"id"_s))
            return backend->api.item(u"/todos"_s, request.pathParams.value(u"id"_s).toInt());
        return todosOf(request.query.queryItemValue(u"userId"_s).toInt());
    }
    //! The todos of \a userId on the server (0: all).
    QJsonArray todosOf(int userId) const
    {
        QJsonArray list;
        for (const auto &item : backend->api.collection(u"/todos"_s))
            if (userId == 0 || item.toObject().value(u"userId"_s).toInt() == userId)
                list.append(item);
        return list;
    }
    QList<int> idsOf(int userId) const { return ids(todosOf(userId).toVariantList()); }
    static QList<int> rowIds(const CollectionModel &model)
    {
        QList<int> result;
        for (int row = 0; row < model.rowCount(); ++row)
            result.append(model.get(row).toMap().value(u"id"_s).toInt());
        return result;
    }
    qsizetype listRequests() const { return backend->server.requests("GET", u"/todos"_s).size(); }
    // The model shows the kept rows of \a rows as a placeholder while its own key loads.
    void verifyPlaceholder(const CollectionModel &model, const QList<int> &rows) const
    {
        QVERIFY(model.isPlaceholder());
        QVERIFY(model.isLoading());
        QCOMPARE(model.status(), CollectionModel::Ready);
        QVERIFY(!model.networkError());
        QCOMPARE(rowIds(model), rows);
    }

    // Re-targets \a model (showing user 1) to user 2, whose answer the server holds: the
    // switch emits no row signal, and user 1's rows stay as the placeholder.
    void switchToUser2(CollectionModel &model)
    {
        const QList<int> shown = rowIds(model);
        holdAnswers(u"/todos"_s);
        ModelSignals rows(&model);
        model.setParams(user2);
        verifyPlaceholder(model, shown);
        QTRY_VERIFY(isHeld(u"userId=2"_s));
        verifyPlaceholder(model, shown);
        QCOMPARE(rows.total(), 0);
    }

private Q_SLOTS:
    void keepsTheRowsUntilTheNewKeyAnswers()
    {
        auto model = loadedList(user1);
        const QList<int> shown = rowIds(*model);
        QVERIFY(!model->isPlaceholder());
        holdAnswers(u"/todos"_s);
        QuerySignals spy(model.get());

        model->setParams(everyone); // user 1's todos and the others
        verifyPlaceholder(*model, shown);
        QCOMPARE(model->key(), u"GET %1/todos"_s.arg(backend->server.url()));
        QTRY_VERIFY(isHeld(QString()));
        QCOMPARE(backend->server.lastRequest().query.toString(), QString());
        verifyPlaceholder(*model, shown);
        QCOMPARE(spy.total(), 0); // no reset, no removal: the view keeps its rows
        QCOMPARE(spy.placeholder.size(), 1);

        answer(QString());
        QTRY_VERIFY(!model->isPlaceholder());
        QVERIFY(!model->isLoading());
        QCOMPARE(rowIds(*model), idsOf(0));
        QCOMPARE(spy.placeholder.size(), 2);
        // User 1's rows stay where they are (same entities: no dataChanged); the others are
        // inserted around them.
        QCOMPARE(spy.reset.size(), 0);
        QCOMPARE(spy.removed.size(), 0);
        QCOMPARE(spy.moved.size(), 0);
        QCOMPARE(spy.changed.size(), 0);
        int insertedRows = 0;
        for (const auto &signal : std::as_const(spy.inserted))
            insertedRows += signal.at(2).toInt() - signal.at(1).toInt() + 1;
        QCOMPARE(insertedRows, idsOf(0).size() - shown.size());
    }

    void otherEntitiesReplaceTheKeptRowsInOneStep()
    {
        auto model = loadedList(user1);
        const qsizetype before = model->rowCount();
        switchToUser2(*model);
        QuerySignals spy(model.get());

        answer(u"userId=2"_s);
        QTRY_VERIFY(!model->isPlaceholder());
        QCOMPARE(rowIds(*model), idsOf(2));
        // One removal and one insertion in the same update: the view never paints an empty list.
        QCOMPARE(spy.reset.size(), 0);
        QCOMPARE(spy.removed.size(), 1);
        QCOMPARE(spy.removed.at(0).at(1).toInt(), 0);
        QCOMPARE(spy.removed.at(0).at(2).toInt(), before - 1);
        QCOMPARE(spy.inserted.size(), 1);
        QCOMPARE(spy.inserted.at(0).at(2).toInt(), model->rowCount() - 1);
    }

    void keepPreviousOffShowsAnEmptyModelAtOnce()
    {
        auto model = loadedList(user1);
        QSignalSpy keepChanged(model.get(), &CollectionModel::keepPreviousChanged);
        QVERIFY(model->keepsPrevious()); // the default
        model->setKeepPrevious(false);
        QCOMPARE(keepChanged.size(), 1);
        holdAnswers(u"/todos"_s);
        QuerySignals spy(model.get());

        model->setParams(user2); // today's behaviour: a reset to nothing, status Loading
        QCOMPARE(model->rowCount(), 0);
        QCOMPARE(model->status(), CollectionModel::Loading);
        QVERIFY(!model->isPlaceholder());
        QCOMPARE(spy.reset.size(), 1);
        QCOMPARE(spy.placeholder.size(), 0);
        QTRY_VERIFY(isHeld(u"userId=2"_s));
        answer(u"userId=2"_s);
        QTRY_COMPARE(model->status(), CollectionModel::Ready);
        QCOMPARE(rowIds(*model), idsOf(2));
    }

    void turningKeepPreviousOffEndsThePlaceholder()
    {
        auto model = loadedList(user1);
        switchToUser2(*model);
        QuerySignals spy(model.get());
        model->setKeepPrevious(false);
        QVERIFY(!model->isPlaceholder());
        QCOMPARE(model->rowCount(), 0);
        QCOMPARE(model->status(), CollectionModel::Loading);
        QVERIFY(model->isLoading());
        QCOMPARE(spy.removed.size(), 1);
        QCOMPARE(spy.reset.size(), 0);
    }

    void aStoredKeyShowsAtOnceWithoutPlaceholder()
    {
        auto model = loadedList(user1);
        auto other = loadedList(user2); // user 2's list is stored now
        QuerySignals spy(model.get());
        model->setParams(user2);
        QCOMPARE(rowIds(*model), idsOf(2));
        QCOMPARE(model->status(), CollectionModel::Ready);
        QVERIFY(!model->isPlaceholder());
        QCOMPARE(spy.placeholder.size(), 0);
        QCOMPARE(spy.reset.size(), 1); // as before kept data: another stored key is a reset
        QCOMPARE(listRequests(), 2);
    }

    void aFailureEndsThePlaceholderAndShowsTheError()
    {
        auto model = loadedList(user1);
        switchToUser2(*model);
        QuerySignals spy(model.get());

        answer(u"userId=2"_s,
               ServerResponse::json(QJsonObject {{u"message"_s, u"no such user"_s}}, 404));
        QTRY_COMPARE(model->status(), CollectionModel::Error);
        QVERIFY(!model->isPlaceholder());
        QVERIFY(!model->isLoading());
        QCOMPARE(model->networkError()->status(), 404);
        // The kept rows are not the failed key's: they go (as one removal, not a reset).
        QCOMPARE(model->rowCount(), 0);
        QCOMPARE(model->value(), QVariant());
        QCOMPARE(spy.reset.size(), 0);
        QCOMPARE(spy.removed.size(), 1);
    }

    void onlyTheLastKeyShows_data()
    {
        QTest::addColumn<bool>("middleAnswersFirst");
        QTest::newRow("B answers after C") << false;
        QTest::newRow("B answers before C") << true;
    }
    void onlyTheLastKeyShows()
    {
        QFETCH(bool, middleAnswersFirst);
        auto model = loadedList(user1);
        const QList<int> shown = rowIds(*model);
        switchToUser2(*model); // B
        QuerySignals spy(model.get());
        model->setParams(everyone); // C, before B answered
        QTRY_VERIFY(isHeld(QString()));
        verifyPlaceholder(*model, shown);

        if (middleAnswersFirst) {
            answer(u"userId=2"_s);
            QTRY_VERIFY(controller->getResponse(todos.getList, user2).found);
            verifyPlaceholder(*model, shown); // still A's rows: B is not what is asked for
        }
        QCOMPARE(spy.total(), 0);
        answer(QString());
        QTRY_VERIFY(!model->isPlaceholder());
        QCOMPARE(rowIds(*model), idsOf(0));
        QCOMPARE(spy.reset.size(), 0);

        if (!middleAnswersFirst) {
            spy.clear();
            answer(u"userId=2"_s); // B's late answer is stored, and not shown
            QTRY_VERIFY(controller->getResponse(todos.getList, user2).found);
            QCOMPARE(rowIds(*model), idsOf(0));
            QCOMPARE(spy.total(), 0);
            QCOMPARE(spy.placeholder.size(), 0);
        }
        QCOMPARE(listRequests(), 3);
    }

    void backToTheShownKeyShowsItAtOnce()
    {
        auto model = loadedList(user1);
        const QList<int> shown = rowIds(*model);
        switchToUser2(*model);
        QuerySignals spy(model.get());

        model->setParams(user1);
        QVERIFY(!model->isPlaceholder());
        QVERIFY(!model->isLoading());
        QCOMPARE(model->status(), CollectionModel::Ready);
        QCOMPARE(rowIds(*model), shown);
        QCOMPARE(spy.total(), 0); // the rows already were user 1's: not even a reset
        QCOMPARE(spy.placeholder.size(), 1);

        answer(u"userId=2"_s); // the abandoned key's late answer changes nothing shown
        QTRY_VERIFY(controller->getResponse(todos.getList, user2).found);
        QCOMPARE(rowIds(*model), shown);
        QCOMPARE(spy.total(), 0);
        QCOMPARE(listRequests(), 2);
    }

    void destroyedWhilePlaceholder()
    {
        auto model = loadedList(user1);
        switchToUser2(*model);
        model.reset();
        answer(u"userId=2"_s);
        QTRY_VERIFY(controller->getResponse(todos.getList, user2).found);
        QCOMPARE(listRequests(), 2);
    }

    void aKeptRowFollowsItsEntity()
    {
        auto model = loadedList(user1);
        const QList<int> shown = rowIds(*model);
        switchToUser2(*model);
        QuerySignals spy(model.get());

        // Another request renames the entity of row 1: the kept row is still that entity.
        auto renamed = controller->fetch(todos.partialUpdate, {{u"id"_s, shown.at(1)}},
                                         QJsonObject {{u"title"_s, u"renamed"_s}});
        QTRY_VERIFY(renamed.isFinished());
        QCOMPARE(model->get(1).toMap().value(u"title"_s).toString(), u"renamed"_s);
        QCOMPARE(spy.changed.size(), 1);
        QCOMPARE(spy.changed.at(0).at(0).toModelIndex().row(), 1);
        verifyPlaceholder(*model, shown);

        // A deleted one leaves the kept rows.
        auto removed = controller->fetch(todos.remove, {{u"id"_s, shown.at(0)}});
        QTRY_VERIFY(removed.isFinished());
        verifyPlaceholder(*model, shown.mid(1));
        QCOMPARE(spy.removed.size(), 1);
        QCOMPARE(spy.reset.size(), 0);
    }

    void theFirstLoadIsEmptyAndLoading()
    {
        holdAnswers(u"/todos"_s);
        auto model = makeModel(todos.getList, user1);
        QTRY_VERIFY(isHeld(u"userId=1"_s));
        QCOMPARE(model->rowCount(), 0);
        QCOMPARE(model->status(), CollectionModel::Loading);
        QVERIFY(model->isLoading());
        QVERIFY(!model->isPlaceholder());
        answer(u"userId=1"_s);
        QTRY_COMPARE(model->status(), CollectionModel::Ready);
        QCOMPARE(rowIds(*model), idsOf(1));
        QVERIFY(!model->isPlaceholder());
    }

    void noPlaceholderWhereTheRowsCannotStay_data()
    {
        QTest::addColumn<bool>("otherController");
        QTest::newRow("another controller (another store)") << true;
        QTest::newRow("an endpoint whose rows have other roles") << false;
    }
    void noPlaceholderWhereTheRowsCannotStay()
    {
        QFETCH(bool, otherController);
        Controller other;
        QVERIFY(backend->api.mount(u"/tasks"_s, u"/todos"_s));
        const Resource tasks
            = createResource({.path = u"/tasks/:id"_s,
                              .schema = Schema::entity(
                                  EntitySchema(u"Task"_s).withDefaults({{u"title"_s, QString()}})),
                              .urlPrefix = backend->server.url(),
                              .searchParams = {u"userId"_s}});
        auto model = loadedList(user1);
        QuerySignals spy(model.get());
        if (otherController)
            model->setController(&other);
        else
            model->setEndpoint(tasks.getList);
        QVERIFY(!model->isPlaceholder());
        QCOMPARE(model->rowCount(), 0);
        QCOMPARE(model->status(), CollectionModel::Loading);
        QCOMPARE(spy.reset.size(), 1);
        QTRY_COMPARE(model->status(), CollectionModel::Ready);
        QCOMPARE(rowIds(*model), idsOf(1));
    }

    void aSingleEntityKeepsItsValue()
    {
        auto model = makeModel(todos.get, {{u"id"_s, 1}});
        QTRY_COMPARE(model->status(), CollectionModel::Ready);
        holdAnswers(u"/todos/:id"_s);
        QSignalSpy valueChanged(model.get(), &CollectionModel::valueChanged);

        model->setParams({{u"id"_s, 2}});
        QVERIFY(model->isPlaceholder());
        QVERIFY(model->isLoading());
        QCOMPARE(model->status(), CollectionModel::Ready);
        QCOMPARE(model->value().toMap().value(u"id"_s).toInt(), 1);
        QCOMPARE(valueChanged.size(), 0);
        QTRY_COMPARE(held.pending.size(), 1);
        QCOMPARE(held.pending.at(0).request.path, u"/todos/2"_s);

        answer(QString());
        QTRY_VERIFY(!model->isPlaceholder());
        QCOMPARE(model->value().toMap().value(u"id"_s).toInt(), 2);
        QCOMPARE(valueChanged.size(), 1);
        QCOMPARE(model->rowCount(), 0); // one entity: no rows, as before
    }
};

QTEST_MAIN(tst_CollectionModelKeepPrevious)
#include "tst_collectionmodel_keepprevious.moc"
