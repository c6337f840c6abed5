// github-pagination: follow a GitHub-style `Link: <...?since=30>; rel="next"` header page by page
// with getList + getList.getPage, through a Controller, so every page lands in one stored list.
// By default it serves /users from an embedded FakeRestApi in cursor mode; --url points it at a
// real API of the same shape (e.g. https://api.github.com).
#include "linkheaderendpoint.h"

#include <DataClient/DataClient.h>
#include <DataClient/testing/fakerestapi.h>
#include <DataClient/testing/sampledata.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QCommandLineParser>
#include <QtCore/QCoreApplication>
#include <QtCore/QTextStream>

using namespace Qt::StringLiterals;
using namespace DataClient;

//! A GitHub user (the fields this example prints).
struct User
{
    Q_GADGET
    Q_PROPERTY(int id MEMBER id)
    Q_PROPERTY(QString login MEMBER login)
    Q_PROPERTY(QString name MEMBER name)
public:
    int id = 0;
    QString login;
    QString name;
    QString pk() const { return QString::number(id); }
    static constexpr auto key = "User";
};

namespace {

QTextStream &out()
{
    static QTextStream stream(stdout);
    return stream;
}

// `{link, results: Collection([User])}`: what LinkHeaderEndpoint returns, as a schema. getPage
// (derived from getList by extend) appends each page's results to the same collection.
Resource userResource(const QString &urlPrefix)
{
    const Schema user = Schema::entity<User>();
    const Schema page = Schema::object(
        {{u"results"_s, Schema::collection(Schema::array(user))}, {u"link"_s, Schema()}});
    return createResource({
                              .path = u"/users/:id"_s,
                              .schema = user,
                              .urlPrefix = urlPrefix,
                              .paginationField = u"since"_s,
                              .endpoint = endpointFactory<LinkHeaderEndpoint>(),
                          })
        .extend({{u"getList"_s, {.schema = page}}});
}

// Seeds a GitHub-shaped /users ({id, login, name}) paged by `?since=<cursor>` + Link headers.
bool serveUsers(Testing::FakeRestApi *api, int count, int pageSize)
{
    QJsonArray users;
    for (const QJsonValue &sample : Testing::SampleData::users(count)) {
        const QJsonObject user = sample.toObject();
        users.append(QJsonObject {{u"id"_s, user.value(u"id"_s)},
                                  {u"login"_s, user.value(u"username"_s)},
                                  {u"name"_s, user.value(u"name"_s)}});
    }
    Testing::FakeRestApi::Options options;
    options.pagination = Testing::FakeRestApi::Pagination::Cursor;
    options.cursorField = u"since"_s;
    options.pageSize = pageSize;
    return api->addCollection(u"/users"_s, users, options);
}

bool readCount(const QCommandLineParser &parser, const QString &name, int min, int *value)
{
    bool ok = false;
    *value = parser.value(name).toInt(&ok);
    if (ok && *value >= min)
        return true;
    QTextStream(stderr) << "github-pagination: error: --" << name
                        << " expects a whole number >= " << min << ", got '" << parser.value(name)
                        << "'" << Qt::endl;
    return false;
}

//! Fetches the first page, then each `rel="next"` page, at most maxPages in all.
class Pager : public QObject
{
public:
    Pager(Controller *controller, Resource users, int maxPages)
        : m_controller(controller), m_users(std::move(users)), m_maxPages(maxPages)
    { }

    void start() { fetch(m_users.getList, {}); }

private:
    void fetch(const EndpointPtr &endpoint, const Params &params)
    {
        m_controller->fetch(endpoint, params)
            .then(this, [this](const QVariant &value) { onPage(value.toMap()); })
            .onFailed(this, [](const NetworkError &error) {
                QTextStream(stderr) << "github-pagination: error: " << error.message() << Qt::endl;
                QCoreApplication::exit(1);
            });
    }

    void onPage(const QVariantMap &page)
    {
        ++m_pages;
        const QString link = page.value(u"link"_s).toString();
        const QString next = nextCursor(link, u"since"_s);
        // A page resolves with its own items; the store holds the merged list.
        const qsizetype onPage = page.value(u"results"_s).toList().size();
        const qsizetype stored = m_controller->getResponse(m_users.getList, {})
                                     .data.toMap()
                                     .value(u"results"_s)
                                     .toList()
                                     .size();
        out() << "page " << m_pages << ": the list now holds " << stored << " users (" << onPage
              << " on this page)"
              << (next.isEmpty() ? u" (no next link: done)"_s : u"; next since="_s + next)
              << Qt::endl;
        if (!next.isEmpty() && m_pages < m_maxPages)
            return fetch(m_users.getList.getPage, {{u"since"_s, next}});
        finish();
    }

    void finish()
    {
        // Every page was merged into getList's result: read it back from the store.
        const ResponseState state = m_controller->getResponse(m_users.getList, {});
        const QList<User> users = fromVariantList<User>(state.data.toMap().value(u"results"_s));
        QSet<int> ids;
        for (const User &user : users)
            ids.insert(user.id);
        out() << users.size() << " users in the stored list (" << m_pages << " pages, "
              << ids.size() << " distinct)" << Qt::endl;
        for (qsizetype i = 0; i < users.size(); i += std::max<qsizetype>(1, users.size() / 5))
            out() << "  #" << users.at(i).id << ' ' << users.at(i).login << "  " << users.at(i).name
                  << Qt::endl;
        QCoreApplication::exit(ids.size() == users.size() && !users.isEmpty() ? 0 : 1);
    }

    Controller *m_controller;
    Resource m_users;
    int m_maxPages;
    int m_pages = 0;
};

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Cursor pagination through the Link header (an endpoint's parseResponse reads the response's headers)."_s);
    parser.addHelpOption();
    parser.addOptions({
        {u"url"_s,
         u"Use the API at <url> (e.g. https://api.github.com) instead of the embedded one."_s,
         u"url"_s},
        {u"users"_s, u"Users served by the embedded API (default 95)."_s, u"n"_s, u"95"_s},
        {u"page-size"_s, u"Users per page of the embedded API (default 30)."_s, u"n"_s, u"30"_s},
        {u"max-pages"_s, u"Stop after <n> pages (default 10)."_s, u"n"_s, u"10"_s},
    });
    parser.process(app);
    int userCount = 0;
    int pageSize = 0;
    int maxPages = 0;
    if (!readCount(parser, u"users"_s, 0, &userCount)
        || !readCount(parser, u"page-size"_s, 1, &pageSize)
        || !readCount(parser, u"max-pages"_s, 1, &maxPages))
        return 2;

    Testing::TestServer server;
    Testing::FakeRestApi api(&server);
    QString urlPrefix = parser.value(u"url"_s);
    if (urlPrefix.isEmpty()) {
        if (!serveUsers(&api, userCount, pageSize) || !server.listen())
            return 1;
        urlPrefix = server.url();
    }
    out() << "GET " << urlPrefix << "/users, then each Link rel=\"next\"" << Qt::endl;

    Controller controller;
    Pager pager(&controller, userResource(urlPrefix), maxPages);
    pager.start();
    return app.exec();
}

#include "main.moc"
