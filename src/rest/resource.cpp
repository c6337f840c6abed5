// Resource: building the members (get, getList, push, unshift, getPage, update, partialUpdate, delete)
// from ResourceOptions, and finding them by name.
// extend() is in resourceextend.cpp.
#include "logging_p.h"
#include "resourcedefaults_p.h"
#include "resource_p.h"

#include <DataClient/createresource.h>
#include <DataClient/private/schema_p.h>
#include <DataClient/resource.h>

using namespace Qt::StringLiterals;

namespace DataClient {

namespace detail {

const QStringList &specMemberNames()
{
    static const QStringList names {u"get"_s,
                                    u"getList"_s,
                                    u"getList.push"_s,
                                    u"getList.unshift"_s,
                                    u"getList.getPage"_s,
                                    u"getList.move"_s,
                                    u"getList.remove"_s,
                                    u"getList.assign"_s,
                                    u"update"_s,
                                    u"partialUpdate"_s,
                                    u"delete"_s};
    return names;
}

QString canonicalMemberName(const QString &name)
{
    return name == u"remove" ? QStringLiteral("delete") : name;
}

} // namespace detail

Resource::Resource() = default;

Resource Resource::create(const ResourceOptions &options)
{
    Resource resource;
    resource.m_options = options;
    auto fail = [&resource](const QString &what) {
        return resource.withError(QStringLiteral("createResource(): ") + what);
    };
    if (options.schema.isNull())
        return fail(QStringLiteral("the option 'schema' is required; expected an entity schema "
                                   "such as Schema::entity(EntitySchema(u\"Todo\"_s))"));
    if (options.schema.kind() != Schema::Kind::Entity)
        return fail(QStringLiteral("the option 'schema' must be an entity schema "
                                   "(Schema::entity(...)); got a schema of key '%1'")
                        .arg(options.schema.key()));
    if (options.path.isEmpty())
        return fail(QStringLiteral("the option 'path' is required; expected a template with a "
                                   "parameter such as '/todos/:id'"));
    const PathTemplate path(options.path);
    if (!path.isValid())
        return fail(QStringLiteral("the option 'path' is malformed: ") + path.errorString());
    const PathTemplate listPath = path.listTemplate();
    if (!listPath.isValid())
        return fail(QStringLiteral("the option 'path' cannot be used: ") + listPath.errorString());

    const EndpointFactory make = options.endpoint ? options.endpoint : &RestEndpoint::create;
    EndpointOptions base;
    base.urlPrefix = options.urlPrefix;
#define DATACLIENT_COPY(Type, option, value) base.option = options.option;
    DATACLIENT_SHARED_ENDPOINT_OPTIONS(DATACLIENT_COPY)
#undef DATACLIENT_COPY

    auto member = [&](const QString &name, const QByteArray &method, const QString &pathPattern,
                      const Schema &schema) {
        EndpointOptions o = base;
        o.name = name;
        o.method = method;
        o.path = pathPattern;
        o.schema = schema;
        return o;
    };
    const Schema entity = options.schema;
    const EntitySchema entitySchema = entity.entitySchema();

    resource.get = make(member(u"get"_s, "GET", options.path, entity));

    EndpointOptions list = member(u"getList"_s, "GET", listPath.pattern(),
                                  Schema::collection(Schema::array(entity), options.collection));
    list.searchParams = options.searchParams;
    resource.getList = ResourceListMember(make(list));
    resource.deriveListMembers();

    EndpointOptions update = member(u"update"_s, "PUT", options.path, entity);
    update.body = options.body;
    EndpointOptions partial = member(u"partialUpdate"_s, "PATCH", options.path, entity);
    partial.body = options.body;
    EndpointOptions remove
        = member(u"delete"_s, "DELETE", options.path, Schema::invalidate(entity));
    remove.process = detail::deleteProcess(entitySchema);
    if (options.optimistic) {
        update.optimistic = partial.optimistic = remove.optimistic = true;
        update.getOptimisticResponse = detail::optimisticParamsAndBody();
        partial.getOptimisticResponse = detail::optimisticPartialUpdate(entitySchema);
        remove.getOptimisticResponse = detail::optimisticDelete();
    }
    resource.update = make(update);
    resource.partialUpdate = make(partial);
    resource.remove = make(remove);
    return resource;
}

// push, unshift and getPage are derived from getList (its path, prefix, class and overrides),
// with the schema variants each member reads and writes (docs/rest.md).
void Resource::deriveListMembers()
{
    const ResourceMember list = getList;
    const Schema listSchema = list->schema();
    EndpointOverrides push;
    push.name = u"getList.push"_s;
    push.method = "POST";
    push.schema = listSchema.push();
    push.body = m_options.body;
    if (m_options.optimistic) {
        push.optimistic = true;
        push.getOptimisticResponse = detail::optimisticCreate();
    }
    EndpointOverrides unshift = push;
    unshift.name = u"getList.unshift"_s;
    unshift.schema = listSchema.unshift();
    getList.push = list->extend(push);
    getList.unshift = list->extend(unshift);

    // Explicit list members (docs/collections.md): move and remove write the lists the call's
    // arguments name; assign replaces one.
    EndpointOverrides move;
    move.name = u"getList.move"_s;
    move.method = "PATCH";
    move.path = m_options.path;
    move.schema = listSchema.move();
    move.body = m_options.body;
    move.sideEffect = true;
    EndpointOverrides remove = move;
    remove.name = u"getList.remove"_s;
    remove.path = list->path();
    // Only the list of exactly the call's arguments ("remove from this playlist"), not every
    // list the removed entity would fit.
    remove.schema = collectionVariant(
        listSchema, Schema::CollectionMode::Remove,
        [](const Params &collectionArgs, const Params &callArgs, const QJsonObject &) {
            return Collection::argumentsKey(collectionArgs) == Collection::argumentsKey(callArgs);
        });
    EndpointOverrides assign = remove;
    assign.name = u"getList.assign"_s;
    assign.method = "PUT";
    assign.schema = listSchema;
    if (m_options.optimistic) {
        move.optimistic = remove.optimistic = assign.optimistic = true;
        move.getOptimisticResponse = detail::optimisticMove(m_options.schema.entitySchema());
        remove.getOptimisticResponse = assign.getOptimisticResponse = detail::optimisticBody();
    }
    getList.move = list->extend(move);
    getList.remove = list->extend(remove);
    getList.assign = list->extend(assign);
    getList.getPage = ResourceMember();
    if (!m_options.paginationField.isEmpty()) {
        EndpointOverrides page;
        page.name = u"getList.getPage"_s;
        page.schema = listSchema.paginated();
        page.paginationField = m_options.paginationField;
        getList.getPage = list->extend(page);
    }
}

ResourceMember Resource::member(const QString &name) const
{
    const QString canonical = detail::canonicalMemberName(name);
    if (canonical == u"get")
        return get;
    if (canonical == u"getList")
        return getList;
    if (canonical == u"getList.push")
        return getList.push;
    if (canonical == u"getList.unshift")
        return getList.unshift;
    if (canonical == u"getList.getPage")
        return getList.getPage;
    if (canonical == u"getList.move")
        return getList.move;
    if (canonical == u"getList.remove")
        return getList.remove;
    if (canonical == u"getList.assign")
        return getList.assign;
    if (canonical == u"update")
        return update;
    if (canonical == u"partialUpdate")
        return partialUpdate;
    if (canonical == u"delete")
        return remove;
    return m_added.value(name);
}

QStringList Resource::memberNames() const
{
    QStringList names;
    for (const QString &name : detail::specMemberNames()) {
        if (member(name))
            names.append(name);
    }
    return names + m_addedNames;
}

bool Resource::isValid() const
{
    return m_error.isEmpty() && bool(get);
}

QString Resource::errorString() const
{
    if (m_error.isEmpty() && !get)
        return QStringLiteral("an empty Resource: build one with createResource()");
    return m_error;
}

ResourceOptions Resource::options() const
{
    return m_options;
}

Resource Resource::withError(const QString &message) const
{
    qCWarning(lcRest).noquote() << message;
    Resource invalid;
    invalid.m_options = m_options;
    invalid.m_error = message;
    return invalid;
}

void Resource::setMember(const QString &name, const EndpointPtr &endpoint)
{
    const QString canonical = detail::canonicalMemberName(name);
    if (canonical == u"get")
        get = endpoint;
    else if (canonical == u"getList")
        static_cast<ResourceMember &>(getList) = endpoint;
    else if (canonical == u"getList.push")
        getList.push = endpoint;
    else if (canonical == u"getList.unshift")
        getList.unshift = endpoint;
    else if (canonical == u"getList.getPage")
        getList.getPage = endpoint;
    else if (canonical == u"getList.move")
        getList.move = endpoint;
    else if (canonical == u"getList.remove")
        getList.remove = endpoint;
    else if (canonical == u"getList.assign")
        getList.assign = endpoint;
    else if (canonical == u"update")
        update = endpoint;
    else if (canonical == u"partialUpdate")
        partialUpdate = endpoint;
    else if (canonical == u"delete")
        remove = endpoint;
    else {
        if (!m_added.contains(name))
            m_addedNames.append(name);
        m_added.insert(name, endpoint);
    }
}

Resource createResource(const ResourceOptions &options)
{
    return Resource::create(options);
}

} // namespace DataClient
