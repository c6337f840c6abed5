// Export macro of the persist layer (src/persist: the persisted store, docs/offline.md).
#pragma once

#include <QtCore/qglobal.h>

#if defined(DATACLIENT_BUILDING_PERSIST)
#    define DATACLIENT_PERSIST_EXPORT Q_DECL_EXPORT
#else
#    define DATACLIENT_PERSIST_EXPORT Q_DECL_IMPORT
#endif
