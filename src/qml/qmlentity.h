// `Entity` QML type: declares one record type (docs/schemas.md) and produces its
// DataClient::Schema.
#pragma once

#include <DataClient/entityschema.h>
#include <DataClient/global.h>
#include <DataClient/schema.h>

#include <QtCore/QObject>
#include <QtCore/QStringList>
#include <QtQml/QJSValue>
#include <QtQml/QQmlParserStatus>
#include <QtQml/qqmlregistration.h>

namespace DataClient::Qml {

/*!
    \code
    Entity { id: user; key: "User"; primaryKey: "id" }
    Entity {
        id: todo
        key: "Todo"
        primaryKey: "id"             // or: function(todo) { return todo.group + "/" + todo.id }
        fields: ({
            id: 0, title: "", completed: false,  // declared fields with defaults (a model role each)
            createdAt: Deserialize.dateTime,      // deserialized when read
            price: Deserialize.decimal,
            author: user,                         // a nested entity (normalized separately)
            tags: function(v) { return v.split(",") } // a custom deserializer
        })
    }
    \endcode
    `key` and `primaryKey` are required: without them the Entity is not valid (`valid` false,
    `errorString` says what is missing), warns once, and every Resource using it reports the error.
    The schema is built when first used and rebuilt (schemaChanged) when a property changes.
    JS functions (primaryKey, field deserializers, process) run on the GUI thread.
*/
class DATACLIENT_QML_EXPORT QmlEntity : public QObject, public QQmlParserStatus
{
    Q_OBJECT
    QML_NAMED_ELEMENT(Entity)
    Q_INTERFACES(QQmlParserStatus)
    //! Unique name of the entity type, e.g. "Todo". Required.
    Q_PROPERTY(QString key READ key WRITE setKey NOTIFY keyChanged)
    //! The field holding the primary key ("id"), or a function(record) returning it. Required.
    Q_PROPERTY(QJSValue primaryKey READ primaryKey WRITE setPrimaryKey NOTIFY primaryKeyChanged)
    //! Field name -> default value, deserializer, function or nested Entity (or [Entity]).
    Q_PROPERTY(QJSValue fields READ fields WRITE setFields NOTIFY fieldsChanged)
    //! Optional function(record, parent, args) -> record, run on every record before normalizing.
    Q_PROPERTY(QJSValue process READ process WRITE setProcess NOTIFY processChanged)
    Q_PROPERTY(bool valid READ isValid NOTIFY schemaChanged)
    Q_PROPERTY(QString errorString READ errorString NOTIFY schemaChanged)
    //! The primary key field (when it is a name) and the declared fields: the list model roles.
    Q_PROPERTY(QStringList fieldNames READ fieldNames NOTIFY schemaChanged)

public:
    explicit QmlEntity(QObject *parent = nullptr);
    ~QmlEntity() override;

    QString key() const { return m_key; }
    void setKey(const QString &key);
    QJSValue primaryKey() const { return m_primaryKey; }
    void setPrimaryKey(const QJSValue &primaryKey);
    QJSValue fields() const { return m_fields; }
    void setFields(const QJSValue &fields);
    QJSValue process() const { return m_process; }
    void setProcess(const QJSValue &process);

    bool isValid() const;
    QString errorString() const;
    QStringList fieldNames() const;

    //! Schema::entity() of this declaration; a None schema when not valid.
    Schema schema() const;
    //! Schema::array(schema()), cached so repeated reads share one schema (memoization).
    Schema arraySchema() const;
    EntitySchema entitySchema() const;

    void classBegin() override { }
    void componentComplete() override;

Q_SIGNALS:
    void keyChanged();
    void primaryKeyChanged();
    void fieldsChanged();
    void processChanged();
    //! The schema was rebuilt (a property changed); users rebuild what they made from it.
    void schemaChanged();

private:
    void invalidate();
    void build() const;
    struct Built;
    void publish(const Built &built) const;
    //! The lazy schema of a field holding this Entity (or a list of it), callable on any thread.
    EntitySchema::SchemaFunction nestedSchema(bool array) const;

    QString m_key;
    QJSValue m_primaryKey;
    QJSValue m_fields;
    QJSValue m_process;
    bool m_complete = false;

    mutable std::unique_ptr<Built> m_built; // null until built or after a change
    struct Published;
    // The last schema built, for other threads (see nestedSchema() in the .cpp).
    std::shared_ptr<Published> m_published;
};

} // namespace DataClient::Qml
