// Runs tests/testing/qml/tst_*.qml: Qt Quick tests written with import DataClient.Testing only
// (no server, no context property).
#include <QtQuickTest/quicktest.h>

QUICK_TEST_MAIN(tst_testingqml)
