#include "todoscreen.h"

#include <DataClient/controller.h>
#include <DataClient/createresource.h>
#include <DataClient/networkerror.h>

#include <QtCore/QJsonObject>

using namespace DataClient;
using namespace Qt::StringLiterals;

Resource TodoScreen::resource(const QString &apiUrl)
{
    return createResource({.path = u"/todos/:id"_s,
                           .schema = Schema::entity(EntitySchema(u"Todo"_s)),
                           .urlPrefix = apiUrl,
                           .paginationField = u"page"_s,
                           .optimistic = true,
                           .pollFrequency = PollMs,
                           // The screen shows an error with its Retry at once.
                           .retry = RetryPolicy::none()});
}

TodoScreen::TodoScreen(Controller *controller, const QString &apiUrl, QObject *parent)
    : QObject(parent), m_controller(controller), m_api(resource(apiUrl))
{
    m_todos = new CollectionModel(this);
    m_todos->setController(controller);
    m_todos->setPageEndpoint(m_api.getList.getPage);
    m_todos->setLive(true);
    m_todos->setEndpoint(m_api.getList);
    m_todos->setParams({});
}

void TodoScreen::setCompleted(int id, bool completed)
{
    setMessage({});
    m_controller
        ->fetch(m_api.partialUpdate, {{u"id"_s, id}}, QJsonObject {{u"completed"_s, completed}})
        .onFailed(this, [this](const NetworkError &error) {
            setMessage(u"Could not save: %1"_s.arg(
                error.status() > 0 ? u"the server answered %1"_s.arg(error.status())
                                   : error.message()));
            return QVariant();
        });
}

void TodoScreen::setMessage(const QString &message)
{
    if (m_message == message)
        return;
    m_message = message;
    Q_EMIT messageChanged();
}
