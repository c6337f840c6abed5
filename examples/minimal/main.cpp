// The smallest runnable DataClient program: prints the library version.
#include <DataClient/DataClient.h>

#include <QtCore/QCoreApplication>
#include <QtCore/QTextStream>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QTextStream(stdout) << "DataClient " << DataClient::version() << '\n';
    return 0;
}
