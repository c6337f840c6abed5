// The screen of examples/testing: a paged, polled todo list whose rows can be ticked
// (optimistically; a failed save rolls back and says so). Its tests use DataClient::Testing only.
#pragma once

#include <DataClient/collectionmodel.h>
#include <DataClient/resource.h>

#include <QtCore/QObject>
#include <QtCore/QString>

namespace DataClient {
class Controller;
}

class TodoScreen : public QObject
{
    Q_OBJECT
    Q_PROPERTY(DataClient::CollectionModel *todos READ todos CONSTANT)
    //! What the screen tells the user after a failed save; empty otherwise.
    Q_PROPERTY(QString message READ message NOTIFY messageChanged)

public:
    //! Polled every minute while shown.
    static constexpr int PollMs = 60'000;

    //! The API the screen talks to: /todos/:id, pages ?page=N, optimistic updates.
    static DataClient::Resource resource(const QString &apiUrl);

    TodoScreen(DataClient::Controller *controller, const QString &apiUrl,
               QObject *parent = nullptr);

    DataClient::CollectionModel *todos() const { return m_todos; }
    QString message() const { return m_message; }
    const DataClient::Resource &api() const { return m_api; }

    //! Ticks a todo: shown at once, sent as a PATCH; rolled back (with a message) on failure.
    Q_INVOKABLE void setCompleted(int id, bool completed);
    Q_INVOKABLE void loadMore() { m_todos->loadMore(); }

Q_SIGNALS:
    void messageChanged();

private:
    void setMessage(const QString &message);

    DataClient::Controller *m_controller;
    DataClient::Resource m_api;
    DataClient::CollectionModel *m_todos;
    QString m_message;
};
