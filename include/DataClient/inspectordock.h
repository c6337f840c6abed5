// InspectorDock: the store inspector for Qt Widgets apps, a QDockWidget with the inspector's
// models in tree views (docs/inspector.md).
#pragma once

#include <DataClient/inspectorglobal.h>

#include <QtWidgets/QDockWidget>

QT_BEGIN_NAMESPACE
class QAbstractItemModel;
class QCheckBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTabWidget;
class QTreeView;
QT_END_NAMESPACE

namespace DataClient {

class Controller;
class StoreInspector;

/*!
    Tabs Entities, Results, Requests, Outbox, Status and Timeline (StoreInspector's models in
    QTreeViews), a search field that filters every tab (key, pk, URL: any column), the
    inspector's status line and its actions for the selected row: Invalidate, Expire and Refetch
    a result, Drop an entity, Copy JSON (of the entity or the answer), Reset store, and an
    Online switch.

    The inspector attaches when the dock is shown and detaches when it is hidden or closed: a
    closed dock records nothing.
*/
class DATACLIENT_INSPECTORWIDGETS_EXPORT InspectorDock : public QDockWidget
{
    Q_OBJECT

public:
    enum Tab { EntitiesTab, ResultsTab, RequestsTab, OutboxTab, StatusTab, TimelineTab };
    Q_ENUM(Tab)

    explicit InspectorDock(Controller *controller, QWidget *parent = nullptr);
    ~InspectorDock() override;

    StoreInspector *inspector() const { return m_inspector; }
    QTabWidget *tabs() const { return m_tabs; }
    QTreeView *view(Tab tab) const;
    QLineEdit *searchField() const { return m_search; }
    //! The JSON the Copy action put on the clipboard last.
    QString lastCopied() const { return m_lastCopied; }
    //! Copies the selected entity or answer as JSON (what the Copy JSON button does).
    void copySelection();

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    QTreeView *addTab(QAbstractItemModel *model, const QString &title);
    //! The selected row's value of \a role in the current tab (through the search filter).
    QVariant selected(int role) const;
    void act(const QString &what);

    Controller *m_controller;
    StoreInspector *m_inspector;
    QTabWidget *m_tabs = nullptr;
    QLineEdit *m_search = nullptr;
    QLabel *m_status = nullptr;
    QCheckBox *m_online = nullptr;
    QList<QTreeView *> m_views;
    QList<QSortFilterProxyModel *> m_filters;
    QString m_lastCopied;
};

} // namespace DataClient
