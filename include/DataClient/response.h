// Response: the raw HTTP answer handed to the parseResponse() hook (docs/hooks.md).
#pragma once

#include <DataClient/global.h>

#include <QtCore/QByteArray>
#include <QtCore/QByteArrayView>
#include <QtCore/QList>
#include <QtCore/QPair>
#include <QtCore/QString>
#include <QtCore/QUrl>
#include <QtNetwork/QNetworkReply>

namespace DataClient {

/*!
    One HTTP answer, fully read: status, headers and body. RestEndpoint::fetchResponse() resolves
    with it for every HTTP status (including 4xx/5xx); RestEndpoint::fetch() turns a status
    outside 200-299 into a NetworkError before parseResponse() runs.
*/
struct DATACLIENT_REST_EXPORT Response
{
    QByteArray method {}; //!< the request's method, e.g. "GET"
    QUrl url {}; //!< the request's URL (after redirects: the final one)
    int status = 0; //!< HTTP status; 0 when there was no HTTP answer
    QString statusText {}; //!< the reason phrase, e.g. "Not Found"
    QList<QPair<QByteArray, QByteArray>> headers {}; //!< as received, names as sent
    QByteArray body {};
    QNetworkReply::NetworkError networkError = QNetworkReply::NoError; //!< Qt's view of it
    QString errorString {}; //!< QNetworkReply::errorString() when networkError is set

    //! A header's value, matched case-insensitively (several occurrences joined with ", ").
    QByteArray header(QByteArrayView name) const;
    bool hasHeader(QByteArrayView name) const;
    //! The media type without parameters, lower-case: "application/json".
    QByteArray contentType() const;
    //! The Content-Type's charset parameter, lower-case and unquoted: "utf-8"; empty when none.
    QByteArray charset() const;
    //! 200-299.
    bool isOk() const { return status >= 200 && status < 300; }
};

} // namespace DataClient
