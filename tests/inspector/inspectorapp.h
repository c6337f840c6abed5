// The fixture of the store inspector's tests: the Widgets todo app (its window, Controller and
// the demo's embedded server) with a StoreInspector attached, a QAbstractItemModelTester on each
// of its models, and a second resource on the same server whose writes queue while offline, and
// a list at /versioned that answers 304 to a matching If-None-Match.
#pragma once

#include "todowidgetsapp.h"

#include <DataClient/createresource.h>
#include <DataClient/entityschema.h>
#include <DataClient/inspectorentitiesmodel.h>
#include <DataClient/inspectorrequestsmodel.h>
#include <DataClient/inspectorresultsmodel.h>
#include <DataClient/inspectorstatusmodel.h>
#include <DataClient/inspectortimelinemodel.h>
#include <DataClient/storeinspector.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>

struct InspectorApp : TodoWidgetsApp
{
    InspectorApp()
    {
        server.server()->route("GET", u"/versioned"_s, [](const Testing::RecordedRequest &request) {
            if (request.header("if-none-match") == "\"v1\"") {
                Testing::ServerResponse reply;
                reply.status = 304;
                return reply.withHeader("ETag", "\"v1\"");
            }
            const QJsonArray items {QJsonObject {{u"id"_s, 900}, {u"title"_s, u"kept"_s}}};
            return Testing::ServerResponse::json(items).withHeader("ETag", "\"v1\"");
        });
        const EntitySchema todo(u"Todo"_s);
        queued = queuedResource(server.url());
        versioned = createResource({.path = u"/versioned/:id"_s,
                                    .schema = Schema::entity(todo),
                                    .urlPrefix = server.url()});
        inspector.setController(window->controller());
        for (QAbstractItemModel *model :
             {inspector.entities(), inspector.results(), inspector.requests(), inspector.status(),
              inspector.outbox(), inspector.timeline()})
            testers.push_back(std::make_unique<QAbstractItemModelTester>(
                model, QAbstractItemModelTester::FailureReportingMode::QtTest));
    }
    //! Todos on the server at \a url whose writes wait in the outbox while offline.
    static Resource queuedResource(const QString &url)
    {
        return createResource({.path = u"/todos/:id"_s,
                               .schema = Schema::entity(EntitySchema(u"Todo"_s)),
                               .urlPrefix = url,
                               .optimistic = true,
                               .queueWhenOffline = true});
    }
    Controller *controller() { return window->controller(); }
    //! Rows of the requests model whose role \a role is \a value.
    QList<int> requestRows(int role, const QVariant &value) const
    {
        QList<int> rows;
        const QAbstractItemModel *model = inspector.requests();
        for (int row = 0; row < model->rowCount(); ++row) {
            if (model->index(row, 0).data(role) == value)
                rows.append(row);
        }
        return rows;
    }
    QVariant request(int row, int role) const
    {
        return inspector.requests()->index(row, 0).data(role);
    }
    //! Rows of the timeline made by \a origin ("answer", "rollback"...) that changed \a entity
    //! ("Todo:5"), by a request of \a method when given.
    QList<int> timelineRows(const QString &origin, const QString &entity,
                            const QString &method = {}) const
    {
        QList<int> rows;
        const QAbstractItemModel *model = inspector.timeline();
        for (int row = 0; row < model->rowCount(); ++row) {
            const QModelIndex index = model->index(row, 0);
            if (index.data(InspectorTimelineModel::OriginRole) == origin
                && (method.isEmpty() || index.data(InspectorTimelineModel::MethodRole) == method)
                && index.data(InspectorTimelineModel::EntitiesRole).toStringList().contains(entity))
                rows.append(row);
        }
        return rows;
    }
    QVariant change(int row, int role) const
    {
        return inspector.timeline()->index(row, 0).data(role);
    }
    QString resultStatus(const QString &key) const
    {
        const int row = inspector.resultsModel()->rowOf(key);
        return row < 0
            ? QString()
            : inspector.results()->index(row, 0).data(InspectorResultsModel::StatusRole).toString();
    }
    //! The cache key of the todos the window shows.
    QString todosKey() const { return window->todos()->endpoint()->key({{u"userId"_s, 1}}); }
    qsizetype serverRequests(const QByteArray &method, const QString &path) const
    {
        return server.server()->requests(method, path).size();
    }

    StoreInspector inspector;
    Resource queued;
    Resource versioned;
    std::vector<std::unique_ptr<QAbstractItemModelTester>> testers;
};
