// `MockNetwork` in QML (import DataClient.Testing): a Testing::MockNetwork attached to the
// engine's Controller (or a given one) for as long as the element lives.
#pragma once

#include <DataClient/testing/mocknetwork.h>

#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtQml/QJSValue>
#include <QtQml/QQmlParserStatus>
#include <QtQml/qqmlregistration.h>

namespace DataClient::Testing::Qml {

/*!
    \code
    MockNetwork {
        fixtures: [
            { endpoint: todos.getList, response: [{ id: 1, title: "Buy milk" }] },
            { endpoint: todos.get, params: { id: 9 }, status: 500, error: true }
        ]
    }
    \endcode
    Attaches when complete; on destruction the Controller gets back the manager it had. An
    unmatched request fails the running TestCase (as in C++); requestCount() and requests()
    are for assertions.
*/
class QmlMockNetwork : public QObject, public QQmlParserStatus
{
    Q_OBJECT
    Q_INTERFACES(QQmlParserStatus)
    QML_NAMED_ELEMENT(MockNetwork)
    //! Array of fixture objects (see jsfixtures_p.h for the keys).
    Q_PROPERTY(QJSValue fixtures READ fixtures WRITE setFixtures NOTIFY fixturesChanged)
    //! The DataClient::Controller to attach to; unset: the engine's (the Controller singleton's).
    Q_PROPERTY(QObject *controller READ controller WRITE setController NOTIFY controllerChanged)
    Q_PROPERTY(bool failOnUnmatched READ failOnUnmatched WRITE setFailOnUnmatched NOTIFY
                   failOnUnmatchedChanged)
    Q_PROPERTY(int unmatchedCount READ unmatchedCount NOTIFY requestsChanged)

public:
    explicit QmlMockNetwork(QObject *parent = nullptr);
    ~QmlMockNetwork() override;

    QJSValue fixtures() const { return m_fixtures; }
    void setFixtures(const QJSValue &fixtures);
    QObject *controller() const { return m_controller; }
    void setController(QObject *controller);
    bool failOnUnmatched() const { return m_failOnUnmatched; }
    void setFailOnUnmatched(bool fail);
    int unmatchedCount() const { return int(m_network.unmatched().size()); }

    //! Requests received, with \a method and URL path \a path when given.
    Q_INVOKABLE int requestCount(const QString &method = {}, const QString &path = {}) const;
    //! Every request as { method, url, path, body } (body: the JSON, or the text).
    Q_INVOKABLE QVariantList requests() const;
    Q_INVOKABLE void clearRequests();

    void classBegin() override { }
    void componentComplete() override;

Q_SIGNALS:
    void fixturesChanged();
    void controllerChanged();
    void failOnUnmatchedChanged();
    void requestsChanged();

private:
    void applyFixtures();
    void detach();

    MockNetwork m_network;
    QJSValue m_fixtures;
    QPointer<QObject> m_controller;
    QPointer<DataClient::Controller> m_attached;
    QPointer<QNetworkAccessManager> m_previous;
    bool m_failOnUnmatched = true;
    bool m_complete = false;
    bool m_dirty = false;
};

} // namespace DataClient::Testing::Qml
