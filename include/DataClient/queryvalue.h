// QueryValue: the value of a Query (or All) schema as a property that notifies its changes.
#pragma once

#include <DataClient/global.h>
#include <DataClient/params.h>
#include <DataClient/schema.h>

#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtCore/QVariant>

namespace DataClient {

class Controller;

/*!
    The value of \a schema (Schema::query(), Schema::queryCount(), Schema::all()) read from a
    Controller's store, as a property: after each change of the store it reads it again (a flag
    check when nothing it depends on changed) and emits valueChanged() only when the value is
    another one. One todo toggled in a store of 10k re-tests that todo and emits once.

    \code
    auto *done = new QueryValue(controller, Schema::queryCount(Schema::all(todo),
        [](const Record &t) { return t.value(u"completed").toBool(); }), {}, this);
    connect(done, &QueryValue::valueChanged, this, [done] { qDebug() << done->value(); });
    \endcode

    In QML, give it to the engine as any QObject (a context or required property):
    `Text { text: "done: " + doneCount.value }`.
*/
class DATACLIENT_MODELS_EXPORT QueryValue : public QObject
{
    Q_OBJECT
    Q_PROPERTY(QVariant value READ value NOTIFY valueChanged)

public:
    QueryValue(Controller *controller, const Schema &schema, const Params &args = {},
               QObject *parent = nullptr);
    QVariant value() const { return m_value; }

Q_SIGNALS:
    void valueChanged();

private:
    void refresh();

    QPointer<Controller> m_controller;
    Schema m_schema;
    Params m_args;
    QVariant m_value;
};

} // namespace DataClient
