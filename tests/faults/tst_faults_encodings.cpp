// Answers whose size or content the head does not tell: chunked and close-delimited bodies,
// gzip and deflate bodies, bodies that cannot be decoded. maxResponseBytes counts the decoded
// body as it is read, whatever the framing or encoding, and aborts the reply there; a body Qt
// cannot decode is an error, never an empty answer. Either way a list shown before stays shown.
#include "controllerfixture.h"
#include "rawhttpserver.h"

#include <DataClient/restendpoint.h>

#include <QtNetwork/QNetworkAccessManager>
#include <QTest>

using namespace ControllerFixture;
using RawHttp::Answer;
using RawHttp::Framing;

Q_DECLARE_METATYPE(RawHttp::Answer)
Q_DECLARE_METATYPE(DataClient::NetworkError::Kind)

namespace {

constexpr qint64 Limit = 1024 * 1024;

//! A JSON list of todos of about \a bytes bytes (every row different: it compresses as real
//! data does, a few times, not a thousand).
QByteArray todoRows(qint64 bytes)
{
    QByteArray out = "[";
    for (int id = 1; out.size() < bytes; ++id) {
        out += R"({"id":)" + QByteArray::number(id) + R"(,"userId":)" + QByteArray::number(id % 7)
            + R"(,"title":"todo number )" + QByteArray::number(id * 7919) + R"(","completed":)"
            + (id % 3 ? "false" : "true") + "},";
    }
    out.chop(1);
    return out + "]";
}

Answer answer(const QByteArray &body, Framing framing = Framing::Length,
              const QByteArray &encoding = {})
{
    Answer a;
    a.framing = framing;
    a.piece = encoding == "gzip" ? RawHttp::gzip(body)
        : encoding == "deflate"  ? RawHttp::deflate(body)
                                 : body;
    if (!encoding.isEmpty())
        a.withHeader("Content-Encoding", encoding);
    return a;
}

const QByteArray threeTodos
    = QJsonDocument(QJsonArray {todo(1, 1, u"one"_s), todo(2, 1, u"two"_s), todo(3, 1, u"three"_s)})
          .toJson(QJsonDocument::Compact);

//! A gzip head followed by bytes that are no deflate stream (block type 3 does not exist).
const QByteArray notGzip
    = QByteArray("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10) + QByteArray(4000, '\xff');

} // namespace

class tst_FaultsEncodings : public QObject
{
    Q_OBJECT

private:
    RawHttp::Server raw;
    QNetworkAccessManager network;

    EndpointPtr endpoint(qint64 limit = Limit) const
    {
        return RestEndpoint::create(
            {.path = u"/todos"_s, .urlPrefix = raw.url(), .maxResponseBytes = limit});
    }
    QFuture<QVariant> fetch(qint64 limit = Limit)
    {
        return endpoint(limit)->fetch(&network, {}).then([](const QJsonValue &value) {
            return value.toVariant();
        });
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(raw.listen()); }

    // The limit counts the decoded body however it is framed and encoded, and only the limit
    // and one byte more are ever read of it.
    void answersOverTheLimitAreRefused_data()
    {
        QTest::addColumn<Answer>("over");
        const QByteArray big = todoRows(3 * 1000 * 1000);
        QTest::newRow("chunked") << answer(big, Framing::Chunked);
        QTest::newRow("closed at its end") << answer(big, Framing::Close);
        // Its Content-Length (the compressed size) is far under the limit.
        QTest::newRow("gzip, a Content-Length under the limit")
            << answer(big, Framing::Length, "gzip");
        QTest::newRow("gzip, chunked") << answer(big, Framing::Chunked, "gzip");
        QTest::newRow("deflate, Content-Length") << answer(big, Framing::Length, "deflate");
        QTest::newRow("deflate, closed at its end") << answer(big, Framing::Close, "deflate");
    }
    void answersOverTheLimitAreRefused()
    {
        QFETCH(Answer, over);
        QVERIFY(over.piece.size() < 3 * Limit); // the framing, not the wire size, hides it
        raw.setAnswers({over});
        const Outcome outcome = await(fetch());
        QVERIFY(outcome.finished);
        QVERIFY2(!outcome.value, "an answer over maxResponseBytes was handed on");
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::TooLarge);
        QCOMPARE(outcome.error->status(), 200);
        const QString message = outcome.error->message();
        QVERIFY2(message.contains(u"GET "_s + raw.url(u"/todos"_s)), qPrintable(message));
        QVERIFY2(message.contains(u"maxResponseBytes (1048576 bytes)"_s), qPrintable(message));
        QVERIFY2(message.contains(u"1048577 bytes of the body"_s), qPrintable(message));

        // The same framing and encoding under the limit is read whole.
        Answer under = answer(threeTodos, over.framing,
                              over.headers.size() > 1 ? over.headers.last().second : QByteArray());
        raw.setAnswers({under});
        const Outcome small = await(fetch());
        QVERIFY2(small.value, small.error ? qPrintable(small.error->message()) : "no answer");
        QCOMPARE(small.value->toList().size(), 3);
    }

    // Where the limit meets other features: an error status, a redirect followed first.
    void theLimitHoldsForErrorsAndAfterRedirects_data()
    {
        QTest::addColumn<QList<Answer>>("answers");
        QTest::addColumn<int>("status");
        const QByteArray big = todoRows(3 * 1000 * 1000);
        Answer error = answer(big, Framing::Length, "gzip");
        error.status = "500 Internal Server Error";
        QTest::newRow("a 500, gzip") << QList<Answer> {error} << 500;
        Answer redirect = answer({});
        redirect.status = "307 Temporary Redirect";
        redirect.withHeader("Location", "/todos/moved");
        QTest::newRow("after a redirect, chunked")
            << QList<Answer> {redirect, answer(big, Framing::Chunked)} << 200;
    }
    void theLimitHoldsForErrorsAndAfterRedirects()
    {
        QFETCH(QList<Answer>, answers);
        QFETCH(int, status);
        raw.setAnswers(answers);
        const int before = raw.requests();
        const Outcome outcome = await(fetch());
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::TooLarge);
        QCOMPARE(outcome.error->status(), status);
        QCOMPARE(raw.requests() - before, answers.size());
    }

    // Memory does not grow with the body: the reply is aborted at the limit, while the server is
    // still writing (64 MiB sent at full speed; what a loopback connection buffers is far less).
    void anAnswerOverTheLimitIsAbortedBeforeItsEnd()
    {
        Answer stream = answer(QByteArray(64 * 1024, 'x'), Framing::Chunked);
        stream.repeat = 1024;
        raw.setAnswers({stream});
        const Outcome outcome = await(fetch());
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::TooLarge);
        QTRY_VERIFY2(raw.closedEarly(),
                     qPrintable(u"%1 bytes written"_s.arg(raw.bodyBytesWritten())));
        QVERIFY2(raw.bodyBytesWritten() < 16 * Limit,
                 qPrintable(u"%1 bytes written"_s.arg(raw.bodyBytesWritten())));
    }

    // A body Qt cannot decode is no answer: an error, never the empty or partial body that was
    // left. An error status stays what the server answered.
    void undecodableBodiesFail_data()
    {
        QTest::addColumn<Answer>("bad");
        QTest::addColumn<NetworkError::Kind>("kind");
        QTest::addColumn<int>("status");
        Answer gzipHead = answer(notGzip);
        gzipHead.withHeader("Content-Encoding", "gzip");
        QTest::newRow("gzip that is not gzip")
            << gzipHead << NetworkError::Kind::InvalidResponse << 400;
        Answer deflateHead = answer(notGzip.mid(10));
        deflateHead.withHeader("Content-Encoding", "deflate");
        QTest::newRow("deflate that is not deflate")
            << deflateHead << NetworkError::Kind::InvalidResponse << 400;
        // 64 MB of zeros in 64 KB: Qt refuses to inflate it (a decompression bomb).
        QTest::newRow("a gzip bomb")
            << answer(QByteArray(64 * 1000 * 1000, '\0'), Framing::Length, "gzip")
            << NetworkError::Kind::InvalidResponse << 400;
        Answer notFound = gzipHead;
        notFound.status = "404 Not Found";
        QTest::newRow("a 404 whose body is not gzip")
            << notFound << NetworkError::Kind::Http << 404;
    }
    void undecodableBodiesFail()
    {
        QFETCH(Answer, bad);
        QFETCH(NetworkError::Kind, kind);
        QFETCH(int, status);
        // A reused connection first (where Qt leaves the body empty), without a size limit: the
        // decoding alone fails it.
        raw.setAnswers({answer(threeTodos), bad});
        QVERIFY(await(fetch(0)).value);
        const Outcome outcome = await(fetch(0));
        QVERIFY(outcome.finished);
        QVERIFY2(!outcome.value, "a body that could not be decoded was handed on as an answer");
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), kind);
        QCOMPARE(outcome.error->status(), status);
        const QString message = outcome.error->message();
        QVERIFY2(message.contains(u"GET "_s + raw.url(u"/todos"_s)), qPrintable(message));
        if (kind == NetworkError::Kind::InvalidResponse)
            QVERIFY2(message.contains(u"could not be read"_s), qPrintable(message));
    }

    // What the user sees: the list shown before stays, with the error next to it.
    void aShownListStaysWhenItsRefetchFails_data()
    {
        QTest::addColumn<Answer>("bad");
        QTest::addColumn<NetworkError::Kind>("kind");
        const QByteArray big = todoRows(3 * 1000 * 1000);
        QTest::newRow("chunked, over the limit")
            << answer(big, Framing::Chunked) << NetworkError::Kind::TooLarge;
        QTest::newRow("gzip, over the limit")
            << answer(big, Framing::Length, "gzip") << NetworkError::Kind::TooLarge;
        Answer gzipHead = answer(notGzip);
        gzipHead.withHeader("Content-Encoding", "gzip");
        QTest::newRow("gzip that is not gzip") << gzipHead << NetworkError::Kind::InvalidResponse;
    }
    void aShownListStaysWhenItsRefetchFails()
    {
        QFETCH(Answer, bad);
        QFETCH(NetworkError::Kind, kind);
        raw.setAnswers({answer(threeTodos), bad});
        Controller controller;
        const Resource todos = createResource({.path = u"/todos/:id"_s,
                                               .schema = todoSchema(),
                                               .urlPrefix = raw.url(),
                                               .maxResponseBytes = Limit,
                                               .retry = RetryPolicy::none()});
        QVERIFY(await(controller.fetch(todos.getList, {})).value);
        QCOMPARE(ids(controller.getResponse(todos.getList, {}).data), (QList<int> {1, 2, 3}));

        const Outcome outcome = await(controller.fetch(todos.getList, {}));
        QVERIFY2(!outcome.value, "a failed answer was stored as the list");
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), kind);
        const ResponseState state = controller.getResponse(todos.getList, {});
        QVERIFY(state.found);
        QCOMPARE(ids(state.data), (QList<int> {1, 2, 3}));
        QVERIFY(state.error);
        QCOMPARE(state.error->kind(), kind);
        for (int id = 1; id <= 3; ++id)
            QVERIFY(controller.get(todoSchema(), {{u"id"_s, id}}).found);
        QVERIFY(!controller.get(todoSchema(), {{u"id"_s, 4}}).found);
    }
};

QTEST_GUILESS_MAIN(tst_FaultsEncodings)
#include "tst_faults_encodings.moc"
