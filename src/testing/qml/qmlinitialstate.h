// `InitialState` and `VirtualClock` in QML (import DataClient.Testing).
#pragma once

#include <DataClient/testing/virtualclock.h>

#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtQml/QJSValue>
#include <QtQml/QQmlParserStatus>
#include <QtQml/qqmlregistration.h>

#include <memory>

namespace DataClient::Testing::Qml {

/*!
    Fills the Controller's store from fixtures when complete (Testing::mockInitialState), so
    that the screen created next shows them at once: `InitialState { fixtures: [...] }`. A bad
    fixture fails the running TestCase; \c error keeps the message.
*/
class QmlInitialState : public QObject, public QQmlParserStatus
{
    Q_OBJECT
    Q_INTERFACES(QQmlParserStatus)
    QML_NAMED_ELEMENT(InitialState)
    Q_PROPERTY(QJSValue fixtures READ fixtures WRITE setFixtures NOTIFY fixturesChanged)
    Q_PROPERTY(QObject *controller READ controller WRITE setController NOTIFY controllerChanged)
    Q_PROPERTY(QString error READ error NOTIFY applied)

public:
    using QObject::QObject;

    QJSValue fixtures() const { return m_fixtures; }
    void setFixtures(const QJSValue &fixtures);
    QObject *controller() const { return m_controller; }
    void setController(QObject *controller);
    QString error() const { return m_error; }

    //! Stores the fixtures again (after Controller.resetEntireStore(), in a test's init()).
    Q_INVOKABLE bool apply();

    void classBegin() override { }
    void componentComplete() override;

Q_SIGNALS:
    void fixturesChanged();
    void controllerChanged();
    void applied();

private:
    QJSValue m_fixtures;
    QPointer<QObject> m_controller;
    QString m_error;
    bool m_complete = false;
};

/*!
    Testing::VirtualClock on the engine's Controller (or a given one) while it lives:
    `VirtualClock { id: clock }` ... `clock.advance(30000)`.
*/
class QmlVirtualClock : public QObject, public QQmlParserStatus
{
    Q_OBJECT
    Q_INTERFACES(QQmlParserStatus)
    QML_NAMED_ELEMENT(VirtualClock)
    Q_PROPERTY(QObject *controller READ controller WRITE setController NOTIFY controllerChanged)
    //! Milliseconds since the epoch, as a double (JS numbers).
    Q_PROPERTY(double now READ now NOTIFY advanced)

public:
    explicit QmlVirtualClock(QObject *parent = nullptr);
    ~QmlVirtualClock() override;

    QObject *controller() const { return m_controller; }
    void setController(QObject *controller);
    double now() const { return double(m_clock.now()); }

    //! Moves time forward by \a ms (refused when negative: -1); returns how many waits ran.
    Q_INVOKABLE int advance(double ms);

    void classBegin() override { }
    void componentComplete() override;

Q_SIGNALS:
    void controllerChanged();
    void advanced();

private:
    void install();

    VirtualClock m_clock;
    QPointer<QObject> m_controller;
    QPointer<DataClient::Controller> m_installed;
    bool m_complete = false;
};

} // namespace DataClient::Testing::Qml
