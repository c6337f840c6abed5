// The child process of the restart and SIGKILL tests (tst_persistrestart):
//   persistchild write <file> <url> <count>  writes <count> todos of <url>/todos, persists, exits
//   persistchild read <file> <url>           prints what a query of <url>/todos shows at once
//   persistchild loop <file> <count>         writes rounds of <count> todos until killed,
//                                            printing "written <round>" after each write
#include "persistfixture.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QJsonDocument>
#include <QtCore/QTimer>

#include <cstdio>
#include <cstdlib>

using namespace PersistFixture;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() < 4)
        return 2;
    const QString mode = args.at(1);
    Controller controller;
    QObject::connect(&controller, &Controller::persistenceError, [](const QString &message) {
        std::fprintf(stderr, "persistenceError: %s\n", qPrintable(message));
    });
    controller.setPersistence(args.at(2));
    if (controller.persistence().isEmpty())
        return 3;
    if (mode == u"write"_s) {
        if (args.size() < 5)
            return 2;
        controller.setResponse(todos(args.at(3)), {}, todoValues(args.at(4).toInt(), 1));
        return 0; // the destructor writes what is not on disk yet
    }
    if (mode == u"read"_s) {
        // What a query shows at once, then while its revalidation waits for the server.
        const EndpointPtr endpoint = todos(args.at(3));
        const ResponseState state = controller.getResponse(endpoint);
        const QVariantList rows = state.data.toList();
        std::printf("found=%d status=%d loading=%d rows=%d first=%s\n", int(state.found),
                    int(state.status), int(state.loading), int(rows.size()),
                    rows.isEmpty() ? "-"
                                   : qPrintable(rows.first().toMap().value(u"title"_s).toString()));
        controller.fetchIfStale(endpoint);
        const ResponseState revalidating = controller.getResponse(endpoint);
        std::printf("found=%d loading=%d rows=%d\n", int(revalidating.found),
                    int(revalidating.loading), int(revalidating.data.toList().size()));
        std::fflush(stdout);
        return 0;
    }
    if (mode == u"loop"_s) {
        controller.setPersistIntervalMs(0);
        const int count = args.at(3).toInt();
        int round = 0;
        const auto next = [&] {
            ++round;
            controller.setResponse(todos(u"http://127.0.0.1:9"_s), {}, todoValues(count, round));
        };
        QObject::connect(&controller, &Controller::persistenceError, &app, [] { std::exit(4); });
        // Each write ends in a signal the child sees through the store: write the next round
        // as soon as the previous one is on disk (the file's state is then always a whole one).
        QTimer timer;
        QObject::connect(&timer, &QTimer::timeout, &app, next);
        timer.start(1);
        return app.exec();
    }
    return 2;
}
