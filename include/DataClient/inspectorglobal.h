// Export macros of the store inspector's libraries (docs/inspector.md): the models
// (DataClient::Inspector, Qt Core only) and the Widgets dock (DataClient::InspectorWidgets).
#pragma once

#include <QtCore/QtGlobal>

#if defined(DATACLIENT_BUILDING_INSPECTOR)
#    define DATACLIENT_INSPECTOR_EXPORT Q_DECL_EXPORT
#else
#    define DATACLIENT_INSPECTOR_EXPORT Q_DECL_IMPORT
#endif

#if defined(DATACLIENT_BUILDING_INSPECTORWIDGETS)
#    define DATACLIENT_INSPECTORWIDGETS_EXPORT Q_DECL_EXPORT
#else
#    define DATACLIENT_INSPECTORWIDGETS_EXPORT Q_DECL_IMPORT
#endif
