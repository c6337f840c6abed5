#include "qmlentity.h"

#include "fielddeserializer.h"
#include "logging_p.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QMutex>
#include <QtCore/QPointer>
#include <QtCore/QScopeGuard>
#include <QtCore/QThread>
#include <QtQml/QJSEngine>
#include <QtQml/QJSValueIterator>
#include <QtQml/qqmlinfo.h>

using namespace Qt::StringLiterals;

namespace DataClient::Qml {

struct QmlEntity::Built
{
    EntitySchema entity;
    Schema schema;
    Schema array;
    QStringList fieldNames;
    QString error;
};

// What build() last made, readable from any thread: the Controller normalizes large answers on
// a worker, where the schemas of nested Entity fields must be read without touching the QObject.
struct QmlEntity::Published
{
    QMutex mutex;
    Schema schema;
    Schema array;
};

namespace {

QString describe(const QJSValue &value)
{
    if (value.isUndefined())
        return u"undefined"_s;
    if (value.isString())
        return u"the string \"%1\""_s.arg(value.toString());
    return value.toString();
}

EntitySchema::PkFunction pkFromFunction(QJSEngine *engine, const QJSValue &function)
{
    return [engine = QPointer<QJSEngine>(engine), function](const QJsonObject &record) {
        if (!engine)
            return QString();
        const QJSValue result = function.call({engine->toScriptValue(record)});
        if (result.isError()) {
            qCWarning(lcQml).noquote() << "Entity primaryKey function threw:" << result.toString();
            return QString();
        }
        if (result.isUndefined() || result.isNull())
            return QString();
        return result.toString();
    };
}

EntitySchema::ProcessFunction processFromFunction(QJSEngine *engine, const QJSValue &function,
                                                  const QString &key)
{
    return [engine = QPointer<QJSEngine>(engine), function,
            key](const QJsonObject &record, const QJsonValue &parent, const Params &args) {
        if (!engine)
            return record;
        const QJSValue result
            = function.call({engine->toScriptValue(record), engine->toScriptValue(parent),
                             engine->toScriptValue(args)});
        const QJsonValue json = QJsonValue::fromVariant(result.toVariant());
        if (result.isError() || !json.isObject()) {
            qCWarning(lcQml).noquote()
                << u"Entity \"%1\": process must return the record (an object); got %2. "
                   "The record is used unchanged."_s.arg(key, result.toString());
            return record;
        }
        return json.toObject();
    };
}

} // namespace

QmlEntity::QmlEntity(QObject *parent) : QObject(parent), m_published(std::make_shared<Published>())
{ }
QmlEntity::~QmlEntity()
{
    // Entities that refer to each other hold each other's published schemas (through the lazy
    // nested fields): clearing ours breaks that cycle. A worker still reading it meanwhile gets
    // a None schema, as the GUI thread does for a destroyed Entity.
    QMutexLocker lock(&m_published->mutex);
    m_published->schema = Schema();
    m_published->array = Schema();
}

void QmlEntity::setKey(const QString &key)
{
    if (m_key == key)
        return;
    m_key = key;
    Q_EMIT keyChanged();
    invalidate();
}

void QmlEntity::setPrimaryKey(const QJSValue &primaryKey)
{
    if (m_primaryKey.strictlyEquals(primaryKey))
        return;
    m_primaryKey = primaryKey;
    Q_EMIT primaryKeyChanged();
    invalidate();
}

void QmlEntity::setFields(const QJSValue &fields)
{
    if (m_fields.strictlyEquals(fields))
        return;
    m_fields = fields;
    Q_EMIT fieldsChanged();
    invalidate();
}

void QmlEntity::setProcess(const QJSValue &process)
{
    if (m_process.strictlyEquals(process))
        return;
    m_process = process;
    Q_EMIT processChanged();
    invalidate();
}

void QmlEntity::invalidate()
{
    if (!m_built)
        return; // nobody has read the schema yet: nothing to tell
    m_built.reset();
    if (m_complete) {
        build();
        Q_EMIT schemaChanged();
    }
}

void QmlEntity::componentComplete()
{
    m_complete = true;
    build();
}

EntitySchema::SchemaFunction QmlEntity::nestedSchema(bool array) const
{
    // Lazy, because entities may refer to each other (User.todos <-> Todo.author). On the GUI
    // thread the Entity is read (and built if needed); on a worker the last published schema is
    // used. The Controller only goes to a worker after walking the schema on the GUI thread, which
    // builds (and so publishes) every Entity reachable from it.
    return [entity = QPointer<const QmlEntity>(this), home = thread(), published = m_published,
            array] {
        if (QThread::currentThread() == home && entity)
            return array ? entity->arraySchema() : entity->schema();
        // A worker, or an Entity destroyed while an answer of its was still being stored.
        QMutexLocker lock(&published->mutex);
        return array ? published->array : published->schema;
    };
}

void QmlEntity::publish(const Built &built) const
{
    QMutexLocker lock(&m_published->mutex);
    m_published->schema = built.schema;
    m_published->array = built.array;
}

void QmlEntity::build() const
{
    if (m_built)
        return;
    m_built = std::make_unique<Built>();
    Built &built = *m_built;
    // Published on every way out, failures included (then None schemas).
    const auto publishOnReturn = qScopeGuard([this] { publish(*m_built); });
    QJSEngine *engine = qjsEngine(this);
    const QString name = m_key.isEmpty() ? u"Entity"_s : u"Entity \"%1\""_s.arg(m_key);
    auto fail = [&](const QString &error) {
        built = Built {};
        built.error = error;
        qmlWarning(this) << error;
    };

    if (m_key.isEmpty())
        return fail(u"Entity: `key` is not set; give the entity type a unique name, e.g. "
                    "key: \"Todo\""_s);
    EntitySchema entity;
    if (m_primaryKey.isString() && !m_primaryKey.toString().isEmpty()) {
        entity = EntitySchema(m_key, m_primaryKey.toString());
        built.fieldNames.append(m_primaryKey.toString());
    } else if (m_primaryKey.isCallable()) {
        entity = EntitySchema(m_key, pkFromFunction(engine, m_primaryKey));
    } else {
        return fail(u"%1: `primaryKey` must be a field name (e.g. \"id\") or a function(record) "
                    "returning the key; got %2"_s.arg(name, describe(m_primaryKey)));
    }

    if (!m_fields.isUndefined() && !m_fields.isNull()) {
        if (!m_fields.isObject() || m_fields.isArray() || m_fields.isCallable())
            return fail(
                u"%1: `fields` must be an object mapping field names to a default value, "
                "a deserializer, a function or an Entity; got %2"_s.arg(name, describe(m_fields)));
        QVariantMap defaults;
        QJSValueIterator it(m_fields);
        while (it.hasNext()) {
            it.next();
            const QString field = it.name();
            const QJSValue value = it.value();
            if (!built.fieldNames.contains(field))
                built.fieldNames.append(field);
            if (auto *deserializer = qobject_cast<FieldDeserializer *>(value.toQObject())) {
                entity = entity.withField(field, deserializer->deserializer());
            } else if (auto *nested = qobject_cast<QmlEntity *>(value.toQObject())) {
                entity = entity.withNested(field, nested->nestedSchema(/*array*/ false));
            } else if (value.isArray() && value.property(u"length"_s).toInt() == 1
                       && qobject_cast<QmlEntity *>(value.property(0).toQObject())) {
                auto *item = qobject_cast<QmlEntity *>(value.property(0).toQObject());
                entity = entity.withNested(field, item->nestedSchema(/*array*/ true));
            } else if (value.isCallable()) {
                entity = entity.withField(
                    field, DeserializeSingleton::fromFunction(engine, QString(), value));
            } else if (value.isQObject()) {
                return fail(u"%1: field \"%2\" holds a %3; expected a default value, a "
                            "Deserialize.* deserializer, a function or an Entity"_s.arg(
                                name, field,
                                QString::fromUtf8(value.toQObject()->metaObject()->className())));
            } else {
                defaults.insert(field, value.toVariant());
            }
        }
        if (!defaults.isEmpty())
            entity = entity.withDefaults(defaults);
    }
    if (m_process.isCallable())
        entity = entity.withProcess(processFromFunction(engine, m_process, m_key));
    else if (!m_process.isUndefined() && !m_process.isNull())
        return fail(u"%1: `process` must be a function(record, parent, args) returning the "
                    "record; got %2"_s.arg(name, describe(m_process)));

    built.entity = entity;
    built.schema = Schema::entity(entity);
    built.array = Schema::array(built.schema);
}

bool QmlEntity::isValid() const
{
    build();
    return m_built->error.isEmpty();
}

QString QmlEntity::errorString() const
{
    build();
    return m_built->error;
}

QStringList QmlEntity::fieldNames() const
{
    build();
    return m_built->fieldNames;
}

Schema QmlEntity::schema() const
{
    build();
    return m_built->schema;
}

Schema QmlEntity::arraySchema() const
{
    build();
    return m_built->array;
}

EntitySchema QmlEntity::entitySchema() const
{
    build();
    return m_built->entity;
}

} // namespace DataClient::Qml
