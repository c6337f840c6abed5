// The fixture of the Widgets example's tests (tst_todowidgets*.cpp): its window in-process
// against a fresh embedded server (the QML demo's), with a model tester on the todos.
#pragma once

#include "embeddedserver.h"
#include "todowindow.h"

#include <DataClient/testing/fakerestapi.h>
#include <DataClient/testing/testserver.h>

#include <QtTest/QAbstractItemModelTester>

#include <memory>

using namespace DataClient;
using namespace Qt::StringLiterals;

struct TodoWidgetsApp
{
    explicit TodoWidgetsApp(int latencyMs = 0)
    {
        QString error;
        started = server.start(latencyMs, 0, &error);
        window = std::make_unique<TodoWindow>(server.url());
        tester = std::make_unique<QAbstractItemModelTester>(
            window->todos(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        window->show();
    }
    int patchCount() const
    {
        int count = 0;
        const auto requests = server.server()->requests();
        for (const auto &request : requests)
            count += request.method == "PATCH" ? 1 : 0;
        return count;
    }
    QString serverTitle(int row) const
    {
        const QVariant id = window->todos()->get(row).toMap().value(u"id"_s);
        return server.api()->item(u"/todos"_s, id.toInt()).value(u"title"_s).toString();
    }

    EmbeddedServer server;
    bool started = false;
    std::unique_ptr<TodoWindow> window;
    std::unique_ptr<QAbstractItemModelTester> tester;
};
