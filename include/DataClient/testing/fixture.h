// Fixtures of the testing kit: what a test says the server answers, shared by
// MockNetwork (answers requests) and mockInitialState() (fills the store without any).
#pragma once

#include <DataClient/global.h>
#include <DataClient/endpointoptions.h>
#include <DataClient/params.h>
#include <DataClient/schema.h>

#include <QtCore/QByteArray>
#include <QtCore/QJsonValue>
#include <QtCore/QList>
#include <QtCore/QMetaType>
#include <QtCore/QString>
#include <QtCore/QUrl>
#include <QtNetwork/QNetworkReply>

#include <optional>
#include <utility>

namespace DataClient::Testing {

using HeaderList = QList<std::pair<QByteArray, QByteArray>>;

//! A request MockNetwork received.
struct DATACLIENT_TESTING_EXPORT MockRequest
{
    QByteArray method {};
    QUrl url {};
    HeaderList headers {};
    QByteArray body {};

    //! The value of header \a name (case-insensitive), empty when absent.
    QByteArray header(const QByteArray &name) const;
    //! The body as JSON; undefined when it is empty or not JSON.
    QJsonValue json() const;
    //! "POST http://api/todos {"title":"x"}", for failure messages.
    QString toString() const;
};

//! An answer MockNetwork gives: an HTTP answer, or a transport failure (error != NoError).
struct DATACLIENT_TESTING_EXPORT MockReply
{
    int status = 200;
    QByteArray body {};
    HeaderList headers {};
    //! A failure without an HTTP answer (connection refused, host not found...); status 0.
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    QString errorString {};
    //! Answered after this many ms of real time (a QTimer; 0: at the next event loop turn).
    int delayMs = 0;

    //! \a value as a JSON body (Content-Type application/json).
    static MockReply json(const QJsonValue &value, int status = 200);
    //! A transport failure: no status, no body.
    static MockReply failure(QNetworkReply::NetworkError error, const QString &errorString = {});
};

/*!
    What the server answers to one request. Matched by endpoint (its method and the URL it builds
    from params) or, without an endpoint, by method + url: a full URL or a path, where a
    ":name" segment matches any segment and params must be in the query. A fixture with a body
    only matches requests whose body is that JSON.
*/
struct DATACLIENT_TESTING_EXPORT Fixture
{
    EndpointPtr endpoint {};
    QByteArray method = "GET";
    QString url {};
    Params params {};
    std::optional<QJsonValue> body {};
    //! The answer's JSON body (for an error: the error body).
    QJsonValue response {};
    //! An HTTP error answer: status defaults to 500 and the store gets an error.
    bool error = false;
    //! 0: 200 (500 with error).
    int status = 0;
    HeaderList headers {};
    int delayMs = 0;
    //! A transport failure instead of an answer (QNetworkReply::ConnectionRefusedError...).
    QNetworkReply::NetworkError networkError = QNetworkReply::NoError;

    int effectiveStatus() const;
    bool isError() const;
    MockReply reply() const;
    //! The method of the fixture: the endpoint's when it has one.
    QByteArray effectiveMethod() const;
    //! The URL an endpoint fixture's params build; invalid (with \a why) when they cannot.
    QUrl endpointUrl(QString *why = nullptr) const;
    //! Whether \a request is what this fixture answers.
    bool matches(const MockRequest &request) const;
    //! "GET http://api/todos/1 -> 200", for failure messages.
    QString toString() const;
};

} // namespace DataClient::Testing

Q_DECLARE_METATYPE(DataClient::Testing::MockRequest)
