// `StoreInspector` in QML (import DataClient.Inspector): a DataClient::StoreInspector on the
// engine's Controller (or a given one), attached while `active`.
#pragma once

#include <DataClient/storeinspector.h>

#include <QtCore/QAbstractItemModel>
#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtQml/QQmlParserStatus>
#include <QtQml/qqmlregistration.h>

namespace DataClient::InspectorQml {

/*!
    \code
    StoreInspector { id: inspector; active: overlay.visible }
    \endcode
    Inactive (the default), it is detached: nothing is registered with the Controller and
    nothing recorded. The models and actions are StoreInspector's; copy() puts text on the
    clipboard.
*/
class QmlStoreInspector : public QObject, public QQmlParserStatus
{
    Q_OBJECT
    Q_INTERFACES(QQmlParserStatus)
    QML_NAMED_ELEMENT(StoreInspector)
    //! The DataClient::Controller to inspect; unset: the engine's (the Controller singleton's).
    Q_PROPERTY(QObject *controller READ controller WRITE setController NOTIFY controllerChanged)
    Q_PROPERTY(bool active READ isActive WRITE setActive NOTIFY activeChanged)
    Q_PROPERTY(QString statusText READ statusText NOTIFY statusTextChanged)
    Q_PROPERTY(QAbstractItemModel *entities READ entities CONSTANT)
    Q_PROPERTY(QAbstractItemModel *results READ results CONSTANT)
    Q_PROPERTY(QAbstractItemModel *requests READ requests CONSTANT)
    Q_PROPERTY(QAbstractItemModel *status READ status CONSTANT)
    Q_PROPERTY(QAbstractItemModel *timeline READ timeline CONSTANT)
    Q_PROPERTY(QAbstractItemModel *outbox READ outbox NOTIFY attachedChanged)
    Q_PROPERTY(bool attached READ isAttached NOTIFY attachedChanged)
    Q_PROPERTY(bool online READ isOnline WRITE setOnline NOTIFY onlineChanged)
    Q_PROPERTY(int historyLimit READ historyLimit WRITE setHistoryLimit NOTIFY historyLimitChanged)

public:
    explicit QmlStoreInspector(QObject *parent = nullptr);
    ~QmlStoreInspector() override;

    QObject *controller() const { return m_controller; }
    void setController(QObject *controller);
    bool isActive() const { return m_active; }
    void setActive(bool active);
    QString statusText() const { return m_inspector.statusText(); }
    QAbstractItemModel *entities() const { return m_inspector.entities(); }
    QAbstractItemModel *results() const { return m_inspector.results(); }
    QAbstractItemModel *requests() const { return m_inspector.requests(); }
    QAbstractItemModel *status() const { return m_inspector.status(); }
    QAbstractItemModel *timeline() const { return m_inspector.timeline(); }
    QAbstractItemModel *outbox() const { return m_inspector.outbox(); }
    bool isAttached() const { return m_inspector.controller() != nullptr; }
    bool isOnline() const { return m_inspector.isOnline(); }
    void setOnline(bool online) { m_inspector.setOnline(online); }
    int historyLimit() const { return m_inspector.historyLimit(); }
    void setHistoryLimit(int limit) { m_inspector.setHistoryLimit(limit); }
    StoreInspector *inspector() { return &m_inspector; }

    Q_INVOKABLE bool invalidate(const QString &key) { return m_inspector.invalidate(key); }
    Q_INVOKABLE bool expire(const QString &key) { return m_inspector.expire(key); }
    Q_INVOKABLE bool refetch(const QString &key) { return m_inspector.refetch(key); }
    Q_INVOKABLE bool dropEntity(const QString &type, const QString &pk)
    {
        return m_inspector.dropEntity(type, pk);
    }
    Q_INVOKABLE bool resetStore() { return m_inspector.resetStore(); }
    Q_INVOKABLE QString entityJson(const QString &type, const QString &pk) const
    {
        return m_inspector.entityJson(type, pk);
    }
    Q_INVOKABLE QString answerJson(const QString &key) const { return m_inspector.answerJson(key); }
    //! Puts \a text on the clipboard (Copy JSON).
    Q_INVOKABLE void copy(const QString &text) const;

    void classBegin() override { }
    void componentComplete() override;

Q_SIGNALS:
    void controllerChanged();
    void activeChanged();
    void statusTextChanged();
    void attachedChanged();
    void onlineChanged();
    void historyLimitChanged();

private:
    void update();

    StoreInspector m_inspector;
    QPointer<QObject> m_controller;
    bool m_active = false;
    bool m_complete = false;
};

} // namespace DataClient::InspectorQml
