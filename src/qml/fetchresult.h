// What Controller.fetch() returns to QML: an object to bind to (status, value, error) and to
// chain (then(onOk, onError)), like a Promise that is also observable.
#pragma once

#include <DataClient/global.h>

#include <QtCore/QFuture>
#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtCore/QVariant>
#include <QtQml/QJSValue>
#include <QtQml/qqmlregistration.h>

QT_BEGIN_NAMESPACE
class QJSEngine;
QT_END_NAMESPACE

namespace DataClient::Qml {

/*!
    \code
    Controller.fetch(todos.partialUpdate, { id: 5 }, { completed: true })
        .then(function(todo) { console.log(todo.title) },
              function(error) { console.log(error.message) })
    \endcode
    `then` returns another FetchResult that settles with what the callback returns (or, when the
    callback returns a FetchResult, with that one's outcome); without a callback the outcome
    passes through. Callbacks always run later from the event loop, never inside then().
*/
class DATACLIENT_QML_EXPORT FetchResult : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("FetchResults come from Controller.fetch()")
    Q_PROPERTY(Status status READ status NOTIFY settled)
    //! The resolved value (the denormalized response); undefined until Ready.
    Q_PROPERTY(QVariant value READ value NOTIFY settled)
    //! {status, statusText, message, body, url, kind} once failed, else null.
    Q_PROPERTY(QVariant error READ error NOTIFY settled)
    Q_PROPERTY(bool loading READ isLoading NOTIFY settled)

public:
    enum Status { Loading, Ready, Error };
    Q_ENUM(Status)

    //! Owned by \a engine's garbage collector; kept alive while pending (a pending request
    //! and its callbacks must not be collected even when no JS variable holds the result).
    explicit FetchResult(QJSEngine *engine);
    //! Settles with \a future's outcome.
    void follow(const QFuture<QVariant> &future);
    void resolve(const QVariant &value);
    void reject(const QVariant &error);

    Status status() const { return m_status; }
    QVariant value() const { return m_value; }
    QVariant error() const { return m_error; }
    bool isLoading() const { return m_status == Loading; }

    Q_INVOKABLE DataClient::Qml::FetchResult *then(const QJSValue &onOk,
                                                   const QJSValue &onError = QJSValue());

Q_SIGNALS:
    void settled();

private:
    struct Reaction
    {
        QJSValue onOk;
        QJSValue onError;
        FetchResult *next;
    };
    void settle(Status status, const QVariant &value, const QVariant &error);
    void scheduleReactions();
    void runReaction(const Reaction &reaction);

    QPointer<QJSEngine> m_engine;
    QJSValue m_self; // a strong reference to our own JS wrapper while pending or reacting
    Status m_status = Loading;
    QVariant m_value;
    QVariant m_error = QVariant::fromValue(nullptr);
    QList<Reaction> m_reactions;
};

} // namespace DataClient::Qml
