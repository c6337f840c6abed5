#include "qmlstoreinspector.h"

#include <DataClient/controller.h>
#include <DataClient/qmlcontroller.h>

#include <QtGui/QClipboard>
#include <QtGui/QGuiApplication>
#include <QtQml/QQmlEngine>

namespace DataClient::InspectorQml {

QmlStoreInspector::QmlStoreInspector(QObject *parent) : QObject(parent)
{
    connect(&m_inspector, &StoreInspector::statusTextChanged, this,
            &QmlStoreInspector::statusTextChanged);
    connect(&m_inspector, &StoreInspector::controllerChanged, this,
            &QmlStoreInspector::attachedChanged);
    connect(&m_inspector, &StoreInspector::onlineChanged, this, &QmlStoreInspector::onlineChanged);
    connect(&m_inspector, &StoreInspector::historyLimitChanged, this,
            &QmlStoreInspector::historyLimitChanged);
}

QmlStoreInspector::~QmlStoreInspector() = default;

void QmlStoreInspector::setController(QObject *controller)
{
    if (controller == m_controller)
        return;
    m_controller = controller;
    Q_EMIT controllerChanged();
    update();
}

void QmlStoreInspector::setActive(bool active)
{
    if (active == m_active)
        return;
    m_active = active;
    Q_EMIT activeChanged();
    update();
}

void QmlStoreInspector::componentComplete()
{
    m_complete = true;
    update();
}

void QmlStoreInspector::update()
{
    if (!m_complete)
        return;
    Controller *controller = nullptr;
    if (m_active) {
        controller = qobject_cast<Controller *>(m_controller);
        if (!controller && !m_controller)
            controller = qmlController(qmlEngine(this));
    }
    m_inspector.setController(controller);
}

void QmlStoreInspector::copy(const QString &text) const
{
    if (QClipboard *clipboard = QGuiApplication::clipboard())
        clipboard->setText(text);
}

} // namespace DataClient::InspectorQml
