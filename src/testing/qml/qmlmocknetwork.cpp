#include "jsfixtures_p.h"
#include "qmlmocknetwork.h"

#include <DataClient/controller.h>

#include <QtCore/QJsonDocument>
#include <QtQml/QQmlEngine>
#include <QtQml/QQmlInfo>

using namespace Qt::StringLiterals;

namespace DataClient::Testing::Qml {

QmlMockNetwork::QmlMockNetwork(QObject *parent) : QObject(parent)
{
    connect(&m_network, &MockNetwork::requestReceived, this, &QmlMockNetwork::requestsChanged);
    // The fixtures are read when the first request after a change arrives, not when they are
    // set: at componentComplete() the Resources they name may not have made their endpoints yet.
    m_network.addInterceptor(this, [this](const MockRequest &) {
        if (m_dirty)
            applyFixtures();
        return std::optional<MockReply>();
    });
}

QmlMockNetwork::~QmlMockNetwork()
{
    detach();
}

void QmlMockNetwork::setFixtures(const QJSValue &fixtures)
{
    m_fixtures = fixtures;
    m_dirty = true;
    Q_EMIT fixturesChanged();
}

void QmlMockNetwork::setController(QObject *controller)
{
    if (m_controller == controller)
        return;
    m_controller = controller;
    if (m_complete) {
        detach();
        componentComplete();
    }
    Q_EMIT controllerChanged();
}

void QmlMockNetwork::setFailOnUnmatched(bool fail)
{
    if (m_failOnUnmatched == fail)
        return;
    m_failOnUnmatched = fail;
    m_network.setFailOnUnmatched(fail);
    Q_EMIT failOnUnmatchedChanged();
}

void QmlMockNetwork::applyFixtures()
{
    m_dirty = false;
    QString error;
    const QList<Fixture> fixtures = fixturesFromJs(m_fixtures, &error);
    if (!error.isEmpty())
        qmlWarning(this) << "MockNetwork: " << error;
    m_network.setFixtures(fixtures);
}

void QmlMockNetwork::componentComplete()
{
    m_complete = true;
    Controller *controller = controllerOf(this, m_controller);
    if (!controller)
        return;
    QNetworkAccessManager *previous = controller->networkAccessManager();
    if (!m_network.attach(controller))
        return;
    m_attached = controller;
    m_previous = previous;
}

void QmlMockNetwork::detach()
{
    // Gives the Controller (often the application-wide one, shared by the next test file) its
    // own manager back.
    if (m_attached && m_attached->networkAccessManager() == &m_network)
        m_attached->setNetworkAccessManager(m_previous);
    m_attached = nullptr;
}

int QmlMockNetwork::requestCount(const QString &method, const QString &path) const
{
    int count = 0;
    const QList<MockRequest> requests = m_network.requests();
    for (const MockRequest &request : requests) {
        if ((method.isEmpty() || request.method == method.toUpper().toLatin1())
            && (path.isEmpty() || request.url.path() == path)) {
            ++count;
        }
    }
    return count;
}

QVariantList QmlMockNetwork::requests() const
{
    QVariantList list;
    const QList<MockRequest> requests = m_network.requests();
    for (const MockRequest &request : requests) {
        const QJsonValue json = request.json();
        list.append(QVariantMap {
            {u"method"_s, QString::fromLatin1(request.method)},
            {u"url"_s, request.url.toString()},
            {u"path"_s, request.url.path()},
            {u"body"_s,
             json.isUndefined() ? QVariant(QString::fromUtf8(request.body)) : json.toVariant()}});
    }
    return list;
}

void QmlMockNetwork::clearRequests()
{
    m_network.clearRequests();
    Q_EMIT requestsChanged();
}

} // namespace DataClient::Testing::Qml
