// The one test-export macro: a private function or class that only our tests reach (not another
// layer) is marked DATACLIENT_TEST_EXPORT instead of its layer's public export macro, so that a
// build without tests (DATACLIENT_BUILD_TESTS=OFF, what an app installs) keeps it hidden.
// The build defines DATACLIENT_TEST_EXPORTS on every layer and test when tests are built, and
// DATACLIENT_BUILDING_LAYER on every layer (as Qt's Q_AUTOTEST_EXPORT and KDDockWidgets'
// DOCKS_EXPORT_FOR_UNIT_TESTS do).
#pragma once

#include <QtCore/qglobal.h>

#if !defined(DATACLIENT_TEST_EXPORTS)
#    define DATACLIENT_TEST_EXPORT
#elif defined(DATACLIENT_BUILDING_LAYER)
#    define DATACLIENT_TEST_EXPORT Q_DECL_EXPORT
#else
#    define DATACLIENT_TEST_EXPORT Q_DECL_IMPORT
#endif
