// Security tests not already proven elsewhere (docs/reliability.md lists the
// others): a path parameter can neither add nor leave a segment, whatever it spells (/, %2F, ..,
// %2e%2e); CR, LF and NUL never reach the wire from a parameter, a header name or a header
// value; a server whose certificate cannot be trusted gets no request; the library never
// ignores TLS errors.
#include "restfixture.h"
#include "servertest.h"

#include <DataClient/restendpoint.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QDirIterator>
#include <QtCore/QFile>
#include <QtCore/QJsonObject>
#include <QtNetwork/QSslCertificate>
#include <QtNetwork/QSslConfiguration>
#include <QtNetwork/QSslKey>
#include <QtNetwork/QSslServer>
#include <QtNetwork/QSslSocket>
#include <QTest>

using namespace DataClient;
using namespace DataClient::Testing;
using namespace RestFixture;
using namespace Qt::StringLiterals;

using Headers = QList<QPair<QByteArray, QByteArray>>;
Q_DECLARE_METATYPE(Headers)

class tst_Security : public ServerTest
{
    Q_OBJECT

private:
    EndpointPtr endpoint(const QString &path, const EndpointOverrides &more = {}) const
    {
        return RestEndpoint::create(more.applyTo({.path = path, .urlPrefix = server.url()}));
    }

protected:
    void setUp() override
    {
        server.route("*", u"/*"_s, [](const RecordedRequest &) {
            return ServerResponse::json(QJsonObject {{u"ok"_s, true}});
        });
    }

private Q_SLOTS:
    // The value is one segment on the wire: exactly the template's segments arrive, the
    // parameter's decodes back to the value; a value that is a dot segment is refused instead.
    void pathParametersStayInTheirSegment_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("refused");
        QTest::newRow("slash") << u"a/b"_s << false;
        QTest::newRow("leading slash") << u"/admin"_s << false;
        QTest::newRow("%2F") << u"a%2Fb"_s << false;
        QTest::newRow("%2f lower case") << u"..%2f..%2fetc"_s << false;
        QTest::newRow("../..") << u"../../admin"_s << false;
        QTest::newRow("%2e%2e") << u"%2e%2e"_s << false;
        QTest::newRow("%2E%2E%2F") << u"%2E%2E%2Fadmin"_s << false;
        QTest::newRow("backslash") << u"..\\admin"_s << false;
        QTest::newRow("..") << u".."_s << true;
        QTest::newRow(".") << u"."_s << true;
    }
    void pathParametersStayInTheirSegment()
    {
        QFETCH(QString, value);
        QFETCH(bool, refused);
        const auto outcome
            = await(endpoint(u"/users/:id/posts"_s)->fetch(&network, {{u"id"_s, value}}));
        if (refused) {
            QVERIFY(outcome.error);
            QCOMPARE(outcome.error->kind(), NetworkError::Kind::InvalidRequest);
            QVERIFY2(outcome.error->message().contains(u"dot segment"_s),
                     qPrintable(outcome.error->message()));
            QCOMPARE(server.requestCount(), 0);
            return;
        }
        QVERIFY(outcome.value);
        QCOMPARE(server.requestCount(), 1);
        const QByteArray target = server.lastRequest().rawTarget;
        const QList<QByteArray> segments = target.split('/');
        QCOMPARE(segments.size(), 4); // "", "users", the value, "posts"
        QCOMPARE(segments.at(1), "users"_ba);
        QCOMPARE(segments.at(3), "posts"_ba);
        QCOMPARE(QUrl::fromPercentEncoding(segments.at(2)), value);
        QVERIFY2(!segments.at(2).contains('/') && !segments.at(2).contains('\\')
                     && segments.at(2) != "..",
                 target.constData());
    }

    // CR, LF and NUL: in a parameter (path or query, key or value) they are percent-encoded, so
    // they cannot start a header or end the request line; in a header name or value the request
    // is refused with a clear error and nothing is sent.
    void lineBreaksAndNulNeverReachTheWire_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<Params>("params");
        QTest::addColumn<Headers>("headers");
        QTest::addColumn<QByteArray>("encoded"); // in the request target; empty: refused
        const QString crlf = u"1\r\nX-Injected: yes"_s;
        const QString nul = u"1"_s + QChar(u'\0') + u"X"_s;
        QTest::newRow("CR LF in a path parameter")
            << u"/users/:id"_s << Params {{u"id"_s, crlf}} << Headers {}
            << "/users/1%0D%0AX-Injected%3A%20yes"_ba;
        QTest::newRow("lone LF in a path parameter")
            << u"/users/:id"_s << Params {{u"id"_s, u"1\nX-Injected: yes"_s}} << Headers {}
            << "/users/1%0AX-Injected%3A%20yes"_ba;
        QTest::newRow("lone CR in a path parameter")
            << u"/users/:id"_s << Params {{u"id"_s, u"1\rX"_s}} << Headers {} << "/users/1%0DX"_ba;
        QTest::newRow("NUL in a path parameter")
            << u"/users/:id"_s << Params {{u"id"_s, nul}} << Headers {} << "/users/1%00X"_ba;
        QTest::newRow("CR LF in a query value")
            << u"/users"_s << Params {{u"q"_s, crlf}} << Headers {}
            << "/users?q=1%0D%0AX-Injected%3A%20yes"_ba;
        QTest::newRow("NUL in a query value")
            << u"/users"_s << Params {{u"q"_s, nul}} << Headers {} << "/users?q=1%00X"_ba;
        QTest::newRow("CR LF in a query key")
            << u"/users"_s << Params {{u"a\r\nX-Injected: yes"_s, 1}} << Headers {}
            << "/users?a%0D%0AX-Injected%3A%20yes=1"_ba;
        for (const QByteArray &bad : {"\r"_ba, "\n"_ba, "\r\n"_ba, QByteArray("\0", 1), ":"_ba}) {
            const QByteArray shown = bad.toPercentEncoding();
            QTest::addRow("%s in a header name", shown.constData())
                << u"/users"_s << Params {} << Headers {{"X-A" + bad + "X-Injected", "1"}}
                << QByteArray();
            if (bad != ":")
                QTest::addRow("%s in a header value", shown.constData())
                    << u"/users"_s << Params {} << Headers {{"X-A", "1" + bad + "X-Injected: yes"}}
                    << QByteArray();
        }
        QTest::newRow("an empty header name")
            << u"/users"_s << Params {} << Headers {{"", "1"}} << QByteArray();
    }
    void lineBreaksAndNulNeverReachTheWire()
    {
        QFETCH(QString, path);
        QFETCH(Params, params);
        QFETCH(Headers, headers);
        QFETCH(QByteArray, encoded);
        const auto outcome = await(endpoint(path, {.headers = headers})->fetch(&network, params));
        if (encoded.isEmpty()) {
            QVERIFY(outcome.error);
            QCOMPARE(outcome.error->kind(), NetworkError::Kind::InvalidRequest);
            const QString message = outcome.error->message();
            QVERIFY2(message.contains(u"line break, NUL or ':'"_s), qPrintable(message));
            QVERIFY2(message.contains(u"nothing was sent"_s), qPrintable(message));
            QCOMPARE(server.requestCount(), 0);
            return;
        }
        QVERIFY(outcome.value);
        QCOMPARE(server.requestCount(), 1);
        const RecordedRequest received = server.lastRequest();
        QCOMPARE(received.rawTarget, encoded);
        QVERIFY(!received.hasHeader("X-Injected"));
    }

    // An HTTPS server whose certificate no one signed: the request fails with the TLS error and
    // not one byte of it reaches the server decrypted.
    void tlsErrorsAreNeverIgnored()
    {
        if (!QSslSocket::supportsSsl())
            QSKIP("this Qt has no TLS backend");
        const QString data = QString::fromUtf8(DATACLIENT_FAULTS_DATA);
        QFile certFile(data + u"/selfsigned.crt"_s);
        QFile keyFile(data + u"/selfsigned.key"_s);
        QVERIFY(certFile.open(QIODevice::ReadOnly) && keyFile.open(QIODevice::ReadOnly));
        QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
        tls.setLocalCertificate(QSslCertificate(certFile.readAll()));
        tls.setPrivateKey(QSslKey(keyFile.readAll(), QSsl::Rsa));
        QVERIFY(!tls.localCertificate().isNull() && !tls.privateKey().isNull());

        QSslServer https;
        https.setSslConfiguration(tls);
        QByteArray decrypted; // what the server read of a request, after the handshake
        connect(&https, &QTcpServer::pendingConnectionAvailable, this, [&] {
            QTcpSocket *socket = https.nextPendingConnection();
            connect(socket, &QTcpSocket::readyRead, this,
                    [&decrypted, socket] { decrypted += socket->readAll(); });
        });
        QVERIFY(https.listen(QHostAddress::LocalHost));
        const QString origin = u"https://127.0.0.1:%1"_s.arg(https.serverPort());

        // Were the error ignored, the request would reach the server, which never answers: a
        // Timeout after 3 s instead of the TLS error.
        const auto outcome = await(
            RestEndpoint::create({.path = u"/users/1"_s, .urlPrefix = origin, .timeout = 3000})
                ->fetch(&network, {}));
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::Network);
        QCOMPARE(outcome.error->status(), 0);
        const QString message = outcome.error->message();
        QVERIFY2(message.contains(origin + u"/users/1"_s), qPrintable(message));
        QVERIFY2(message.contains(u"SSL"_s, Qt::CaseInsensitive)
                     || message.contains(u"certificate"_s, Qt::CaseInsensitive),
                 qPrintable(message));
        QCoreApplication::processEvents();
        QVERIFY(decrypted.isEmpty());
    }

    // Nothing in the library may call ignoreSslErrors() (any form): a TLS error always fails the
    // request. Read from the sources, so a future call cannot slip in unnoticed.
    void theLibraryNeverCallsIgnoreSslErrors()
    {
        int files = 0;
        for (const char *root : {"/src", "/include"}) {
            QDirIterator it(QString::fromUtf8(DATACLIENT_SOURCE_DIR) + QLatin1String(root),
                            {u"*.cpp"_s, u"*.h"_s}, QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                QFile file(it.next());
                QVERIFY(file.open(QIODevice::ReadOnly));
                QVERIFY2(!file.readAll().contains("ignoreSslErrors"), qPrintable(file.fileName()));
                ++files;
            }
        }
        QVERIFY(files > 100); // the tree was found
    }
};

QTEST_GUILESS_MAIN(tst_Security)
#include "tst_security.moc"
