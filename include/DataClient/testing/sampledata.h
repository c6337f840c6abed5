// Deterministic sample data (users and todos) for the demo app and for tests: the same seed gives
// the same JSON on every run and platform.
#pragma once

#include <DataClient/global.h>

#include <QtCore/QJsonArray>

namespace DataClient::Testing {

class FakeRestApi;

/*!
  Generated with a seeded PRNG (mulberry32), never with real randomness.

  - users: `{"id": 1.., "name": "Ada Lovelace", "username": "ada1", "email": "ada1@example.com"}`
  - todos: `{"id": 1.., "userId": 1..userCount, "title": "...", "completed": bool,
    "createdAt": "2023-01-01T08:00:00.000Z"}` — ISO 8601 UTC with milliseconds, increasing with
    the id. As in the benchmark data, the first userCount todos use each user once.
*/
class DATACLIENT_TESTING_EXPORT SampleData
{
public:
    //! \a count users (0 or more; a negative count warns and gives none).
    static QJsonArray users(int count, quint32 seed = 1);
    //! \a count todos of users 1..\a userCount (which must be at least 1 when count > 0).
    static QJsonArray todos(int count, int userCount, quint32 seed = 2);

    /*!
      Serves sample data on \a api, as the demo does:
      - `/users` (\a userCount users),
      - `/todos` (\a todoCount todos; page-number pagination `?page=N`, 20 per page; each todo
        embeds its user as `author`),
      - `/users/:userId/todos` (the same todos, filtered by user, with `author`).
      Returns false (with a warning) if the api already serves those paths or counts are bad.
    */
    static bool install(FakeRestApi *api, int userCount = 10, int todoCount = 200,
                        quint32 seed = 1);
};

} // namespace DataClient::Testing
