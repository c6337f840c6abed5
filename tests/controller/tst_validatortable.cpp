// The validators the Controller keeps per key and what a 304 means (validatortable_p.h), and
// which validators of an answer are kept (Validators::of): alone, without a network.
#include "validatortable_p.h"

#include <DataClient/response.h>

#include <QTest>

using namespace DataClient;
using namespace DataClient::detail;
using namespace Qt::StringLiterals;
using NotModified = ValidatorTable::NotModified;

namespace {

Response answer(int status, const QByteArray &etag, const QByteArray &lastModified = {})
{
    Response response;
    response.method = "GET";
    response.status = status;
    if (!etag.isNull())
        response.headers.append({"ETag", etag});
    if (!lastModified.isNull())
        response.headers.append({"Last-Modified", lastModified});
    return response;
}

const Validators v1 {"\"v1\"", "Tue, 24 Nov 2026 10:00:00 GMT"};
const Validators v2 {"\"v2\"", {}};

} // namespace

Q_DECLARE_METATYPE(DataClient::Validators)
Q_DECLARE_METATYPE(DataClient::detail::ValidatorTable::NotModified)

class tst_ValidatorTable : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void validatorsOfA2xxAnswer()
    {
        const Validators kept = Validators::of(answer(200, " W/\"a\" ", "Tue, 24 Nov 2026 GMT"));
        QCOMPARE(kept.etag, "W/\"a\""); // trimmed, weak prefix kept as sent
        QCOMPARE(kept.lastModified, "Tue, 24 Nov 2026 GMT");
        QVERIFY(Validators::of(answer(200, {})).isEmpty());
    }

    void errorsAndNotModifiedGiveNone()
    {
        QVERIFY(Validators::of(answer(500, "\"e\"", "Tue, 24 Nov 2026 GMT")).isEmpty());
        QVERIFY(Validators::of(answer(404, "\"e\"")).isEmpty());
        QVERIFY(Validators::of(answer(304, "\"v1\"")).isEmpty());
    }

    void unusableValuesAreLeftOut()
    {
        const QByteArray huge = '"' + QByteArray(Validators::MaxLength, 'x') + '"';
        QCOMPARE(Validators::of(answer(200, huge, "Tue")).etag, QByteArray());
        QCOMPARE(Validators::of(answer(200, huge, "Tue")).lastModified, "Tue");
        QVERIFY(Validators::of(answer(200, QByteArray("\"a\0b\"", 5))).isEmpty());
        QVERIFY(Validators::of(answer(200, "\"a\tb\"")).isEmpty());
    }

    void rememberReplacesAndEmptyForgets()
    {
        ValidatorTable table;
        table.remember(u"k"_s, v1);
        QCOMPARE(table.find(u"k"_s), v1);
        table.remember(u"k"_s, v2);
        QCOMPARE(table.find(u"k"_s), v2);
        table.remember(u"k"_s, {});
        QVERIFY(table.find(u"k"_s).isEmpty());
        QCOMPARE(table.size(), 0);
        table.remember(u"a"_s, v1);
        table.remember(u"b"_s, v2);
        table.forget(u"a"_s);
        QCOMPARE(table.size(), 1);
        table.clear();
        QCOMPARE(table.size(), 0);
    }

    void whatA304Means_data()
    {
        QTest::addColumn<Validators>("sent");
        QTest::addColumn<Validators>("remembered");
        QTest::addColumn<bool>("stored");
        QTest::addColumn<bool>("refetch");
        QTest::addColumn<NotModified>("outcome");
        QTest::newRow("confirms the stored result")
            << v1 << v1 << true << false << NotModified::Keep;
        QTest::newRow("nothing stored") << v1 << v1 << false << false << NotModified::Refetch;
        QTest::newRow("no validators sent")
            << Validators() << v1 << true << false << NotModified::Refetch;
        QTest::newRow("forgotten meanwhile")
            << v1 << Validators() << true << false << NotModified::Refetch;
        QTest::newRow("replaced meanwhile") << v1 << v2 << true << false << NotModified::Refetch;
        QTest::newRow("the refetch says 304 too")
            << Validators() << Validators() << false << true << NotModified::Fail;
    }
    void whatA304CarryingValidatorsMeans_data()
    {
        QTest::addColumn<Validators>("stored");
        QTest::addColumn<Validators>("answered");
        QTest::addColumn<NotModified>("outcome");
        QTest::addColumn<Validators>("after");
        const QByteArray date = "Wed, 25 Nov 2026 08:00:00 GMT";
        QTest::newRow("none") << v1 << Validators() << NotModified::Keep << v1;
        QTest::newRow("the stored ETag")
            << v1 << Validators {v1.etag, {}} << NotModified::Keep << v1;
        QTest::newRow("the stored ETag, a new date")
            << v1 << Validators {v1.etag, date} << NotModified::Keep << Validators {v1.etag, date};
        QTest::newRow("another strong ETag")
            << v1 << Validators {"\"B\"", {}} << NotModified::Refetch << Validators();
        QTest::newRow("another strong ETag, the stored date")
            << v1 << Validators {"\"B\"", v1.lastModified} << NotModified::Refetch << Validators();
        QTest::newRow("a strong ETag for a weak one")
            << Validators {"W/\"a\"", {}} << Validators {"\"a\"", {}} << NotModified::Refetch
            << Validators();
        QTest::newRow("the weak form of the stored ETag")
            << v1 << Validators {"W/\"v1\"", {}} << NotModified::Keep
            << Validators {"W/\"v1\"", v1.lastModified};
        QTest::newRow("another weak ETag")
            << v1 << Validators {"W/\"B\"", {}} << NotModified::Refetch << Validators();
        QTest::newRow("the stored date alone")
            << v1 << Validators {{}, v1.lastModified} << NotModified::Keep << v1;
        QTest::newRow("another date alone")
            << v1 << Validators {{}, date} << NotModified::Refetch << Validators();
    }
    void whatA304CarryingValidatorsMeans()
    {
        QFETCH(Validators, stored);
        QFETCH(Validators, answered);
        QFETCH(NotModified, outcome);
        QFETCH(Validators, after);
        QCOMPARE(ValidatorTable::onNotModified(stored, stored, true, false, answered), outcome);
        if (outcome == NotModified::Keep)
            QCOMPARE(ValidatorTable::afterNotModified(stored, answered), after);
    }
    void whatA304Means()
    {
        QFETCH(Validators, sent);
        QFETCH(Validators, remembered);
        QFETCH(bool, stored);
        QFETCH(bool, refetch);
        QFETCH(NotModified, outcome);
        QCOMPARE(ValidatorTable::onNotModified(sent, remembered, stored, refetch), outcome);
    }
};

QTEST_GUILESS_MAIN(tst_ValidatorTable)
#include "tst_validatortable.moc"
