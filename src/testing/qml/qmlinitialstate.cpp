#include "jsfixtures_p.h"
#include "qmlinitialstate.h"

#include <DataClient/controller.h>
#include <DataClient/testing/await.h>
#include <DataClient/testing/initialstate.h>

#include <QtQml/QQmlInfo>

namespace DataClient::Testing::Qml {

void QmlInitialState::setFixtures(const QJSValue &fixtures)
{
    m_fixtures = fixtures;
    if (m_complete)
        apply();
    Q_EMIT fixturesChanged();
}

void QmlInitialState::setController(QObject *controller)
{
    if (m_controller == controller)
        return;
    m_controller = controller;
    if (m_complete)
        apply();
    Q_EMIT controllerChanged();
}

void QmlInitialState::componentComplete()
{
    m_complete = true;
    apply();
}

bool QmlInitialState::apply()
{
    m_error.clear();
    const QList<Fixture> fixtures = fixturesFromJs(m_fixtures, &m_error);
    if (m_error.isEmpty())
        mockInitialState(controllerOf(this, m_controller), fixtures, &m_error);
    if (!m_error.isEmpty()) {
        m_error = QStringLiteral("InitialState: ") + m_error;
        detail::failTest(m_error, __FILE__, __LINE__);
    }
    Q_EMIT applied();
    return m_error.isEmpty();
}

QmlVirtualClock::QmlVirtualClock(QObject *parent) : QObject(parent)
{
    connect(&m_clock, &VirtualClock::advanced, this, &QmlVirtualClock::advanced);
}

QmlVirtualClock::~QmlVirtualClock()
{
    if (m_installed)
        m_clock.uninstall(m_installed);
}

void QmlVirtualClock::setController(QObject *controller)
{
    if (m_controller == controller)
        return;
    m_controller = controller;
    if (m_complete)
        install();
    Q_EMIT controllerChanged();
}

void QmlVirtualClock::componentComplete()
{
    m_complete = true;
    install();
}

void QmlVirtualClock::install()
{
    if (m_installed)
        m_clock.uninstall(m_installed);
    m_installed = controllerOf(this, m_controller);
    m_clock.install(m_installed);
}

int QmlVirtualClock::advance(double ms)
{
    return m_clock.advance(qint64(ms));
}

} // namespace DataClient::Testing::Qml
