// The Widgets todo app's window: users in a QListView, the selected user's todos in an editable
// QTableView (title, completed as a check box, created date; a click on a header sorts), a QDataWidgetMapper form for the
// selected todo, New / Delete actions, Edit → Undo / Redo of every change (TodoUndo), paging on
// scroll (fetchMore) and a status bar. Everything is a DataClient::CollectionModel on one
// Controller: an edit anywhere shows everywhere.
#pragma once

#include <DataClient/collectionmodel.h>
#include <DataClient/controller.h>
#include <DataClient/inspectordock.h>
#include <DataClient/resource.h>

#include "todoundo.h"

#include <QtCore/QFuture>
#include <QtWidgets/QMainWindow>

#include <functional>

QT_BEGIN_NAMESPACE
class QAction;
class QCheckBox;
class QDataWidgetMapper;
class QLabel;
class QLineEdit;
class QListView;
class QSortFilterProxyModel;
class QTableView;
class QToolButton;
QT_END_NAMESPACE

class TodoWindow : public QMainWindow
{
    Q_OBJECT
    //! Users and the selected user's todos are shown (what --screenshot waits for).
    Q_PROPERTY(bool dataShown READ isDataShown NOTIFY dataShownChanged)

public:
    enum TodoColumn { Title, Completed, CreatedAt };

    //! A window on the REST API at \a apiUrl (the embedded server's or --url's), showing the
    //! todos of user \a userId first; with \a online false (--offline) nothing is sent until
    //! the toolbar's Online action is checked.
    explicit TodoWindow(const QString &apiUrl, int userId = 1, bool online = true,
                        QWidget *parent = nullptr);
    ~TodoWindow() override;

    bool isDataShown() const;
    //! One line: each query's state, then the last error (what the status bar shows).
    QString statusText() const;

    DataClient::Controller *controller() { return &m_controller; }
    DataClient::CollectionModel *users() const { return m_users; }
    DataClient::CollectionModel *todos() const { return m_todos; }
    QListView *userList() const { return m_userList; }
    //! The todo table; its model is a QSortFilterProxyModel over todos().
    QTableView *todoTable() const { return m_todoTable; }
    QLineEdit *formTitle() const { return m_formTitle; }
    QCheckBox *formCompleted() const { return m_formCompleted; }
    //! The toolbar's Online switch (checkable): the app's own connectivity source.
    QAction *onlineAction() const { return m_onlineAction; }
    //! Debug > Store inspector (checkable): shows the InspectorDock.
    QAction *inspectorAction() const { return m_inspectorAction; }
    //! The dock, once the menu entry opened it (nullptr before).
    DataClient::InspectorDock *inspectorDock() const { return m_inspectorDock; }
    //! Edit → Undo / Redo: the undo stack every todo edit is recorded on.
    TodoUndo *undo() const { return m_undo; }

    //! Adds a todo titled \a title for the selected user (shown at once, no id sent).
    void addTodo(const QString &title);
    //! Deletes the todo selected in the table (gone at once; back if the server refuses).
    void deleteSelectedTodo();

Q_SIGNALS:
    void dataShownChanged();

private:
    void buildUi();
    void showUser(const QModelIndex &index);
    // Watches a write sent (through the undo stack); on failure (already rolled back) reports
    // it, then runs \a afterFailure.
    void runWrite(const QString &what, const QFuture<QVariant> &sent,
                  const std::function<void()> &afterFailure = {});
    void selectTodo(const QVariant &id);
    void reportError(const QString &what, const DataClient::NetworkError &error);
    //! Shows \a text in the error line (until dismissed or replaced), \a detail as its tip.
    void showError(const QString &text, const QString &detail);
    void updateStatus();
    //! "[offline; ]users: ready, 10 rows; todos: ...": each query's state.
    QString queriesState() const;

    DataClient::Controller m_controller;
    DataClient::Resource m_userResource;
    DataClient::Resource m_todoResource;
    DataClient::CollectionModel *m_users = nullptr;
    DataClient::CollectionModel *m_todos = nullptr;
    QSortFilterProxyModel *m_sortedTodos = nullptr; // what the table shows: m_todos, sorted
    QListView *m_userList = nullptr;
    QTableView *m_todoTable = nullptr;
    QDataWidgetMapper *m_mapper = nullptr;
    QLineEdit *m_newTitle = nullptr;
    QLineEdit *m_formTitle = nullptr;
    QCheckBox *m_formCompleted = nullptr;
    QLabel *m_formCreated = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_error = nullptr; // the last failure, until dismissed or replaced
    QToolButton *m_dismissError = nullptr;
    QAction *m_onlineAction = nullptr;
    QAction *m_inspectorAction = nullptr;
    DataClient::InspectorDock *m_inspectorDock = nullptr;
    TodoUndo *m_undo = nullptr;
    QString m_lastError;
    int m_userId = 1;
    bool m_dataShown = false;
};
