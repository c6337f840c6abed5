#include "libraryinfo.h"

#include <DataClient/version.h>

namespace DataClient::Qml {

QString LibraryInfo::version() const
{
    return DataClient::version();
}

} // namespace DataClient::Qml
