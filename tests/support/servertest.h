// Base of the REST tests that talk to one in-process server for the whole test case: the server
// listens once, and every test function starts with no routes and an empty request log.
#pragma once

#include <DataClient/testing/testserver.h>

#include <QtCore/QObject>
#include <QtNetwork/QNetworkAccessManager>
#include <QTest>

class ServerTest : public QObject
{
    Q_OBJECT

protected:
    //! Runs at the start of every test function, after the routes and the log were cleared.
    virtual void setUp() { }

    DataClient::Testing::TestServer server;
    QNetworkAccessManager network;

private Q_SLOTS:
    void initTestCase() { QVERIFY(server.listen()); }
    void init()
    {
        server.clearRoutes();
        server.clearRequests();
        setUp();
    }
};
