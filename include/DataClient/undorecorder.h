// UndoRecorder: mutations as commands of an application's QUndoStack (docs/undo.md), in the
// DataClient::Undo library (on Qt GUI, which QUndoStack belongs to).
#pragma once

#include <DataClient/cellwriter.h>
#include <DataClient/endpointoptions.h>
#include <DataClient/undoglobal.h>
#include <DataClient/params.h>
#include <DataClient/resource.h>

#include <QtCore/QFuture>
#include <QtCore/QJsonObject>
#include <QtCore/QObject>
#include <QtCore/QVariant>

#include <memory>

QT_BEGIN_NAMESPACE
class QUndoStack;
QT_END_NAMESPACE

namespace DataClient {

class Controller;
class UndoRecorderPrivate;

/*!
    Sends mutations through a Controller and records each as a command of \a stack (an
    application's QUndoStack, not owned), so that QUndoStack::undo() and redo() — Edit → Undo,
    Ctrl+Z — change the server's data back and forth (docs/undo.md):

    - an update undoes by sending the fields' previous values: those the store showed before
      the change (optimistic layers included), read when it was made;
    - a create undoes by deleting the record (a create not answered yet: the delete waits for
      its answer, then names the server's key); redo creates it again;
    - a delete undoes by creating the record again from what the store showed; the server's
      new primary key replaces the old one in every command of the stack.

    Each undo and redo is a request of its own, optimistic like the original (shown at once,
    rolled back if refused), with a fresh Idempotency-Key (an endpoint that queues offline gets
    one from the outbox). Requests for one record go out one at a time, in order; an undo or
    redo made while another of the same record is on the wire waits, and a waiting one that a
    later press makes pointless is dropped unsent: 1,000 presses in a row send the first and
    the last state, never each one between.

    Before an undo or redo, the record must still show what the command left (conflictPolicy):
    data changed since by another request or a push is not overwritten by default — the step is
    refused, refused() says why, and the stack is put back. A step the server refuses (a 404
    when the record was deleted there) is rolled back the same way.

    GUI thread only. Destroying the Controller first is safe: later steps send nothing and say so.
*/
class DATACLIENT_UNDO_EXPORT UndoRecorder : public QObject, public CellWriter
{
    Q_OBJECT
    //! What an undo or redo does when the record changed since its command was recorded.
    Q_PROPERTY(ConflictPolicy conflictPolicy READ conflictPolicy WRITE setConflictPolicy NOTIFY
                   conflictPolicyChanged)
    //! Consecutive edits of the same fields of one record made less than this many ms apart
    //! merge into one command (typing in a cell); 0: never merge. Default 2000.
    Q_PROPERTY(
        int mergeWindowMs READ mergeWindowMs WRITE setMergeWindowMs NOTIFY mergeWindowMsChanged)

public:
    enum class ConflictPolicy {
        //! The step is not sent; refused() names the field and both values.
        Refuse,
        //! The step is sent anyway: the server's newer data is overwritten.
        ApplyAnyway,
    };
    Q_ENUM(ConflictPolicy)

    UndoRecorder(Controller *controller, QUndoStack *stack, QObject *parent = nullptr);
    ~UndoRecorder() override;

    Controller *controller() const;
    QUndoStack *undoStack() const;
    ConflictPolicy conflictPolicy() const;
    void setConflictPolicy(ConflictPolicy policy);
    int mergeWindowMs() const;
    void setMergeWindowMs(int ms);

    /*!
        Sends \a body through \a endpoint (a PATCH or PUT of one record, the record's primary
        key the path's last parameter) and records it as "\a text". Returns the future of the
        request, as Controller::fetch() does. A record the store does not hold (its previous
        values unknown) is sent but not recorded, with a warning.
    */
    QFuture<QVariant> update(const EndpointPtr &endpoint, const Params &params,
                             const QJsonObject &body, const QString &text = {});
    //! Sends \a body through \a create (a POST); undone through \a remove.
    QFuture<QVariant> create(const EndpointPtr &create, const EndpointPtr &remove,
                             const Params &params, const QJsonObject &body,
                             const QString &text = {});
    //! Deletes through \a remove; undone by sending the stored record through \a create.
    QFuture<QVariant> remove(const EndpointPtr &remove, const EndpointPtr &create,
                             const Params &params, const QString &text = {});

    //! update() with \a resource's partialUpdate.
    QFuture<QVariant> partialUpdate(const Resource &resource, const Params &params,
                                    const QJsonObject &body, const QString &text = {});
    //! create() with \a resource's getList.push and delete.
    QFuture<QVariant> create(const Resource &resource, const Params &params,
                             const QJsonObject &body, const QString &text = {});
    //! remove() with \a resource's delete and getList.push.
    QFuture<QVariant> remove(const Resource &resource, const Params &params,
                             const QString &text = {});

    //! CollectionModel's edits (setEditable(resource, recorder)): update(), named after the
    //! row ("rename 'Buy milk'", "check 'Buy milk'", "edit dueDate of 'Buy milk'").
    QFuture<QVariant> writeCell(const CellEdit &edit) override;

Q_SIGNALS:
    /*!
        An undo or redo of "\a commandText" was not applied: a conflict, a refusal by the
        server, no Controller. \a reason says what, for which record, and what to do. The
        stack was put back where it was before the step (unless it has moved on since).
    */
    void refused(const QString &commandText, const QString &reason);
    void conflictPolicyChanged();
    void mergeWindowMsChanged();

private:
    friend class UndoRecorderPrivate;
    std::unique_ptr<UndoRecorderPrivate> d;
};

} // namespace DataClient
