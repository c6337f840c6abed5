// Member names shared by resource.cpp and resourceextend.cpp.
#pragma once

#include <QtCore/QStringList>

namespace DataClient::detail {

//! The members createResource() may build, by SPEC name, in table order.
const QStringList &specMemberNames();
//! "remove" (the C++ name) -> "delete" (the SPEC name); other names unchanged.
QString canonicalMemberName(const QString &name);

} // namespace DataClient::detail
