// MockNetwork: a QNetworkAccessManager that answers from fixtures, without sockets.
#pragma once

#include <DataClient/global.h>
#include <DataClient/testing/fixture.h>

#include <QtCore/QList>
#include <QtCore/QPointer>
#include <QtNetwork/QNetworkAccessManager>

#include <functional>
#include <optional>

namespace DataClient {
class Controller;
}

namespace DataClient::Testing {

/*!
    A QNetworkAccessManager that never opens a socket: each request is answered by the first
    interceptor that returns a reply, else by the first fixture that matches it, with a real
    QNetworkReply (status, headers, body, errors, downloadProgress, all delivered through the
    event loop as the network would). Give it to a Controller like any manager:

    \code
    Testing::MockNetwork network({{.endpoint = todos.get, .params = {{u"id"_s, 1}},
                                   .response = QJsonObject{{u"id"_s, 1}}}});
    Controller controller(&network);
    \endcode

    A request that nothing matches fails the running test (QTest::qFail) with its method, URL,
    body and the closest fixture, and is answered with a 404 and an error so the code under test
    sees a failure too; it is kept in unmatched(). Every request is logged in requests().
*/
class DATACLIENT_TESTING_EXPORT MockNetwork : public QNetworkAccessManager
{
    Q_OBJECT

public:
    //! A function of the request: a reply, or std::nullopt to let the fixtures answer.
    using Interceptor = std::function<std::optional<MockReply>(const MockRequest &request)>;

    explicit MockNetwork(QObject *parent = nullptr);
    explicit MockNetwork(const QList<Fixture> &fixtures, QObject *parent = nullptr);
    ~MockNetwork() override;

    /*!
        Adds \a fixture after the others (the first match answers). A fixture for an endpoint
        whose params cannot build its URL is refused with a warning naming the parameter.
    */
    bool addFixture(const Fixture &fixture);
    void setFixtures(const QList<Fixture> &fixtures);
    QList<Fixture> fixtures() const { return m_fixtures; }
    //! Adds \a interceptor, asked before the fixtures while \a context lives.
    void addInterceptor(const QObject *context, const Interceptor &interceptor);

    /*!
        Makes this the network of \a controller (Controller::setNetworkAccessManager). Refused,
        with a critical message, when the controller already has another MockNetwork: two mocks
        on one Controller would answer the same requests two ways.
    */
    bool attach(DataClient::Controller *controller);

    //! Whether an unmatched request fails the running test (default true); false: only a
    //! warning (for a test of the unmatched path itself).
    void setFailOnUnmatched(bool fail) { m_failOnUnmatched = fail; }

    //! Every request received, in order.
    QList<MockRequest> requests() const { return m_requests; }
    //! The requests of \a method whose URL path is \a path.
    QList<MockRequest> requests(const QByteArray &method, const QString &path) const;
    //! The requests that nothing answered.
    QList<MockRequest> unmatched() const { return m_unmatched; }
    void clearRequests();

Q_SIGNALS:
    //! After a request is logged, before it is answered.
    void requestReceived(const DataClient::Testing::MockRequest &request);

protected:
    QNetworkReply *createRequest(Operation op, const QNetworkRequest &request,
                                 QIODevice *outgoingData) override;

private:
    struct InterceptorEntry
    {
        QPointer<const QObject> context;
        Interceptor function;
    };
    std::optional<MockReply> answer(const MockRequest &request);
    void reportUnmatched(const MockRequest &request);

    QList<Fixture> m_fixtures;
    QList<InterceptorEntry> m_interceptors;
    QList<MockRequest> m_requests;
    QList<MockRequest> m_unmatched;
    bool m_failOnUnmatched = true;
};

} // namespace DataClient::Testing
