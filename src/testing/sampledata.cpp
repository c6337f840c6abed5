// SampleData: users and todos from a seeded mulberry32, so the demo shows the same data every run.
#include <DataClient/testing/sampledata.h>

#include <DataClient/testing/fakerestapi.h>

#include "logging_p.h"
#include "mulberry32_p.h"

#include <QtCore/QDateTime>
#include <QtCore/QJsonObject>
#include <QtCore/QTimeZone>

#include <array>

using namespace Qt::StringLiterals;

namespace DataClient::Testing {

namespace {

constexpr std::array firstNames {"Ada",      "Alan",    "Barbara", "Claude", "Dennis", "Edsger",
                                 "Frances",  "Grace",   "Hedy",    "John",   "Ken",    "Linus",
                                 "Margaret", "Niklaus", "Radia",   "Tim"};
constexpr std::array lastNames {
    "Lovelace", "Turing", "Liskov",   "Shannon",  "Ritchie",  "Dijkstra", "Allen",   "Hopper",
    "Lamarr",   "Backus", "Thompson", "Torvalds", "Hamilton", "Wirth",    "Perlman", "Berners-Lee"};
constexpr std::array verbs {"Write",    "Review",   "Fix",  "Plan", "Test",  "Deploy",
                            "Refactor", "Document", "Call", "Buy",  "Clean", "Book"};
constexpr std::array things {
    "the release notes",     "the login page",   "groceries",   "the quarterly report",
    "a dentist appointment", "the build script", "unit tests",  "the garden",
    "train tickets",         "the API docs",     "the kitchen", "a birthday present"};

template<std::size_t N>
QString pick(const std::array<const char *, N> &words, detail::Mulberry32 &random)
{
    return QString::fromLatin1(words.at(std::size_t(random.nextBelow(int(N)))));
}

} // namespace

QJsonArray SampleData::users(int count, quint32 seed)
{
    if (count < 0) {
        qCWarning(lcTesting) << "SampleData::users: expected a count >= 0, got" << count;
        return {};
    }
    detail::Mulberry32 random(seed);
    QJsonArray users;
    for (int id = 1; id <= count; ++id) {
        const QString first = pick(firstNames, random);
        const QString last = pick(lastNames, random);
        const QString username = first.toLower() + QString::number(id);
        users.append(QJsonObject {{u"id"_s, id},
                                  {u"name"_s, first + u' ' + last},
                                  {u"username"_s, username},
                                  {u"email"_s, username + u"@example.com"_s}});
    }
    return users;
}

QJsonArray SampleData::todos(int count, int userCount, quint32 seed)
{
    if (count < 0 || (count > 0 && userCount < 1)) {
        qCWarning(lcTesting) << "SampleData::todos: expected count >= 0 and userCount >= 1, got"
                             << count << userCount;
        return {};
    }
    detail::Mulberry32 random(seed);
    // Qt::UTC (not 6.4's QTimeZone::utc()) so that ISODateWithMs ends in "Z", not "+00:00";
    // Qt 6.5 deprecates the Qt::TimeSpec constructor for QTimeZone::UTC, which means the same.
#if QT_VERSION >= QT_VERSION_CHECK(6, 5, 0)
    QDateTime createdAt(QDate(2023, 1, 1), QTime(8, 0), QTimeZone::UTC);
#else
    QDateTime createdAt(QDate(2023, 1, 1), QTime(8, 0), Qt::UTC);
#endif
    QJsonArray todos;
    for (int id = 1; id <= count; ++id) {
        // Every user appears once first (like bench-data), later ones are drawn uniformly.
        const int userId = id <= userCount ? id : 1 + random.nextBelow(userCount);
        const QString title = pick(verbs, random) + u' ' + pick(things, random);
        const bool completed = random.nextDouble() < 0.35;
        createdAt = createdAt.addMSecs(60'000 + qint64(random.nextBelow(48 * 3600 * 1000)));
        todos.append(QJsonObject {{u"id"_s, id},
                                  {u"userId"_s, userId},
                                  {u"title"_s, title},
                                  {u"completed"_s, completed},
                                  {u"createdAt"_s, createdAt.toString(Qt::ISODateWithMs)}});
    }
    return todos;
}

bool SampleData::install(FakeRestApi *api, int userCount, int todoCount, quint32 seed)
{
    if (!api || userCount < 1 || todoCount < 0 || api->hasCollection(u"/users"_s)
        || api->hasCollection(u"/todos"_s)) {
        qCWarning(lcTesting) << "SampleData::install: expected an api without /users and /todos,"
                                " userCount >= 1 and todoCount >= 0; got"
                             << api << userCount << todoCount;
        return false;
    }
    FakeRestApi::Options todoOptions;
    todoOptions.expand = {{u"author"_s, u"/users"_s, u"userId"_s}};
    FakeRestApi::Options pagedTodoOptions = todoOptions;
    pagedTodoOptions.pagination = FakeRestApi::Pagination::PageNumber;
    pagedTodoOptions.pageSize = 20;
    return api->addCollection(u"/users"_s, users(userCount, seed))
        && api->addCollection(u"/todos"_s, todos(todoCount, userCount, seed + 1), pagedTodoOptions)
        && api->mount(u"/users/:userId/todos"_s, u"/todos"_s, todoOptions);
}

} // namespace DataClient::Testing
