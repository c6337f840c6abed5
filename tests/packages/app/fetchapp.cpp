// Fetches the todos of a server through a Controller and prints them; exits 0 when the three
// seeded rows arrived. The server is the test kit's (an in-process TestServer on 127.0.0.1).
#include <DataClient/DataClient.h>
#include <DataClient/testing/fakerestapi.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QCoreApplication>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QTextStream>
#include <QtNetwork/QNetworkAccessManager>

using namespace DataClient;

static QJsonArray seed()
{
    QJsonArray todos;
    for (int id = 1; id <= 3; ++id)
        todos.append(QJsonObject {{QStringLiteral("id"), id},
                                  {QStringLiteral("title"), QStringLiteral("todo %1").arg(id)}});
    return todos;
}

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QTextStream out(stdout);
    Testing::TestServer server;
    Testing::FakeRestApi api(&server);
    if (!server.listen() || !api.addCollection(QStringLiteral("/todos"), seed()))
        return 3;
    const Resource todos = createResource({.path = QStringLiteral("/todos/:id"),
                                           .schema = Schema::entity(EntitySchema(u"Todo"_qs)),
                                           .urlPrefix = server.url()});
    QNetworkAccessManager network;
    Controller controller(&network);
    int rows = -1;
    controller.fetch(todos.getList)
        .then(&app,
              [&](const QVariant &list) {
                  const QVariantList items = list.toList();
                  rows = int(items.size());
                  for (const QVariant &item : items)
                      out << item.toMap().value(QStringLiteral("title")).toString() << '\n';
                  app.quit();
              })
        .onFailed(&app, [&] { app.quit(); });
    app.exec();
    out << "DataClient " << DataClient::version() << ": " << rows << " rows\n";
    return rows == 3 ? 0 : 1;
}
