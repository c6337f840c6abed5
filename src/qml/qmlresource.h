// `Resource` QML type: createResource() (docs/rest.md) with its members as endpoint objects.
#pragma once

#include <DataClient/global.h>
#include <DataClient/resource.h>

#include "qmlentity.h"

#include <QtCore/QHash>
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
    // Options of createResource()
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
    //! Whether the lists follow their entities' changes (docs/collections.md); false: they
    //! keep their answers (Collection::KeepsAnswers).
    Q_PROPERTY(bool followChanges READ followChanges WRITE setFollowChanges NOTIFY optionsChanged)
    // EndpointExtraOptions (DATACLIENT_SHARED_ENDPOINT_OPTIONS): read and checked through the
    // one table of JS options, as extend() reads them; unset, they read as their defaults.
    Q_PROPERTY(int pollFrequency READ pollFrequency WRITE setPollFrequency NOTIFY optionsChanged)
    Q_PROPERTY(
        int dataExpiryLength READ dataExpiryLength WRITE setDataExpiryLength NOTIFY optionsChanged)
    Q_PROPERTY(int errorExpiryLength READ errorExpiryLength WRITE setErrorExpiryLength NOTIFY
                   optionsChanged)
    Q_PROPERTY(QString credentials READ credentials WRITE setCredentials NOTIFY optionsChanged)
    Q_PROPERTY(int timeout READ timeout WRITE setTimeout NOTIFY optionsChanged)
    Q_PROPERTY(QJSValue headers READ headers WRITE setHeaders NOTIFY optionsChanged)
    //! A number of bytes (a JS number: exact up to 2^53).
    Q_PROPERTY(double maxResponseBytes READ maxResponseBytes WRITE setMaxResponseBytes NOTIFY
                   optionsChanged)
    Q_PROPERTY(bool validators READ validators WRITE setValidators NOTIFY optionsChanged)
    //! { count, delay, maxDelay } (ms), false for no retries; unset: the kind's default.
    Q_PROPERTY(QJSValue retry READ retry WRITE setRetry NOTIFY optionsChanged)
    Q_PROPERTY(bool refetchOnActivate READ refetchOnActivate WRITE setRefetchOnActivate NOTIFY
                   optionsChanged)
    Q_PROPERTY(
        bool queueWhenOffline READ queueWhenOffline WRITE setQueueWhenOffline NOTIFY optionsChanged)
    //! false: its results stay out of the persisted store (docs/offline.md).
    Q_PROPERTY(bool persist READ persist WRITE setPersist NOTIFY optionsChanged)
    // Hooks (docs/hooks.md), the `Endpoint` option written as functions
    Q_PROPERTY(QJSValue process READ process WRITE setProcess NOTIFY optionsChanged)
    Q_PROPERTY(
        QJSValue getRequestInit READ getRequestInit WRITE setGetRequestInit NOTIFY optionsChanged)
    Q_PROPERTY(
        QJSValue parseResponse READ parseResponse WRITE setParseResponse NOTIFY optionsChanged)
    // Members
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

    QString path() const { return m_options.path; }
    void setPath(const QString &value);
    QmlEntity *schema() const;
    void setSchema(QmlEntity *value);
    QString urlPrefix() const { return m_options.urlPrefix; }
    void setUrlPrefix(const QString &value);
    QStringList searchParams() const { return m_options.searchParams; }
    void setSearchParams(const QStringList &value);
    QJSValue body() const { return m_options.body; }
    void setBody(const QJSValue &value);
    QString paginationField() const { return m_options.paginationField; }
    void setPaginationField(const QString &value);
    bool optimistic() const { return m_options.optimistic; }
    void setOptimistic(bool value);
    bool followChanges() const { return m_options.followChanges; }
    void setFollowChanges(bool value);
    QJSValue nonFilterArgumentKeys() const { return m_options.nonFilterArgumentKeys; }
    void setNonFilterArgumentKeys(const QJSValue &value);
    int pollFrequency() const { return sharedOption(u"pollFrequency").toInt(); }
    void setPollFrequency(int value) { setSharedOption(u"pollFrequency", value); }
    int dataExpiryLength() const { return sharedOption(u"dataExpiryLength").toInt(); }
    void setDataExpiryLength(int value) { setSharedOption(u"dataExpiryLength", value); }
    int errorExpiryLength() const { return sharedOption(u"errorExpiryLength").toInt(); }
    void setErrorExpiryLength(int value) { setSharedOption(u"errorExpiryLength", value); }
    QString credentials() const { return sharedOption(u"credentials").toString(); }
    void setCredentials(const QString &value) { setSharedOption(u"credentials", value); }
    int timeout() const { return sharedOption(u"timeout").toInt(); }
    void setTimeout(int value) { setSharedOption(u"timeout", value); }
    QJSValue headers() const { return m_options.shared.value(QStringLiteral("headers")); }
    void setHeaders(const QJSValue &value) { setSharedOption(u"headers", value); }
    double maxResponseBytes() const { return sharedOption(u"maxResponseBytes").toDouble(); }
    void setMaxResponseBytes(double value) { setSharedOption(u"maxResponseBytes", value); }
    bool validators() const { return sharedOption(u"validators").toBool(); }
    void setValidators(bool value) { setSharedOption(u"validators", value); }
    QJSValue retry() const { return m_options.shared.value(QStringLiteral("retry")); }
    void setRetry(const QJSValue &value) { setSharedOption(u"retry", value); }
    bool refetchOnActivate() const { return sharedOption(u"refetchOnActivate").toBool(); }
    void setRefetchOnActivate(bool value) { setSharedOption(u"refetchOnActivate", value); }
    bool queueWhenOffline() const { return sharedOption(u"queueWhenOffline").toBool(); }
    void setQueueWhenOffline(bool value) { setSharedOption(u"queueWhenOffline", value); }
    bool persist() const { return sharedOption(u"persist").toBool(); }
    void setPersist(bool value) { setSharedOption(u"persist", value); }
    QJSValue process() const { return m_options.process; }
    void setProcess(const QJSValue &value);
    QJSValue getRequestInit() const { return m_options.getRequestInit; }
    void setGetRequestInit(const QJSValue &value);
    QJSValue parseResponse() const { return m_options.parseResponse; }
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
        Three forms; each returns a new Resource (owned by this one):
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

    //! A shared option as set in QML, or its default.
    QVariant sharedOption(QStringView name) const;
    void setSharedOption(QStringView name, const QJSValue &value);

    //! Everything set in QML; extend() hands it to the resources it makes whole.
    struct Options
    {
        QString path;
        QPointer<QmlEntity> schema;
        QString urlPrefix;
        QStringList searchParams;
        QJSValue body;
        QString paginationField;
        bool optimistic = false;
        bool followChanges = true;
        QJSValue nonFilterArgumentKeys;
        QJSValue process;
        QJSValue getRequestInit;
        QJSValue parseResponse;
        //! The shared options set (by name), read through the table of JS options.
        QHash<QString, QJSValue> shared;
    };
    Options m_options;

    bool m_complete = false;
    bool m_derived = false; // made by extend(): its members are fixed
    Resource m_resource;
    QString m_error;
};

} // namespace DataClient::Qml
