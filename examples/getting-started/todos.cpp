// Getting started, C++ (docs/getting-started.md): list a user's todos, then complete the first
// one. Pass the API's base URL as the first argument (e.g. from `dataclient-demo --serve`).
#include <DataClient/DataClient.h>

#include <QtCore/QCoreApplication>
#include <QtCore/QDateTime>
#include <QtCore/QJsonObject>
#include <QtCore/QTextStream>

#include <algorithm>

using namespace Qt::StringLiterals;

// An entity: a Q_GADGET with a key and a primary key. QDateTime fields are parsed from ISO 8601.
struct Todo
{
    Q_GADGET
    Q_PROPERTY(int id MEMBER id)
    Q_PROPERTY(int userId MEMBER userId)
    Q_PROPERTY(QString title MEMBER title)
    Q_PROPERTY(bool completed MEMBER completed)
    Q_PROPERTY(QDateTime createdAt MEMBER createdAt)
public:
    int id = 0;
    int userId = 0;
    QString title;
    bool completed = false;
    QDateTime createdAt;
    QString pk() const { return QString::number(id); }
    static constexpr auto key = "Todo";
};

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QString apiUrl = app.arguments().value(1, u"http://127.0.0.1:8080"_s);
    QTextStream out(stdout);

    // One call: get, getList, getList.push, update, partialUpdate, delete (remove) ...
    const DataClient::Resource todos = DataClient::createResource<Todo>({
        .path = u"/todos/:id"_s,
        .urlPrefix = apiUrl,
        .searchParams = {u"userId"_s},
        .optimistic = true,
    });
    // The Controller owns the normalized store every view reads from.
    DataClient::Controller controller;
    QObject::connect(&controller, &DataClient::Controller::changed, &app,
                     [&](const DataClient::ChangeSet &changes) {
                         out << "store changed: " << changes.entities.size() << " entities, "
                             << changes.results.size() << " results\n";
                     });

    auto fail = [&](const DataClient::NetworkError &error) {
        out << "error: " << error.message() << Qt::endl;
        app.exit(1);
    };
    controller.fetch(todos.getList, {{u"userId"_s, 1}})
        .then(&app,
              [&](const QVariant &list) {
                  const QList<Todo> items = DataClient::fromVariantList<Todo>(list);
                  for (const Todo &todo : items)
                      out << (todo.completed ? "[x] " : "[ ] ") << todo.title << "  ("
                          << todo.createdAt.toString(u"yyyy-MM-dd"_s) << ")\n";
                  const auto firstOpen
                      = std::find_if(items.cbegin(), items.cend(),
                                     [](const Todo &todo) { return !todo.completed; });
                  if (firstOpen == items.cend())
                      return app.exit(0);
                  // Optimistic: the store (and every view) shows the change before the answer.
                  controller
                      .fetch(todos.partialUpdate, {{u"id"_s, firstOpen->id}},
                             QJsonObject {{u"completed"_s, true}})
                      .then(&app,
                            [&](const QVariant &saved) {
                                const Todo todo = DataClient::fromVariant<Todo>(saved);
                                out << "completed: " << todo.title << Qt::endl;
                                app.exit(0);
                            })
                      .onFailed(&app, fail);
              })
        .onFailed(&app, fail);
    return app.exec();
}

#include "todos.moc"
