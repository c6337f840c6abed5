// Resource::extend() in its three forms: batch overrides, add a member, function of
// the base resource. Each returns a new Resource; the original never changes.
#include "resource_p.h"

#include <DataClient/resource.h>

using namespace Qt::StringLiterals;

namespace DataClient {

namespace {

QString describe(const Resource &resource)
{
    return QStringLiteral("resource '%1'").arg(resource.options().path);
}

} // namespace

Resource Resource::extend(const QHash<QString, EndpointOverrides> &overrides) const
{
    if (!isValid())
        return *this;
    QStringList names = overrides.keys();
    names.sort();
    for (const QString &name : std::as_const(names)) {
        if (member(name))
            continue;
        const bool isPage = detail::canonicalMemberName(name) == u"getList.getPage";
        return withError(
            QStringLiteral("extend({...}): %1 has no member named '%2'%3; expected one of: %4")
                .arg(describe(*this), name,
                     isPage ? QStringLiteral(" (it exists only when the resource has a "
                                             "paginationField)")
                            : QString(),
                     memberNames().join(u", ")));
    }
    Resource result = *this;
    if (overrides.contains(u"getList"_s)) {
        static_cast<ResourceMember &>(result.getList)
            = getList->extend(overrides.value(u"getList"_s));
        result.deriveListMembers();
    }
    for (const QString &name : std::as_const(names)) {
        if (name == u"getList")
            continue;
        result.setMember(name, result.member(name)->extend(overrides.value(name)));
    }
    for (const QString &name : result.memberNames()) {
        if (!result.member(name)->isValid())
            return withError(QStringLiteral("extend({...}): member '%1' of %2: %3")
                                 .arg(name, describe(*this), result.member(name)->errorString()));
    }
    return result;
}

Resource Resource::extend(const QString &name, const EndpointOverrides &options) const
{
    if (!isValid())
        return *this;
    if (name.isEmpty())
        return withError(QStringLiteral("extend(name, options): the name is empty; expected a "
                                        "member name such as 'current'"));
    if (detail::specMemberNames().contains(detail::canonicalMemberName(name))) {
        return withError(QStringLiteral("extend('%1', options): '%1' is a member createResource() "
                                        "builds; change it with the batch form "
                                        "extend({{\"%1\", {...}}})")
                             .arg(name));
    }
    EndpointOverrides withName = options;
    if (!withName.name)
        withName.name = name;
    const EndpointPtr added = get->extend(withName);
    if (!added->isValid())
        return withError(QStringLiteral("extend('%1', options) on %2: %3")
                             .arg(name, describe(*this), added->errorString()));
    Resource result = *this;
    result.setMember(name, added);
    return result;
}

Resource Resource::extend(const ExtendFunction &build) const
{
    if (!isValid())
        return *this;
    if (!build)
        return withError(QStringLiteral("extend(function): the function is empty"));
    const QHash<QString, EndpointPtr> members = build(*this);
    QStringList names = members.keys();
    names.sort();
    for (const QString &name : std::as_const(names)) {
        if (!members.value(name) || name.isEmpty())
            return withError(QStringLiteral("extend(function) on %1: the function returned no "
                                            "endpoint for member '%2'; expected an EndpointPtr "
                                            "such as base.get->extend({...})")
                                 .arg(describe(*this), name));
        if (!members.value(name)->isValid())
            return withError(QStringLiteral("extend(function) on %1: member '%2': %3")
                                 .arg(describe(*this), name, members.value(name)->errorString()));
    }
    Resource result = *this;
    // getList first: push, unshift and getPage follow it unless the function replaces them too.
    if (members.contains(u"getList"_s)) {
        static_cast<ResourceMember &>(result.getList) = members.value(u"getList"_s);
        result.deriveListMembers();
    }
    for (const QString &name : std::as_const(names)) {
        if (name != u"getList")
            result.setMember(name, members.value(name));
    }
    return result;
}

} // namespace DataClient
