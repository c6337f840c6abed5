// UndoStack (QML): the mutations sent through it can be undone and redone, on the server too
// (docs/undo.md). A QUndoStack and a DataClient::UndoRecorder on the Controller QML uses.
#pragma once

#include "fetchresult.h"

#include <DataClient/global.h>

#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtQml/QJSValue>
#include <QtQml/qqmlregistration.h>

QT_BEGIN_NAMESPACE
class QUndoStack;
QT_END_NAMESPACE

namespace DataClient {
class UndoRecorder;
}

namespace DataClient::Qml {

/*!
    \qml
    UndoStack { id: undoStack }
    Shortcut { sequences: [StandardKey.Undo]; onActivated: undoStack.undo() }
    undoStack.update(todos.partialUpdate, { id: 5 }, { title: "Buy oat milk" }, "rename 'Buy milk'")
    \endqml
    update(), create() and remove() send like Controller.fetch() (and return its FetchResult)
    and record the change; undo() and redo() send the way back and forth. refused(text, reason)
    tells of an undo or redo that was not applied (a conflict, a refusal by the server).
*/
class DATACLIENT_QML_EXPORT QmlUndoStack : public QObject
{
    Q_OBJECT
    QML_NAMED_ELEMENT(UndoStack)
    Q_PROPERTY(bool canUndo READ canUndo NOTIFY canUndoChanged)
    Q_PROPERTY(bool canRedo READ canRedo NOTIFY canRedoChanged)
    //! What undo() would undo ("rename 'Buy milk'"), empty when nothing.
    Q_PROPERTY(QString undoText READ undoText NOTIFY undoTextChanged)
    Q_PROPERTY(QString redoText READ redoText NOTIFY redoTextChanged)
    //! How many changes the stack holds; index: how many of them are done.
    Q_PROPERTY(int count READ count NOTIFY indexChanged)
    Q_PROPERTY(int index READ index NOTIFY indexChanged)
    //! Refuse (default) or ApplyAnyway when the record changed since the change was made.
    Q_PROPERTY(ConflictPolicy conflictPolicy READ conflictPolicy WRITE setConflictPolicy NOTIFY
                   conflictPolicyChanged)
    //! Edits of the same fields of one record closer than this (ms) merge; 0: never.
    Q_PROPERTY(
        int mergeWindowMs READ mergeWindowMs WRITE setMergeWindowMs NOTIFY mergeWindowMsChanged)

public:
    enum ConflictPolicy { Refuse, ApplyAnyway };
    Q_ENUM(ConflictPolicy)

    explicit QmlUndoStack(QObject *parent = nullptr);
    ~QmlUndoStack() override;

    bool canUndo() const;
    bool canRedo() const;
    QString undoText() const;
    QString redoText() const;
    int count() const;
    int index() const;
    ConflictPolicy conflictPolicy() const;
    void setConflictPolicy(ConflictPolicy policy);
    int mergeWindowMs() const;
    void setMergeWindowMs(int ms);

    Q_INVOKABLE void undo();
    Q_INVOKABLE void redo();
    //! Forgets every change (requests on their way finish).
    Q_INVOKABLE void clear();
    //! A PATCH or PUT of one record (its pk the path's last parameter), undone by sending the
    //! fields' previous values.
    Q_INVOKABLE DataClient::Qml::FetchResult *update(QObject *endpoint, const QVariant &params,
                                                     const QJSValue &body,
                                                     const QString &text = {});
    //! A create (e.g. todos.getList.push), undone through \a removeEndpoint (todos.delete).
    Q_INVOKABLE DataClient::Qml::FetchResult *create(QObject *createEndpoint,
                                                     QObject *removeEndpoint,
                                                     const QVariant &params, const QJSValue &body,
                                                     const QString &text = {});
    //! A delete, undone by creating the record again through \a createEndpoint.
    Q_INVOKABLE DataClient::Qml::FetchResult *remove(QObject *removeEndpoint,
                                                     QObject *createEndpoint,
                                                     const QVariant &params,
                                                     const QString &text = {});

Q_SIGNALS:
    void canUndoChanged();
    void canRedoChanged();
    void undoTextChanged();
    void redoTextChanged();
    void indexChanged();
    void conflictPolicyChanged();
    void mergeWindowMsChanged();
    void refused(const QString &text, const QString &reason);

private:
    //! The recorder, made on first use on the Controller this object's engine uses.
    DataClient::UndoRecorder *recorder();
    //! A FetchResult failed with \a message (bad arguments: nothing sent).
    FetchResult *rejected(const QString &message);

    QUndoStack *m_stack = nullptr;
    QPointer<DataClient::UndoRecorder> m_recorder;
    ConflictPolicy m_policy = Refuse;
    int m_mergeWindowMs = 2000;
};

} // namespace DataClient::Qml
