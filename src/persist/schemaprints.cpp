// Fingerprints of entity schemas (snapshotcodec_p.h): what a stored record's meaning depends on —
// the key, the pk field, the declared (deserialized, nested, defaulted) fields and the schemas
// of nested fields — so that a build whose schemas differ drops the file instead of misreading it.
#include <DataClient/private/snapshotcodec_p.h>

#include <DataClient/entityschema.h>
#include <DataClient/schemavisit.h>

#include <QtCore/QStringList>

using namespace Qt::StringLiterals;

namespace DataClient::detail {

namespace {

struct PrintWalk
{
    SchemaPrints *prints;
    QSet<QString> *leftOut;

    void walk(const Schema &schema) { visitSchema(schema, *this); }
    void none() { }
    void entity(const EntitySchema &e)
    {
        if (e.isNull() || prints->contains(e.key()))
            return; // each key once (and cycles end here)
        if (leftOut && !e.persists())
            leftOut->insert(e.key());
        QStringList parts {e.key(), e.pkField()};
        QStringList deserialized = e.deserializedFields();
        deserialized.sort();
        QStringList nested = e.nestedFields();
        nested.sort();
        QStringList defaults = e.defaults().keys();
        parts << u"d:"_s + deserialized.join(u',') << u"n:"_s + nested.join(u',')
              << u"f:"_s + defaults.join(u',');
        for (const QString &field : std::as_const(nested)) {
            QStringList keys;
            collectKeys(e.nested(field), &keys);
            parts << field + u'=' + keys.join(u',');
        }
        prints->insert(e.key(), SnapshotCodec::checksum(parts.join(u'\n').toUtf8()) | 1);
        for (const QString &field : std::as_const(nested))
            walk(e.nested(field));
    }
    void invalidate(const EntitySchema &e) { entity(e); }
    void array(const Schema &item) { walk(item); }
    void collection(const Schema &c) { walk(c.itemSchema()); }
    void object(const QHash<QString, Schema> &fields)
    {
        for (auto it = fields.cbegin(); it != fields.cend(); ++it)
            walk(it.value());
    }
    void unionOf(const Schema &schema)
    {
        for (const auto &member : schema.unionMembers())
            walk(member.second);
    }
    void values(const Schema &item) { walk(item); }
    void all(const Schema &schema) { walk(schema.itemSchema()); }
    void query(const Schema &schema) { walk(schema.itemSchema()); }

    //! The shape of a nested schema: its kind and entity keys (not recursing into entities).
    static void collectKeys(const Schema &schema, QStringList *keys)
    {
        keys->append(QString::number(int(schema.kind())));
        if (schema.kind() == Schema::Kind::Entity || schema.kind() == Schema::Kind::Invalidate)
            keys->append(schema.entitySchema().key());
        else if (schema.kind() == Schema::Kind::Array || schema.kind() == Schema::Kind::Collection
                 || schema.kind() == Schema::Kind::Values || schema.kind() == Schema::Kind::All
                 || schema.kind() == Schema::Kind::Query)
            collectKeys(schema.itemSchema(), keys);
        else if (schema.kind() == Schema::Kind::Union)
            keys->append(schema.key());
        else if (schema.kind() == Schema::Kind::Object) {
            const QHash<QString, Schema> fields = schema.fields();
            QStringList names = fields.keys();
            names.sort();
            for (const QString &name : std::as_const(names)) {
                keys->append(name);
                collectKeys(fields.value(name), keys);
            }
        }
    }
};

} // namespace

void SnapshotCodec::addPrints(const Schema &schema, SchemaPrints *prints, QSet<QString> *leftOut)
{
    PrintWalk {prints, leftOut}.walk(schema);
}

} // namespace DataClient::detail
