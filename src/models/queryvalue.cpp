#include <DataClient/controller.h>
#include <DataClient/queryvalue.h>

namespace DataClient {

QueryValue::QueryValue(Controller *controller, const Schema &schema, const Params &args,
                       QObject *parent)
    : QObject(parent), m_controller(controller), m_schema(schema), m_args(args)
{
    if (!controller)
        return;
    connect(controller, &Controller::changed, this, &QueryValue::refresh);
    m_value = controller->get(m_schema, m_args).data;
}

void QueryValue::refresh()
{
    if (!m_controller)
        return;
    // Unchanged inputs give the same value (a shared list compares by its data pointer first).
    QVariant value = m_controller->get(m_schema, m_args).data;
    if (value == m_value)
        return;
    m_value = std::move(value);
    Q_EMIT valueChanged();
}

} // namespace DataClient
