// A program that uses the app-wide defaults (the default Controller and REST's default network
// manager) and returns from main(): it prints, for each, whether it was destroyed while the
// application object was still whole (tst_controller_teardown runs it).
#include <DataClient/controller.h>
#include <DataClient/restendpoint.h>

#include <QtCore/QCoreApplication>
#include <QtNetwork/QNetworkAccessManager>

#include <cstdio>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const auto report = [](const char *what) {
        return [what] {
            std::printf("%s: destroyed %s\n", what,
                        QCoreApplication::instance() ? "before the application"
                                                     : "after the application");
            std::fflush(stdout);
        };
    };
    QObject::connect(DataClient::RestEndpoint::defaultNetworkAccessManager(), &QObject::destroyed,
                     report("REST default network manager"));
    DataClient::Controller *controller = DataClient::Controller::instance();
    QObject::connect(controller, &QObject::destroyed, report("default Controller"));
    QObject::connect(controller->networkAccessManager(), &QObject::destroyed,
                     report("default Controller's network manager"));
    std::printf("started\n");
    std::fflush(stdout);
    return 0;
}
