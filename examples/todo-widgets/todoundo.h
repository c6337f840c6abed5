// Edit → Undo / Redo of the todo window: every change of a todo (a cell edit, an add, a delete)
// is a command of one QUndoStack (DataClient::UndoRecorder, docs/undo.md), and the menu shows the
// stack's own actions with their texts ("Undo rename 'Buy milk'").
#pragma once

#include <DataClient/controller.h>
#include <DataClient/undorecorder.h>

#include <QtCore/QObject>

QT_BEGIN_NAMESPACE
class QAction;
class QMenuBar;
class QUndoStack;
QT_END_NAMESPACE

class TodoUndo : public QObject
{
    Q_OBJECT

public:
    TodoUndo(DataClient::Controller *controller, QObject *parent = nullptr);

    QUndoStack *stack() const { return m_stack; }
    //! What the todo table's model sends its edits through (CollectionModel::setEditable()).
    DataClient::UndoRecorder *recorder() const { return m_recorder; }
    //! Adds Edit with Undo (Ctrl+Z) and Redo (Ctrl+Shift+Z, and the platform's own keys).
    void addEditMenu(QMenuBar *menuBar);
    QAction *undoAction() const { return m_undo; }
    QAction *redoAction() const { return m_redo; }

Q_SIGNALS:
    //! An undo or redo was not applied; \a message says which and why (for the status line).
    void refused(const QString &message);

private:
    QUndoStack *m_stack = nullptr;
    DataClient::UndoRecorder *m_recorder = nullptr;
    QAction *m_undo = nullptr;
    QAction *m_redo = nullptr;
};
