// An in-memory REST backend served by a TestServer: named collections of JSON objects with the
// request shapes a resource's endpoints send (list with search params and pages, get, create,
// replace, merge, delete), nested routes, embedded related entities, and fault injection (latency, failures).
// Used by the Controller and QML test suites and by the demo app's embedded server.
#pragma once

#include <DataClient/global.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QJsonValue>
#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include <memory>

namespace DataClient::Testing {

//! Embeds one entity of another collection into every FakeRestApi response item.
struct FakeRestExpansion
{
    QString field; //!< the key added to responses, e.g. "author"
    QString collectionPath; //!< where the embedded entity lives, e.g. "/users"
    QString foreignKey; //!< the item's field holding its id, e.g. "userId"
};

enum class FakeRestPagination {
    None, //!< the list is always complete
    PageNumber, //!< `?<pageField>=N` (1-based) returns page N; without it the full list
    Cursor, //!< every list is a page; `Link: <...?<cursorField>=N>; rel="next"` when more
};

enum class FakeRestDeleteResponse {
    NoContent, //!< 204 with an empty body
    IdObject, //!< 200 with `{"<idField>": <id>}`
};

//! How a mounted route of FakeRestApi answers. idField applies to the collection (from
//! addCollection; mount() uses the collection's).
struct FakeRestOptions
{
    QString idField = QStringLiteral("id");
    FakeRestPagination pagination = FakeRestPagination::None;
    QString pageField = QStringLiteral("page");
    QString cursorField = QStringLiteral("cursor");
    int pageSize = 20;
    FakeRestDeleteResponse deleteResponse = FakeRestDeleteResponse::NoContent;
    QList<FakeRestExpansion> expand;
    QStringList ignoredQueryKeys; //!< never used as filters
    //! POST keeps an id the body carries (like json-server and many real APIs); 409 when an item
    //! already has it. false (default): POST always assigns the next integer id.
    bool keepClientIds = false;
};

/*!
  Serves collections of JSON objects over a TestServer. For a collection added at `/todos`:

  | Request              | Answer                                                          |
  |----------------------|-----------------------------------------------------------------|
  | GET /todos           | 200, JSON array; query keys naming a field filter (see below)   |
  | GET /todos/:id       | 200, the object; 404 if no such id                               |
  | POST /todos          | 201, the created object with the next integer id                 |
  | PUT /todos/:id       | 200, the body replaces the object (its id is kept)               |
  | PATCH /todos/:id     | 200, the body is merged into the object (top-level keys)         |
  | DELETE /todos/:id    | 204 (or 200 `{"id": ...}`, see Options::deleteResponse)          |

  Every error is JSON: `{"error": "<what, where, what was expected>", "status": <code>}`
  (404 unknown id, 400 a body that is not a JSON object or an id that contradicts the URL,
  400 a bad page/cursor value, 405 a method the route does not serve).

  Filtering: a query key filters the list when some item of the collection has a field of that
  name; an item matches when the field's string form equals the value (numbers without a
  fraction print as integers, booleans as true/false). Repeated keys match any of their values.
  Other keys (`orderBy`, ...) are ignored, as are the pagination keys and Options::ignoredQueryKeys.

  Ids: compared by string form, so `/todos/5` finds `{"id": 5}` and `{"id": "5"}`. POST assigns
  one more than the largest integer id ever seen in the collection (ids are never reused) and
  overwrites any id in the body; with Options::keepClientIds an id the body carries is stored as
  sent (as json-server does), so tests can prove that a client never sends made-up ids.

  Nested routes: a collection path, or a mount() pattern, may contain `:name` segments, e.g.
  `/users/:userId/todos`. Each such segment filters items by the field of the same name, and
  POST stores it in the created object (as a number when it is an integer; PUT when the body
  leaves it out).

  Ownership and threads: the api does not own the server; it adds routes to it, so the server
  must outlive requests to it, and a route whose api was destroyed answers 503. Routes added to
  the server afterwards override the api's (TestServer: later routes win), so a test can replace
  one answer. Use both from the thread they live on (the GUI thread in the demo).
*/
class DATACLIENT_TESTING_EXPORT FakeRestApi : public QObject
{
    Q_OBJECT
public:
    // Spelled FakeRestApi::Options etc. in code using the api.
    using Expansion = FakeRestExpansion;
    using Pagination = FakeRestPagination;
    using DeleteResponse = FakeRestDeleteResponse;
    using Options = FakeRestOptions;

    //! Adds routes to \a server (not owned; see the class comment).
    explicit FakeRestApi(TestServer *server, QObject *parent = nullptr);
    ~FakeRestApi() override;

    TestServer *server() const;

    /*!
      Creates the collection \a path seeded with \a seed (JSON objects, each with a unique
      options.idField) and serves it at \a path. Returns false, with a warning saying what is
      wrong, and changes nothing if the path is taken or malformed or the seed is invalid.
    */
    bool addCollection(const QString &path, const QJsonArray &seed = {},
                       const Options &options = {});
    /*!
      Serves the existing collection \a collectionPath also at \a pathPattern (typically nested,
      e.g. `/users/:userId/todos` for `/todos`), with its own options (pagination, expansion...).
    */
    bool mount(const QString &pathPattern, const QString &collectionPath,
               const Options &options = {});

    bool hasCollection(const QString &path) const;
    //! The stored items (without expansions), in order; empty if there is no such collection.
    QJsonArray collection(const QString &path) const;
    //! Replaces every item; same validation as addCollection. The id counter never goes down.
    bool setCollection(const QString &path, const QJsonArray &items);
    //! The stored item with that id, or an empty object.
    QJsonObject item(const QString &path, const QJsonValue &id) const;
    //! Replaces the item with the same id, or appends it. False (and a warning) without an id.
    bool setItem(const QString &path, const QJsonObject &item);
    bool removeItem(const QString &path, const QJsonValue &id);

    //! Delays every response of this api by \a ms (0: none). Order of replies, not timing, is
    //! what tests should rely on.
    void setLatency(int ms);
    int latency() const;
    /*!
      Answers that fraction (0..1) of mutating requests (POST, PUT, PATCH, DELETE) with a 500
      JSON error, leaving the data unchanged. The choice comes from a PRNG seeded with \a seed,
      so a given sequence of mutations fails the same way on every run (calling it again restarts
      the sequence). 0 turns it off.
    */
    void setFailureRate(double probability, quint32 seed = 1);
    double failureRate() const;
    //! The next \a count requests of any method fail with \a status (400..599) and a JSON error.
    void failNext(int count, int status = 500);
    //! Injected failures still to come from failNext().
    int pendingFailures() const;

Q_SIGNALS:
    //! The stored items of a collection changed (through HTTP or the direct-access functions).
    void collectionChanged(const QString &collectionPath);
    //! A request was answered (emitted before any latency delay).
    void requestServed(const QByteArray &method, const QString &path, int status);

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace DataClient::Testing
