#include <DataClient/version.h>

namespace DataClient {

QString version()
{
    return QStringLiteral(DATACLIENT_VERSION_STRING);
}

} // namespace DataClient
