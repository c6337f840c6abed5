// Base of the FakeRestApi tests: for every test function a fresh TestServer and a FakeRestApi
// serving the seed at /todos, and call() for one HTTP exchange with it.
#pragma once

#include <DataClient/testing/fakerestapi.h>
#include <DataClient/testing/testserver.h>

#include "httpcall.h"

#include <QtCore/QJsonArray>
#include <QtCore/QObject>
#include <QtNetwork/QNetworkAccessManager>
#include <QTest>

#include <memory>

class FakeApiTest : public QObject
{
    Q_OBJECT

protected:
    explicit FakeApiTest(QJsonArray seed) : m_seed(std::move(seed)) { }

    HttpAnswer call(const QByteArray &verb, const QString &path, const QByteArray &body = {})
    {
        return httpCall(network, QUrl(server->url(path)), verb, body);
    }

    std::unique_ptr<DataClient::Testing::TestServer> server;
    std::unique_ptr<DataClient::Testing::FakeRestApi> api;
    QNetworkAccessManager network;

private Q_SLOTS:
    void init()
    {
        server = std::make_unique<DataClient::Testing::TestServer>();
        QVERIFY(server->listen());
        api = std::make_unique<DataClient::Testing::FakeRestApi>(server.get());
        QVERIFY(api->addCollection(QStringLiteral("/todos"), m_seed));
    }
    void cleanup()
    {
        api.reset();
        server.reset();
    }

private:
    QJsonArray m_seed;
};
