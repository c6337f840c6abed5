// Export macro of DataClient::Undo (docs/undo.md), the undo layer on Qt GUI.
#pragma once

#include <QtCore/QtGlobal>

#if defined(DATACLIENT_BUILDING_UNDO)
#    define DATACLIENT_UNDO_EXPORT Q_DECL_EXPORT
#else
#    define DATACLIENT_UNDO_EXPORT Q_DECL_IMPORT
#endif
