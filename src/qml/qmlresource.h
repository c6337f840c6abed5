// `Resource` QML type: createResource() (SPEC 2.2) with its members as endpoint objects.
#pragma once

#include <DataClient/global.h>
#include <DataClient/resource.h>

#include "qmlentity.h"

#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtCore/QStringList>
#include <QtQml/QJSValue>
#include <QtQml/QQmlParserStatus>
#include <QtQml/qqmlregistration.h>

#include <memory>

namespace DataClient::Qml {

class QmlEndpoint;

/*!
    \code
    Resource {
        id: todos
        urlPrefix: server.url; path: "/todos/:id"; schema: todo
        searchParams: ["userId"]; paginationField: "page"; optimistic: true
        // hooks (optional): JS functions, run on the GUI thread
        process: function(value, params) { return value }
        getRequestInit: function(body, init) { init.headers["X-Token"] = "t"; return init }
        parseResponse: function(response) { return response.value }
    }
    // todos.get, todos.getList, todos.getList.push (= todos.push), todos.unshift, todos.getPage,
    // todos.update, todos.partialUpdate, todos["delete"] (= todos.remove)
    \endcode
    Members are rebuilt (membersChanged) when an option changes. A missing or invalid option
    makes the resource invalid: `valid` is false, `errorString` names the option, members are null.
*/
class DATACLIENT_QML_EXPORT QmlResource : public QObject, public QQmlParserStatus
{
    Q_OBJECT
    QML_NAMED_ELEMENT(Resource)
    Q_INTERFACES(QQmlParserStatus)
    // SPEC 2.2 options
    Q_PROPERTY(QString path READ path WRITE setPath NOTIFY optionsChanged)
    Q_PROPERTY(DataClient::Qml::QmlEntity *schema READ schema WRITE setSchema NOTIFY optionsChanged)
    Q_PROPERTY(QString urlPrefix READ urlPrefix WRITE setUrlPrefix NOTIFY optionsChanged)
    Q_PROPERTY(
        QStringList searchParams READ searchParams WRITE setSearchParams NOTIFY optionsChanged)
    Q_PROPERTY(QJSValue body READ body WRITE setBody NOTIFY optionsChanged)
    Q_PROPERTY(
        QString paginationField READ paginationField WRITE setPaginationField NOTIFY optionsChanged)
    Q_PROPERTY(bool optimistic READ optimistic WRITE setOptimistic NOTIFY optionsChanged)
    //! The `Collection` option: function(key) -> true when \a key does not filter lists.
    Q_PROPERTY(QJSValue nonFilterArgumentKeys READ nonFilterArgumentKeys WRITE
                   setNonFilterArgumentKeys NOTIFY optionsChanged)
    // EndpointExtraOptions
    Q_PROPERTY(int pollFrequency READ pollFrequency WRITE setPollFrequency NOTIFY optionsChanged)
    Q_PROPERTY(
        int dataExpiryLength READ dataExpiryLength WRITE setDataExpiryLength NOTIFY optionsChanged)
    Q_PROPERTY(int errorExpiryLength READ errorExpiryLength WRITE setErrorExpiryLength NOTIFY
                   optionsChanged)
    Q_PROPERTY(QString credentials READ credentials WRITE setCredentials NOTIFY optionsChanged)
    Q_PROPERTY(int timeout READ timeout WRITE setTimeout NOTIFY optionsChanged)
    Q_PROPERTY(QJSValue headers READ headers WRITE setHeaders NOTIFY optionsChanged)
    // Hooks (SPEC 4.4), the `Endpoint` option written as functions
    Q_PROPERTY(QJSValue process READ process WRITE setProcess NOTIFY optionsChanged)
    Q_PROPERTY(
        QJSValue getRequestInit READ getRequestInit WRITE setGetRequestInit NOTIFY optionsChanged)
    Q_PROPERTY(
        QJSValue parseResponse READ parseResponse WRITE setParseResponse NOTIFY optionsChanged)
    // Members (SPEC 4.1)
    Q_PROPERTY(DataClient::Qml::QmlEndpoint *get READ get NOTIFY membersChanged)
    Q_PROPERTY(DataClient::Qml::QmlEndpoint *getList READ getList NOTIFY membersChanged)
    Q_PROPERTY(DataClient::Qml::QmlEndpoint *push READ push NOTIFY membersChanged)
    Q_PROPERTY(DataClient::Qml::QmlEndpoint *unshift READ unshift NOTIFY membersChanged)
    Q_PROPERTY(DataClient::Qml::QmlEndpoint *getPage READ getPage NOTIFY membersChanged)
    Q_PROPERTY(DataClient::Qml::QmlEndpoint *update READ update NOTIFY membersChanged)
    Q_PROPERTY(DataClient::Qml::QmlEndpoint *partialUpdate READ partialUpdate NOTIFY membersChanged)
    //! SPEC `delete` (todos["delete"] or todos.delete in QML).
    Q_PROPERTY(DataClient::Qml::QmlEndpoint *delete READ remove NOTIFY membersChanged)
    Q_PROPERTY(DataClient::Qml::QmlEndpoint *remove READ remove NOTIFY membersChanged)
    Q_PROPERTY(QStringList memberNames READ memberNames NOTIFY membersChanged)
    Q_PROPERTY(bool valid READ isValid NOTIFY membersChanged)
    Q_PROPERTY(QString errorString READ errorString NOTIFY membersChanged)

public:
    explicit QmlResource(QObject *parent = nullptr);
    ~QmlResource() override;

    QString path() const { return m_path; }
    void setPath(const QString &value);
    QmlEntity *schema() const;
    void setSchema(QmlEntity *value);
    QString urlPrefix() const { return m_urlPrefix; }
    void setUrlPrefix(const QString &value);
    QStringList searchParams() const { return m_searchParams; }
    void setSearchParams(const QStringList &value);
    QJSValue body() const { return m_body; }
    void setBody(const QJSValue &value);
    QString paginationField() const { return m_paginationField; }
    void setPaginationField(const QString &value);
    bool optimistic() const { return m_optimistic; }
    void setOptimistic(bool value);
    QJSValue nonFilterArgumentKeys() const { return m_nonFilterArgumentKeys; }
    void setNonFilterArgumentKeys(const QJSValue &value);
    int pollFrequency() const { return m_pollFrequency; }
    void setPollFrequency(int value);
    int dataExpiryLength() const { return m_dataExpiryLength; }
    void setDataExpiryLength(int value);
    int errorExpiryLength() const { return m_errorExpiryLength; }
    void setErrorExpiryLength(int value);
    QString credentials() const { return m_credentials; }
    void setCredentials(const QString &value);
    int timeout() const { return m_timeout; }
    void setTimeout(int value);
    QJSValue headers() const { return m_headers; }
    void setHeaders(const QJSValue &value);
    QJSValue process() const { return m_process; }
    void setProcess(const QJSValue &value);
    QJSValue getRequestInit() const { return m_getRequestInit; }
    void setGetRequestInit(const QJSValue &value);
    QJSValue parseResponse() const { return m_parseResponse; }
    void setParseResponse(const QJSValue &value);

    QmlEndpoint *get() const { return memberObject(QStringLiteral("get")); }
    QmlEndpoint *getList() const { return memberObject(QStringLiteral("getList")); }
    QmlEndpoint *push() const { return memberObject(QStringLiteral("getList.push")); }
    QmlEndpoint *unshift() const { return memberObject(QStringLiteral("getList.unshift")); }
    QmlEndpoint *getPage() const { return memberObject(QStringLiteral("getList.getPage")); }
    QmlEndpoint *update() const { return memberObject(QStringLiteral("update")); }
    QmlEndpoint *partialUpdate() const { return memberObject(QStringLiteral("partialUpdate")); }
    QmlEndpoint *remove() const { return memberObject(QStringLiteral("delete")); }
    QStringList memberNames() const;
    bool isValid() const;
    QString errorString() const;

    //! The C++ resource (invalid until complete).
    Resource resource() const { return m_resource; }

    //! A member by name ("get", "getList.push", a name added by extend()), or null.
    Q_INVOKABLE DataClient::Qml::QmlEndpoint *member(const QString &name) const;
    /*!
        SPEC 4.3, three forms; each returns a new Resource (owned by this one):
        - extend({ getList: { path: "/lists/:id/todos" }, update: { optimistic: false } })
        - extend("byUser", { path: "/users/:userId/todos", schema: [todo] })
        - extend(function(base) { return { getList: base.getList.extend({ ... }) } })
        A mistake returns null and warns, naming the member and the option. Before the Resource
        is complete it returns null; in a binding, read `valid` first so the binding runs again
        once the members exist: `property var v2: todos.valid ? todos.extend({...}) : null`.
    */
    Q_INVOKABLE DataClient::Qml::QmlResource *extend(const QJSValue &first,
                                                     const QJSValue &second = QJSValue());

    void classBegin() override { }
    void componentComplete() override;

Q_SIGNALS:
    void optionsChanged();
    void membersChanged();

private:
    QmlEndpoint *memberObject(const QString &name) const;
    void optionChanged();
    void rebuild();
    void adopt(const Resource &resource);
    QmlResource *derived(const Resource &resource);

    QString m_path;
    QPointer<QmlEntity> m_schema;
    QString m_urlPrefix;
    QStringList m_searchParams;
    QJSValue m_body;
    QString m_paginationField;
    bool m_optimistic = false;
    QJSValue m_nonFilterArgumentKeys;
    int m_pollFrequency = 0;
    int m_dataExpiryLength = 60000;
    int m_errorExpiryLength = 1000;
    QString m_credentials = QStringLiteral("same-origin");
    int m_timeout = 30000;
    QJSValue m_headers;
    QJSValue m_process;
    QJSValue m_getRequestInit;
    QJSValue m_parseResponse;

    bool m_complete = false;
    bool m_derived = false; // made by extend(): its members are fixed
    Resource m_resource;
    QString m_error;
};

} // namespace DataClient::Qml
