#include "qmlundostack.h"

#include "qmlcontrollerlookup_p.h"

#include <DataClient/restendpoint.h>
#include <DataClient/undorecorder.h>

#include <QtCore/QJsonObject>
#include <QtGui/QUndoStack>
#include <QtQml/QQmlEngine>
#include <QtQml/qqmlinfo.h>

using namespace Qt::StringLiterals;

namespace DataClient::Qml {

namespace {

EndpointPtr endpointOf(QObject *object)
{
    auto *rest = qobject_cast<RestEndpoint *>(object);
    return rest ? rest->weak_from_this().lock() : EndpointPtr();
}

std::optional<Params> paramsOf(const QVariant &params)
{
    QVariant value = params;
    if (value.metaType() == QMetaType::fromType<QJSValue>())
        value = value.value<QJSValue>().toVariant();
    if (!value.isValid() || value.isNull())
        return Params();
    if (value.metaType().id() != QMetaType::QVariantMap)
        return std::nullopt;
    return value.toMap();
}

} // namespace

QmlUndoStack::QmlUndoStack(QObject *parent) : QObject(parent), m_stack(new QUndoStack(this))
{
    connect(m_stack, &QUndoStack::canUndoChanged, this, &QmlUndoStack::canUndoChanged);
    connect(m_stack, &QUndoStack::canRedoChanged, this, &QmlUndoStack::canRedoChanged);
    connect(m_stack, &QUndoStack::undoTextChanged, this, &QmlUndoStack::undoTextChanged);
    connect(m_stack, &QUndoStack::redoTextChanged, this, &QmlUndoStack::redoTextChanged);
    connect(m_stack, &QUndoStack::indexChanged, this, &QmlUndoStack::indexChanged);
}

QmlUndoStack::~QmlUndoStack()
{
    // The commands refer to the recorder: they go first.
    m_stack->clear();
}

bool QmlUndoStack::canUndo() const
{
    return m_stack->canUndo();
}

bool QmlUndoStack::canRedo() const
{
    return m_stack->canRedo();
}

QString QmlUndoStack::undoText() const
{
    return m_stack->undoText();
}

QString QmlUndoStack::redoText() const
{
    return m_stack->redoText();
}

int QmlUndoStack::count() const
{
    return m_stack->count();
}

int QmlUndoStack::index() const
{
    return m_stack->index();
}

QmlUndoStack::ConflictPolicy QmlUndoStack::conflictPolicy() const
{
    return m_policy;
}

void QmlUndoStack::setConflictPolicy(ConflictPolicy policy)
{
    if (m_policy == policy)
        return;
    m_policy = policy;
    if (m_recorder)
        m_recorder->setConflictPolicy(policy == ApplyAnyway
                                          ? UndoRecorder::ConflictPolicy::ApplyAnyway
                                          : UndoRecorder::ConflictPolicy::Refuse);
    Q_EMIT conflictPolicyChanged();
}

int QmlUndoStack::mergeWindowMs() const
{
    return m_mergeWindowMs;
}

void QmlUndoStack::setMergeWindowMs(int ms)
{
    if (ms < 0) {
        qmlWarning(this) << "UndoStack.mergeWindowMs must be 0 (never merge) or more; got " << ms;
        return;
    }
    if (m_mergeWindowMs == ms)
        return;
    m_mergeWindowMs = ms;
    if (m_recorder)
        m_recorder->setMergeWindowMs(ms);
    Q_EMIT mergeWindowMsChanged();
}

void QmlUndoStack::undo()
{
    m_stack->undo();
}

void QmlUndoStack::redo()
{
    m_stack->redo();
}

void QmlUndoStack::clear()
{
    m_stack->clear();
}

UndoRecorder *QmlUndoStack::recorder()
{
    if (!m_recorder) {
        m_recorder = new UndoRecorder(controllerFor(this), m_stack, this);
        m_recorder->setMergeWindowMs(m_mergeWindowMs);
        m_recorder->setConflictPolicy(m_policy == ApplyAnyway
                                          ? UndoRecorder::ConflictPolicy::ApplyAnyway
                                          : UndoRecorder::ConflictPolicy::Refuse);
        connect(m_recorder, &UndoRecorder::refused, this, &QmlUndoStack::refused);
    }
    return m_recorder;
}

FetchResult *QmlUndoStack::rejected(const QString &message)
{
    qmlWarning(this) << message;
    auto *result = new FetchResult(qmlEngine(this));
    result->reject(
        QVariantMap {{u"status"_s, 0}, {u"kind"_s, u"InvalidRequest"_s}, {u"message"_s, message}});
    return result;
}

FetchResult *QmlUndoStack::update(QObject *endpoint, const QVariant &params, const QJSValue &body,
                                  const QString &text)
{
    const EndpointPtr write = endpointOf(endpoint);
    const std::optional<Params> args = paramsOf(params);
    if (!write || !args || !body.isObject())
        return rejected(u"UndoStack.update(endpoint, params, body, text): expected an endpoint "
                        "of a Resource (e.g. todos.partialUpdate), an object of URL parameters "
                        "({ id: 5 }) and an object of fields ({ title: \"new\" })"_s);
    auto *result = new FetchResult(qmlEngine(this));
    result->follow(recorder()->update(write, *args,
                                      QJsonObject::fromVariantMap(body.toVariant().toMap()), text));
    return result;
}

FetchResult *QmlUndoStack::create(QObject *createEndpoint, QObject *removeEndpoint,
                                  const QVariant &params, const QJSValue &body, const QString &text)
{
    const EndpointPtr create = endpointOf(createEndpoint);
    const EndpointPtr remove = endpointOf(removeEndpoint);
    const std::optional<Params> args = paramsOf(params);
    if (!create || !remove || !args || !body.isObject())
        return rejected(u"UndoStack.create(createEndpoint, removeEndpoint, params, body, text): "
                        "expected two endpoints of a Resource (e.g. todos.getList.push, "
                        "todos[\"delete\"]), an object of URL parameters and the new record"_s);
    auto *result = new FetchResult(qmlEngine(this));
    result->follow(recorder()->create(create, remove, *args,
                                      QJsonObject::fromVariantMap(body.toVariant().toMap()), text));
    return result;
}

FetchResult *QmlUndoStack::remove(QObject *removeEndpoint, QObject *createEndpoint,
                                  const QVariant &params, const QString &text)
{
    const EndpointPtr remove = endpointOf(removeEndpoint);
    const EndpointPtr create = endpointOf(createEndpoint);
    const std::optional<Params> args = paramsOf(params);
    if (!remove || !create || !args)
        return rejected(u"UndoStack.remove(removeEndpoint, createEndpoint, params, text): "
                        "expected two endpoints of a Resource (e.g. todos[\"delete\"], "
                        "todos.getList.push) and an object of URL parameters ({ id: 5 })"_s);
    auto *result = new FetchResult(qmlEngine(this));
    result->follow(recorder()->remove(remove, create, *args, text));
    return result;
}

} // namespace DataClient::Qml
