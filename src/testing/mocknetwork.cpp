#include "logging_p.h"
#include "mocknetworkreply_p.h"
#include <DataClient/testing/await.h>

#include <DataClient/controller.h>
#include <DataClient/restendpoint.h>
#include <DataClient/testing/mocknetwork.h>

#include <QtCore/QIODevice>
#include <QtCore/QJsonObject>

using namespace Qt::StringLiterals;

namespace DataClient::Testing {

namespace {

QByteArray methodOf(QNetworkAccessManager::Operation operation, const QNetworkRequest &request)
{
    switch (operation) {
    case QNetworkAccessManager::HeadOperation:
        return "HEAD";
    case QNetworkAccessManager::GetOperation:
        return "GET";
    case QNetworkAccessManager::PutOperation:
        return "PUT";
    case QNetworkAccessManager::PostOperation:
        return "POST";
    case QNetworkAccessManager::DeleteOperation:
        return "DELETE";
    default:
        return request.attribute(QNetworkRequest::CustomVerbAttribute).toByteArray();
    }
}

//! How alike the fixture is to the request: the method first, then the longest shared URL
//! prefix (the request "closest" to a fixture is usually a typo in a path or a parameter).
qsizetype closeness(const Fixture &fixture, const MockRequest &request)
{
    const QString wanted
        = fixture.endpoint ? fixture.endpointUrl().toString(QUrl::FullyEncoded) : fixture.url;
    const QString got = request.url.toString(QUrl::FullyEncoded);
    // A fixture given as a path compares with the request's path and query.
    const QString against
        = wanted.startsWith(u'/') ? got.mid(got.indexOf(u'/', got.indexOf(u"//"_s) + 2)) : got;
    qsizetype shared = 0;
    while (shared < wanted.size() && shared < against.size() && wanted[shared] == against[shared])
        ++shared;
    return (fixture.effectiveMethod() == request.method ? 100000 : 0) + shared;
}

} // namespace

MockNetwork::MockNetwork(QObject *parent) : QNetworkAccessManager(parent) { }

MockNetwork::MockNetwork(const QList<Fixture> &fixtures, QObject *parent) : MockNetwork(parent)
{
    setFixtures(fixtures);
}

MockNetwork::~MockNetwork() = default;

bool MockNetwork::addFixture(const Fixture &fixture)
{
    if (fixture.endpoint) {
        QString why;
        if (!fixture.endpointUrl(&why).isValid()) {
            qCWarning(lcTesting).noquote()
                << "MockNetwork: fixture" << fixture.endpoint->path() << "refused:" << why;
            return false;
        }
    } else if (fixture.url.isEmpty()) {
        qCWarning(lcTesting, "MockNetwork: a fixture needs an endpoint or a url; refused");
        return false;
    }
    m_fixtures.append(fixture);
    return true;
}

void MockNetwork::setFixtures(const QList<Fixture> &fixtures)
{
    m_fixtures.clear();
    for (const Fixture &fixture : fixtures)
        addFixture(fixture);
}

void MockNetwork::addInterceptor(const QObject *context, const Interceptor &interceptor)
{
    m_interceptors.append({context, interceptor});
}

bool MockNetwork::attach(Controller *controller)
{
    if (!controller)
        return false;
    auto *current = qobject_cast<MockNetwork *>(controller->networkAccessManager());
    if (current && current != this) {
        qCCritical(lcTesting).noquote()
            << "MockNetwork::attach: the Controller already has another MockNetwork; two "
               "mocks on one Controller would answer the same requests two ways (use one "
               "MockNetwork and add fixtures to it)";
        return false;
    }
    controller->setNetworkAccessManager(this);
    return true;
}

QList<MockRequest> MockNetwork::requests(const QByteArray &method, const QString &path) const
{
    QList<MockRequest> found;
    for (const MockRequest &request : m_requests) {
        if (request.method == method && request.url.path() == path)
            found.append(request);
    }
    return found;
}

void MockNetwork::clearRequests()
{
    m_requests.clear();
    m_unmatched.clear();
}

std::optional<MockReply> MockNetwork::answer(const MockRequest &request)
{
    // A copy: an interceptor may add another.
    const QList<InterceptorEntry> interceptors = m_interceptors;
    for (const InterceptorEntry &entry : interceptors) {
        if (!entry.context)
            continue;
        if (std::optional<MockReply> reply = entry.function(request))
            return reply;
    }
    for (const Fixture &fixture : std::as_const(m_fixtures)) {
        if (fixture.matches(request))
            return fixture.reply();
    }
    return std::nullopt;
}

void MockNetwork::reportUnmatched(const MockRequest &request)
{
    m_unmatched.append(request);
    const Fixture *closest = nullptr;
    qsizetype best = -1;
    for (const Fixture &fixture : std::as_const(m_fixtures)) {
        const qsizetype score = closeness(fixture, request);
        if (score > best) {
            best = score;
            closest = &fixture;
        }
    }
    const QString message
        = QStringLiteral("MockNetwork: no fixture or interceptor answers %1; closest fixture: %2")
              .arg(request.toString(),
                   closest ? closest->toString() : QStringLiteral("none (no fixtures)"));
    if (m_failOnUnmatched)
        detail::failTest(message, __FILE__, __LINE__);
    else
        qCWarning(lcTesting).noquote() << message;
}

QNetworkReply *MockNetwork::createRequest(Operation op, const QNetworkRequest &request,
                                          QIODevice *outgoingData)
{
    MockRequest received;
    received.method = methodOf(op, request);
    received.url = request.url();
    const QList<QByteArray> names = request.rawHeaderList();
    for (const QByteArray &name : names)
        received.headers.append(std::pair(name, request.rawHeader(name)));
    if (outgoingData)
        received.body = outgoingData->readAll();
    m_requests.append(received);
    qCDebug(lcTesting).noquote() << "MockNetwork:" << received.toString();
    Q_EMIT requestReceived(received);

    std::optional<MockReply> reply = answer(received);
    if (!reply) {
        reportUnmatched(received);
        reply = MockReply::json(
            QJsonObject {
                {QStringLiteral("error"),
                 QStringLiteral("MockNetwork: no fixture for %1").arg(received.toString())}},
            404);
    }
    return new detail::MockNetworkReply(op, request, received.method, *reply, this);
}

} // namespace DataClient::Testing
