#include "todoundo.h"

#include <QtGui/QAction>
#include <QtGui/QKeySequence>
#include <QtGui/QUndoStack>
#include <QtWidgets/QMenu>
#include <QtWidgets/QMenuBar>

using namespace Qt::StringLiterals;

TodoUndo::TodoUndo(DataClient::Controller *controller, QObject *parent)
    : QObject(parent),
      m_stack(new QUndoStack(this)),
      m_recorder(new DataClient::UndoRecorder(controller, m_stack, this))
{
    connect(m_recorder, &DataClient::UndoRecorder::refused, this,
            [this](const QString &, const QString &reason) { Q_EMIT refused(reason); });
}

void TodoUndo::addEditMenu(QMenuBar *menuBar)
{
    QMenu *edit = menuBar->addMenu(tr("&Edit"));
    // The stack's own actions: enabled when there is something to undo, their text naming it.
    m_undo = m_stack->createUndoAction(edit, tr("Undo"));
    m_redo = m_stack->createRedoAction(edit, tr("Redo"));
    // Ctrl+Shift+Z explicitly: some platforms' Redo is Ctrl+Y alone.
    m_undo->setShortcuts({QKeySequence(QKeySequence::Undo)});
    QList<QKeySequence> redoKeys {QKeySequence(u"Ctrl+Shift+Z"_s)};
    for (const QKeySequence &key : QKeySequence::keyBindings(QKeySequence::Redo)) {
        if (!redoKeys.contains(key))
            redoKeys.append(key);
    }
    m_redo->setShortcuts(redoKeys);
    edit->addAction(m_undo);
    edit->addAction(m_redo);
}
