// examples/testing, with QCoro: the screen's first read written as a coroutine —
// `co_await controller.fetch(...)`, no blocking call. Prints the todos of the API in argument 1.
#include "todoscreen.h"

#include <DataClient/controller.h>
#include <DataClient/networkerror.h>

#include <QtCore/QCoreApplication>
#include <QtCore/QTextStream>
#include <QCoro/QCoroFuture>
#include <QCoro/QCoroTask>

namespace {

QString titleOf(const QVariant &todo)
{
    return todo.toMap().value(QStringLiteral("title")).toString();
}

QCoro::Task<int> printTodos(DataClient::Controller &controller, const QString &api)
{
    QTextStream out(stdout);
    try {
        const QVariant todos = co_await controller.fetch(TodoScreen::resource(api).getList);
        const QVariantList list = todos.toList();
        for (const QVariant &todo : list)
            out << titleOf(todo) << Qt::endl;
        co_return 0;
    } catch (const DataClient::NetworkError &error) {
        out << error.message() << Qt::endl;
        co_return 1;
    }
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QString api
        = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral("http://localhost:3000");
    DataClient::Controller controller;
    int status = 0;
    // The coroutine runs on the application's own event loop, which it quits when done.
    auto run = [&]() -> QCoro::Task<> {
        status = co_await printTodos(controller, api);
        QCoreApplication::quit();
    };
    auto task = run();
    app.exec();
    return status;
}
