// A Qt app against a real Django REST Framework server (tests/servers/django: ModelViewSet and
// DefaultRouter, django-filter, page-number pagination, session authentication with CSRF), with
// the options docs/servers/django.md names: keyCase snake_case, pagination presets, Csrf::django().
// What the server received is read back from the server itself (a filter it applied, rows it
// stored); what the user sees from the Controller and the list model.
#include "djangoserver.h"
#include "modelids.h"
#include "readback.h"

#include <DataClient/collectionmodel.h>
#include <DataClient/controller.h>
#include <DataClient/createresource.h>
#include <DataClient/networkerror.h>
#include <DataClient/record.h>
#include <DataClient/responsestate.h>

#include <QtCore/QElapsedTimer>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkCookieJar>
#include <QtNetwork/QNetworkReply>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace DataClient;
using namespace Qt::StringLiterals;

using namespace ReadBack;

class tst_DjangoServer : public QObject
{
    Q_OBJECT

private:
    DjangoServer django;
    QElapsedTimer caseClock;
    // The app's manager: its cookie jar holds the session and CSRF cookies.
    std::unique_ptr<QNetworkAccessManager> network;
    std::unique_ptr<Controller> controller;

    static Schema todo() { return Schema::entity(EntitySchema(u"Todo"_s)); }

    //! The todos resource as docs/servers/django.md writes it.
    Resource todos(const QString &route = u"/api/todos/:id/"_s,
                   Pagination pagination = Pagination::PageNumber) const
    {
        return createResource({.path = route,
                               .schema = todo(),
                               .urlPrefix = django.url(),
                               .searchParams = {u"userId"_s, u"completed"_s},
                               .keyCase = KeyCase::SnakeCase,
                               .csrf = Csrf::django(),
                               .pagination = pagination});
    }

    //! What the server holds now, read with a manager of its own (the server's truth).
    QJsonObject serverGet(const QString &pathAndQuery)
    {
        QNetworkAccessManager reader;
        std::unique_ptr<QNetworkReply> reply(
            reader.get(QNetworkRequest(QUrl(django.url() + pathAndQuery))));
        QSignalSpy done(reply.get(), &QNetworkReply::finished);
        if (!reply->isFinished() && !done.wait(10000))
            return {};
        return QJsonDocument::fromJson(reply->readAll()).object();
    }

    //! Loads \a model's pages while it says there are more (at most five).
    static void loadEveryPage(CollectionModel &model, const Resource &resource)
    {
        model.setPageEndpoint(resource.getList.getPage);
        QTRY_COMPARE(model.status(), CollectionModel::Ready);
        for (int page = 0; page < 5 && model.hasMore(); ++page) {
            model.loadMore();
            QTRY_VERIFY(!model.isLoadingMore());
        }
    }

    //! Reads the CSRF cookie and logs in as alice, as a browser app's login page does.
    void logIn()
    {
        const EndpointPtr csrf
            = RestEndpoint::create({.path = u"/api/csrf/"_s, .urlPrefix = django.url()});
        QFuture<QJsonValue> cookie = csrf->fetch(network.get(), {});
        QTRY_VERIFY(cookie.isFinished());
        const EndpointPtr login = RestEndpoint::create({.method = "POST",
                                                        .path = u"/api/login/"_s,
                                                        .urlPrefix = django.url(),
                                                        .csrf = Csrf::django()});
        QFuture<QJsonValue> in = login->fetch(
            network.get(), {},
            QJsonObject {{u"username"_s, u"alice"_s}, {u"password"_s, u"wonderland"_s}});
        QTRY_VERIFY(in.isFinished());
        QCOMPARE(in.result()[u"username"_s].toString(), u"alice"_s);
    }

private Q_SLOTS:
    void initTestCase()
    {
        caseClock.start();
        QString why;
        if (!django.start(&why)) {
            // Opt-out for a machine without Django: said, never silent.
            if (!qEnvironmentVariableIsEmpty("DATACLIENT_SKIP_DJANGO_TESTS"))
                QSKIP(qPrintable(u"DATACLIENT_SKIP_DJANGO_TESTS is set and the Django server "
                                 "does not start: "_s
                                 + why));
            QFAIL(qPrintable(why
                             + u"\nInstall python3-django, python3-djangorestframework and "
                               "python3-django-filters (./dev does), or set "
                               "DATACLIENT_DJANGO_PYTHON to a Python that has them."_s));
        }
        qInfo("Django REST Framework server ready in %lld ms at %s", django.startMs(),
              qPrintable(django.url()));
    }
    void init()
    {
        network = std::make_unique<QNetworkAccessManager>();
        controller = std::make_unique<Controller>(network.get());
    }
    void cleanup()
    {
        controller.reset();
        network.reset();
    }
    void cleanupTestCase() { qInfo("Django test case: %lld ms", caseClock.elapsed()); }

    // keyCase: the app's `userId` filter reaches django-filter as `user_id` (an unknown filter
    // is silently ignored: every row would come back), and the rows read as `userId`.
    void aFilterInTheAppsCaseReachesDjangoInItsCase()
    {
        const Resource resource = todos();
        QFuture<QVariant> read = controller->fetch(resource.getList, {{u"userId"_s, 2}});
        QTRY_VERIFY(read.isFinished());
        const QVariantMap page = toMap(read.result());
        QCOMPARE(page.value(u"count"_s).toInt(), 4);
        QVERIFY(page.value(u"hasMore"_s).toBool());
        CollectionModel model(controller.get(), resource.getList, {{u"userId"_s, 2}});
        QTRY_COMPARE(model.status(), CollectionModel::Ready);
        QCOMPARE(modelIds(model), (QList<int> {1, 3, 5}));
        for (int row = 0; row < model.rowCount(); ++row) {
            const QVariantMap item = toMap(model.get(row));
            QCOMPARE(item.value(u"userId"_s).toInt(), 2);
            QVERIFY(item.contains(u"createdAt"_s));
            QVERIFY(!item.contains(u"user_id"_s));
        }
    }

    // Page numbers: hasMore is what Django says (next: null), not a guess from the page size.
    // Six open todos are two full pages: the guess would ask for a third page.
    void pagesLoadToTheEndAsDjangoSays()
    {
        const Resource resource = todos();
        CollectionModel model(controller.get(), resource.getList, {{u"completed"_s, false}});
        model.setPageEndpoint(resource.getList.getPage);
        QTRY_COMPARE(model.status(), CollectionModel::Ready);
        QVERIFY(model.hasMore());
        model.loadMore();
        QTRY_VERIFY(!model.isLoadingMore());
        QCOMPARE(modelIds(model), (QList<int> {1, 2, 4, 5, 7, 8}));
        QVERIFY2(!model.hasMore(), "Django answered next: null; the list is complete");
        QVERIFY(!model.pageNetworkError());
    }

    // Limit/offset: the next offset is read from Django's next URL.
    void limitOffsetPagesFollowTheNextOffset()
    {
        const Resource resource = todos(u"/api/limited-todos/:id/"_s, Pagination::LimitOffset);
        CollectionModel model(controller.get(), resource.getList, {});
        loadEveryPage(model, resource);
        QCOMPARE(modelIds(model), (QList<int> {1, 2, 3, 4, 5, 6, 7, 8}));
        QVERIFY(!model.hasMore());
    }

    // Cursor pagination: each next URL's cursor is followed to the end.
    void cursorPagesFollowTheNextUrl()
    {
        const Resource resource = todos(u"/api/cursor-todos/:id/"_s, Pagination::Cursor);
        CollectionModel model(controller.get(), resource.getList, {});
        loadEveryPage(model, resource);
        QCOMPARE(modelIds(model), (QList<int> {1, 2, 3, 4, 5, 6, 7, 8}));
        QVERIFY(!model.hasMore());
        QVERIFY(!model.pageNetworkError());
    }

    // Without the CSRF cookie, Django refuses an unsafe request; the error says which cookie
    // was missing.
    void aMissingCsrfCookieIsNamedInTheRefusal()
    {
        const EndpointPtr login = RestEndpoint::create({.method = "POST",
                                                        .path = u"/api/login/"_s,
                                                        .urlPrefix = django.url(),
                                                        .csrf = Csrf::django()});
        QFuture<QJsonValue> in
            = login->fetch(network.get(), {}, QJsonObject {{u"username"_s, u"alice"_s}});
        QTRY_VERIFY(in.isFinished());
        try {
            in.waitForFinished();
            QFAIL("Django accepted a POST without a CSRF token");
        } catch (const NetworkError &error) {
            QCOMPARE(error.status(), 403);
            QVERIFY2(error.message().contains(u"csrftoken"_s), qPrintable(error.message()));
            QVERIFY2(error.message().contains(u"X-CSRFToken"_s), qPrintable(error.message()));
        }
    }

    // Session login with CSRF (the token Django rotates at login is read at send time), then
    // create, replace, patch and delete, each checked on the server.
    void sessionLoginThenCreateUpdatePatchDelete()
    {
        logIn();
        const Resource resource = todos();
        QFuture<QVariant> created = controller->fetch(
            resource.getList.push, {},
            QJsonObject {{u"userId"_s, 3}, {u"title"_s, u"from Qt"_s}, {u"completed"_s, false}});
        QTRY_VERIFY(created.isFinished());
        QCOMPARE(failureOf(created).message(), QString());
        const QVariantMap row = toMap(created.result());
        const int id = row.value(u"id"_s).toInt();
        QVERIFY(id > 8);
        QCOMPARE(row.value(u"userId"_s).toInt(), 3);
        QCOMPARE(serverGet(u"/api/todos/%1/"_s.arg(id)).value(u"user_id"_s).toInt(), 3);

        QFuture<QVariant> replaced = controller->fetch(
            resource.update, {{u"id"_s, id}},
            QJsonObject {{u"userId"_s, 4}, {u"title"_s, u"replaced"_s}, {u"completed"_s, true}});
        QTRY_VERIFY(replaced.isFinished());
        QCOMPARE(failureOf(replaced).message(), QString());
        QCOMPARE(serverGet(u"/api/todos/%1/"_s.arg(id)).value(u"user_id"_s).toInt(), 4);

        QFuture<QVariant> patched = controller->fetch(resource.partialUpdate, {{u"id"_s, id}},
                                                      QJsonObject {{u"title"_s, u"patched"_s}});
        QTRY_VERIFY(patched.isFinished());
        QCOMPARE(failureOf(patched).message(), QString());
        const QJsonObject stored = serverGet(u"/api/todos/%1/"_s.arg(id));
        QCOMPARE(stored.value(u"title"_s).toString(), u"patched"_s);
        QCOMPARE(stored.value(u"user_id"_s).toInt(), 4);

        QFuture<QVariant> removed = controller->fetch(resource.remove, {{u"id"_s, id}});
        QTRY_VERIFY(removed.isFinished());
        QCOMPARE(failureOf(removed).message(), QString());
        // Gone: Django answers 404 with a detail (its words differ between DRF versions:
        // "Not found." in 3.14, "No Todo matches the given query." later) and no record.
        const QJsonObject gone = serverGet(u"/api/todos/%1/"_s.arg(id));
        QVERIFY(!gone.contains(u"id"_s));
        QVERIFY(!gone.value(u"detail"_s).toString().isEmpty());
    }

    // A 400 with field messages: NetworkError::json() holds them, as Django wrote them.
    void aValidationErrorShowsItsFieldMessages()
    {
        logIn();
        const Resource resource = todos();
        QFuture<QVariant> created = controller->fetch(
            resource.getList.push, {}, QJsonObject {{u"userId"_s, 1}, {u"title"_s, QString()}});
        QTRY_VERIFY(created.isFinished());
        const NetworkError error = failureOf(created);
        QCOMPARE(error.status(), 400);
        QCOMPARE(error.json()[u"title"_s][0].toString(), u"This field may not be blank."_s);
    }

    // An optimistic change the server refuses is rolled back to what the server holds.
    void anOptimisticChangeDjangoRefusesIsRolledBack()
    {
        logIn();
        Resource resource = createResource({.path = u"/api/todos/:id/"_s,
                                            .schema = todo(),
                                            .urlPrefix = django.url(),
                                            .optimistic = true,
                                            .keyCase = KeyCase::SnakeCase,
                                            .csrf = Csrf::django(),
                                            .pagination = Pagination::PageNumber});
        QFuture<QVariant> read = controller->fetch(resource.get, {{u"id"_s, 2}});
        QTRY_VERIFY(read.isFinished());
        QCOMPARE(toMap(read.result()).value(u"title"_s).toString(), u"todo 2"_s);
        QFuture<QVariant> patched = controller->fetch(resource.partialUpdate, {{u"id"_s, 2}},
                                                      QJsonObject {{u"title"_s, QString()}});
        // Shown at once, before Django answers.
        QCOMPARE(toMap(controller->getResponse(resource.get, {{u"id"_s, 2}}).data)
                     .value(u"title"_s)
                     .toString(),
                 QString());
        QTRY_VERIFY(patched.isFinished());
        QCOMPARE(failureOf(patched).status(), 400);
        QCOMPARE(toMap(controller->getResponse(resource.get, {{u"id"_s, 2}}).data)
                     .value(u"title"_s)
                     .toString(),
                 u"todo 2"_s);
        QCOMPARE(serverGet(u"/api/todos/2/"_s).value(u"title"_s).toString(), u"todo 2"_s);
    }
};

QTEST_MAIN(tst_DjangoServer)
#include "tst_djangoserver.moc"
