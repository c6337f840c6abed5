// The QNetworkReply MockNetwork hands out: a whole answer delivered through the event loop.
#pragma once

#include <DataClient/testing/fixture.h>

#include <QtCore/QTimer>
#include <QtNetwork/QNetworkReply>

namespace DataClient::Testing::detail {

/*!
    Delivers \a answer as the network would: later, never inside the call that made the
    request (queued, or after delayMs on a QTimer), in the network's order of signals:
    metaDataChanged, downloadProgress, readyRead, [errorOccurred], finished. abort() finishes
    it at once with OperationCanceledError, as QNetworkReply does.
*/
class MockNetworkReply : public QNetworkReply
{
    Q_OBJECT

public:
    MockNetworkReply(QNetworkAccessManager::Operation operation, const QNetworkRequest &request,
                     const QByteArray &method, const MockReply &answer, QObject *parent);

    void abort() override;
    qint64 bytesAvailable() const override;
    bool isSequential() const override { return true; }

protected:
    qint64 readData(char *data, qint64 maxSize) override;
    qint64 writeData(const char *, qint64) override { return -1; }

private:
    void deliver();

    MockReply m_answer;
    QByteArray m_body;
    qint64 m_read = 0;
    QTimer m_delay;
};

} // namespace DataClient::Testing::detail
