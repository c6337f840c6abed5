// Export macros, one per layer, so each layer is its own shared library (docs/architecture.md).
#pragma once

#include <QtCore/qglobal.h>

#if defined(DATACLIENT_BUILDING_SCHEMA)
#    define DATACLIENT_SCHEMA_EXPORT Q_DECL_EXPORT
#else
#    define DATACLIENT_SCHEMA_EXPORT Q_DECL_IMPORT
#endif

#if defined(DATACLIENT_BUILDING_STORE)
#    define DATACLIENT_STORE_EXPORT Q_DECL_EXPORT
#else
#    define DATACLIENT_STORE_EXPORT Q_DECL_IMPORT
#endif

#if defined(DATACLIENT_BUILDING_REST)
#    define DATACLIENT_REST_EXPORT Q_DECL_EXPORT
#else
#    define DATACLIENT_REST_EXPORT Q_DECL_IMPORT
#endif

#if defined(DATACLIENT_BUILDING_CONTROLLER)
#    define DATACLIENT_CONTROLLER_EXPORT Q_DECL_EXPORT
#else
#    define DATACLIENT_CONTROLLER_EXPORT Q_DECL_IMPORT
#endif

#if defined(DATACLIENT_BUILDING_MODELS)
#    define DATACLIENT_MODELS_EXPORT Q_DECL_EXPORT
#else
#    define DATACLIENT_MODELS_EXPORT Q_DECL_IMPORT
#endif

#if defined(DATACLIENT_BUILDING_QML)
#    define DATACLIENT_QML_EXPORT Q_DECL_EXPORT
#else
#    define DATACLIENT_QML_EXPORT Q_DECL_IMPORT
#endif

#if defined(DATACLIENT_BUILDING_TESTING)
#    define DATACLIENT_TESTING_EXPORT Q_DECL_EXPORT
#else
#    define DATACLIENT_TESTING_EXPORT Q_DECL_IMPORT
#endif

// Debug-build check that an object is used from the thread it lives on (the GUI thread for
// Controller, endpoints and models). Compiles to nothing in release builds.
#define DATACLIENT_ASSERT_THREAD(object)                                                           \
    Q_ASSERT_X((object)->thread() == QThread::currentThread(), Q_FUNC_INFO,                        \
               "DataClient objects must be used from the thread they live on (the GUI thread)")
