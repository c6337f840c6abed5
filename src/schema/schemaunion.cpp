// Schema::unionOf() and Schema::values() (items of several entity types, or keyed by id), and
// the read-only kinds Schema::all() and Schema::query().
#include <DataClient/private/entityschema_p.h>
#include <DataClient/private/schema_p.h>

#include "logging_p.h"

using namespace Qt::StringLiterals;

namespace DataClient {

QString UnionSpec::knownNames() const
{
    QStringList quoted;
    for (const QString &name : names)
        quoted.append(u'"' + name + u'"');
    return quoted.join(u", "_s);
}

namespace {

Schema makeUnion(const Schema::UnionMembers &members, const QString &typeField,
                 Schema::UnionPick pick)
{
    auto spec = std::make_shared<UnionSpec>();
    spec->typeField = typeField;
    spec->pick = std::move(pick);
    QStringList parts;
    for (const auto &[name, member] : members) {
        if (member.kind() != Schema::Kind::Entity) {
            qCWarning(lcSchema) << "Schema::unionOf: member" << name
                                << "is not an Entity schema: left out";
            continue;
        }
        if (spec->byName.contains(name)) {
            qCWarning(lcSchema) << "Schema::unionOf: member" << name << "given twice: the first"
                                << "one is kept";
            continue;
        }
        const EntitySchema entity = member.entitySchema();
        if (spec->byEntityKey.contains(entity.key()))
            qCWarning(lcSchema) << "Schema::unionOf: entity" << entity.key() << "is the member of"
                                << "two names; it reads back as the first";
        else
            spec->byEntityKey.insert(entity.key(), int(spec->names.size()));
        spec->byName.insert(name, int(spec->names.size()));
        spec->names.append(name);
        spec->members.append(member);
        spec->entities.append(entity);
        parts.append(name + u':' + entity.key());
    }
    // The key names the members and how they are told apart, so that two different unions
    // never share the key (nor a collection of the same arguments).
    spec->key
        = u"Union("_s + parts.join(u',') + u';' + (spec->pick ? u"fn"_s : u'.' + typeField) + u')';

    // The hidden entity a Collection keeps the items as: pk "<member key>:<pk>" (made by the
    // normalizer), one nested field per member.
    EntitySchema item(spec->key, [](const QJsonObject &) { return QString(); });
    for (qsizetype i = 0; i < spec->names.size(); ++i)
        item = item.withNested(spec->names.at(i), spec->members.at(i));
    const_cast<EntitySchemaPrivate *>(EntitySchemaPrivate::get(item))->unionSpec = spec;

    auto *d = new SchemaPrivate;
    d->kind = Schema::Kind::Union;
    d->unionSpec = std::move(spec);
    d->unionItem = item;
    return SchemaPrivate::make(d);
}

} // namespace

Schema Schema::unionOf(const UnionMembers &members, const QString &typeField)
{
    if (typeField.isEmpty())
        qCWarning(lcSchema) << "Schema::unionOf: an empty type field; every value is refused";
    return makeUnion(members, typeField, {});
}

Schema Schema::unionOf(const UnionMembers &members, UnionPick pick)
{
    if (!pick)
        qCWarning(lcSchema) << "Schema::unionOf: a null pick function; every value is refused";
    return makeUnion(
        members, QString(),
        pick ? std::move(pick) : [](const QJsonObject &, const QJsonValue &) { return QString(); });
}

Schema Schema::values(const Schema &item)
{
    auto *d = new SchemaPrivate;
    d->kind = Kind::Values;
    d->item = new Schema(item);
    return SchemaPrivate::make(d);
}

Schema Schema::all(const Schema &entity, AllOrder order)
{
    if (entity.kind() != Kind::Entity)
        qCWarning(lcSchema) << "Schema::all: expects an Entity schema";
    auto *d = new SchemaPrivate;
    d->kind = Kind::All;
    d->item = new Schema(entity);
    d->entity = entity.entitySchema();
    d->order = std::move(order);
    return SchemaPrivate::make(d);
}

Schema Schema::query(const Schema &input, QueryCompute compute)
{
    auto *d = new SchemaPrivate;
    d->kind = Kind::Query;
    d->item = new Schema(input);
    d->entity = input.entitySchema();
    d->compute = std::move(compute);
    return SchemaPrivate::make(d);
}

Schema Schema::queryCount(const Schema &all, QueryWhere where)
{
    if (all.kind() != Kind::All)
        qCWarning(lcSchema) << "Schema::queryCount: expects an All schema";
    auto *d = new SchemaPrivate;
    d->kind = Kind::Query;
    d->item = new Schema(all);
    d->entity = all.entitySchema();
    d->where = std::move(where);
    return SchemaPrivate::make(d);
}

Schema::AllOrder Schema::allOrder() const
{
    return kind() == Kind::All ? d->order : AllOrder();
}

Schema::QueryCompute Schema::queryCompute() const
{
    return kind() == Kind::Query ? d->compute : QueryCompute();
}

Schema::QueryWhere Schema::queryWhere() const
{
    return kind() == Kind::Query ? d->where : QueryWhere();
}

Schema::UnionMembers Schema::unionMembers() const
{
    UnionMembers members;
    if (kind() != Kind::Union)
        return members;
    for (qsizetype i = 0; i < d->unionSpec->names.size(); ++i)
        members.append({d->unionSpec->names.at(i), d->unionSpec->members.at(i)});
    return members;
}

QString Schema::unionField() const
{
    return kind() == Kind::Union ? d->unionSpec->typeField : QString();
}

QString Schema::unionMemberName(const QString &entityKey) const
{
    if (kind() != Kind::Union)
        return {};
    const int member = d->unionSpec->memberOfKey(entityKey);
    return member < 0 ? QString() : d->unionSpec->names.at(member);
}

} // namespace DataClient
