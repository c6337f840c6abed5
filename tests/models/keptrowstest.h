// The fixture of the kept-data tests (docs/networking.md): a CollectionModel
// against the todo backend of controllerfixture.h whose list answers the server holds until the
// test sends them, so every step of a change of params is observed.
#pragma once

#include <DataClient/collectionmodel.h>

#include "controllerfixture.h"
#include "modelsignals.h"

#include <QtCore/QJsonObject>
#include <QtTest/QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include <memory>
#include <optional>

namespace KeptRows {

using namespace DataClient;
using namespace DataClient::Testing;
using namespace ControllerFixture;
using namespace Qt::StringLiterals;

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
inline const DataClient::Params user1 {{u"userId"_s, 1}};
inline const DataClient::Params user2 {{u"userId"_s, 2}};
inline const DataClient::Params everyone {};

class KeptRowsTest : public ControllerFixture::BackendTest
{
    Q_OBJECT

protected:
    KeptRowsTest() : BackendTest(true) { }

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
    // The latest held request with \a query (an earlier one may have been canceled).
    qsizetype heldIndex(const QString &query) const
    {
        for (qsizetype i = held.pending.size() - 1; i >= 0; --i)
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
    // The model shows \a rows, kept as a placeholder while its own key loads.
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
};

} // namespace KeptRows
