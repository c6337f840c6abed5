// Resource: the endpoints createResource() builds around one schema, and extend().
#pragma once

#include <DataClient/endpointoptions.h>
#include <DataClient/global.h>
#include <DataClient/resourcemember.h>
#include <DataClient/resourceoptions.h>

#include <QtCore/QHash>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include <functional>

namespace DataClient {

/*!
    A set of endpoints acting on the same data, a cheap value:

    | member                 | method | path                        | schema                  |
    |------------------------|--------|-----------------------------|-------------------------|
    | get                    | GET    | P                           | S                       |
    | getList                | GET    | P without its last segment  | Collection([S])         |
    | getList.push           | POST   | getList's                   | getList schema .push()  |
    | getList.unshift        | POST   | getList's                   | .unshift()              |
    | getList.getPage        | GET    | getList's (+ the page key)  | .paginated()            |
    | update                 | PUT    | P                           | S                       |
    | partialUpdate          | PATCH  | P                           | S                       |
    | delete (remove)        | DELETE | P                           | Schema::invalidate(S)   |

    `delete` is a C++ keyword, so that member is called remove; member(u"delete"_s) finds it too.
    Members added with extend() are reached with member(name).

    extend() never changes this resource; it returns a new one. A mistake (an unknown member name)
    gives an invalid resource (isValid() false, errorString() says what and where).
*/
class DATACLIENT_REST_EXPORT Resource
{
public:
    //! The function form of extend(): receives the base resource, returns members to set.
    using ExtendFunction = std::function<QHash<QString, EndpointPtr>(const Resource &base)>;

    //! An empty, invalid resource.
    Resource();

    ResourceMember get;
    ResourceListMember getList;
    ResourceMember update;
    ResourceMember partialUpdate;
    //! SPEC name `delete`.
    ResourceMember remove;

    /*!
        A member by its SPEC name: "get", "getList", "getList.push", "getList.unshift",
        "getList.getPage", "update", "partialUpdate", "delete" (or "remove"), or a name added by
        extend(). A null member when there is none.
    */
    ResourceMember member(const QString &name) const;
    //! Names of the members that exist, SPEC names first, then added ones in order of addition.
    QStringList memberNames() const;

    bool isValid() const;
    QString errorString() const;
    //! The options the resource was created with.
    ResourceOptions options() const;

    /*!
        Batch form: `extend({{u"getList"_s, {.path = u"/lists/:id/todos"_s}}})` overrides options
        of existing members. Overriding getList rebuilds push, unshift and getPage from the new
        getList (schema variants included) before their own overrides, if any, apply.
    */
    Resource extend(const QHash<QString, EndpointOverrides> &overrides) const;
    //! Add form: a new member \a name built from `get` with \a options applied (a new path, a
    //! new schema, a method ...). Replaces an added member of that name; SPEC names are refused.
    Resource extend(const QString &name, const EndpointOverrides &options) const;
    //! Function form: \a build receives this resource and returns members to replace or add,
    //! e.g. a getList built with base.getList->extend({...}).
    Resource extend(const ExtendFunction &build) const;

    //! Builds the members from \a options (what createResource() calls).
    static Resource create(const ResourceOptions &options);

private:
    Resource withError(const QString &message) const;
    void setMember(const QString &name, const EndpointPtr &endpoint);
    void deriveListMembers();

    ResourceOptions m_options;
    QStringList m_addedNames;
    QHash<QString, ResourceMember> m_added;
    QString m_error;
};

} // namespace DataClient
