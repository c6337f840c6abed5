#include <DataClient/controller.h>
#include <DataClient/response.h>
#include <DataClient/restendpoint.h>
#include <DataClient/testing/await.h>
#include <DataClient/testing/initialstate.h>

namespace DataClient::Testing {

namespace {

//! The error the REST layer would have made of the fixture's answer.
NetworkError errorOf(const Fixture &fixture, const QUrl &url)
{
    const MockReply reply = fixture.reply();
    if (reply.error != QNetworkReply::NoError) {
        return NetworkError(NetworkError::Kind::Network, 0,
                            QStringLiteral("%1 %2 failed: %3 (a fixture)")
                                .arg(QString::fromLatin1(fixture.effectiveMethod()), url.toString(),
                                     reply.errorString))
            .withRequest(fixture.effectiveMethod(), url)
            .withNetworkError(reply.error, reply.errorString);
    }
    Response response;
    response.method = fixture.effectiveMethod();
    response.url = url;
    response.status = reply.status;
    for (const auto &header : reply.headers)
        response.headers.append({header.first, header.second});
    response.body = reply.body;
    return NetworkError::fromResponse(response);
}

} // namespace

bool mockInitialState(Controller *controller, const QList<Fixture> &fixtures, QString *error,
                      const char *file, int line)
{
    auto refuse = [&](qsizetype index, const QString &why) {
        const QString message
            = QStringLiteral("Testing::mockInitialState: fixture %1: %2").arg(index).arg(why);
        if (error)
            *error = message;
        else
            detail::failTest(message, file, line);
        return false;
    };
    if (!controller)
        return refuse(0, QStringLiteral("no Controller"));
    for (qsizetype i = 0; i < fixtures.size(); ++i) {
        const Fixture &fixture = fixtures[i];
        if (!fixture.endpoint) {
            return refuse(i,
                          QStringLiteral("%1 has no endpoint; the store keeps answers by "
                                         "endpoint and params")
                              .arg(fixture.url));
        }
        QString why;
        const QUrl url = fixture.endpointUrl(&why);
        if (!url.isValid())
            return refuse(i, why);
        if (fixture.isError()) {
            controller->setError(fixture.endpoint, fixture.params, errorOf(fixture, url));
            continue;
        }
        const StoreWrite written
            = controller->setResponse(fixture.endpoint, fixture.params, fixture.response);
        if (!written.ok()) {
            return refuse(
                i,
                QStringLiteral("%1: the response does not fit the schema at '%2': %3")
                    .arg(url.toString(), written.error->path(), written.error->message()));
        }
    }
    return true;
}

} // namespace DataClient::Testing
