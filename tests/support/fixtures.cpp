// The fixture base classes several test programs share, compiled and moc'ed once into
// dataclient_test_fixtures instead of once per test program (tests/CMakeLists.txt). Including
// them here also proves each header stands on its own.
#include "controllerfixture.h"
#include "fakeapitest.h"
#include "servertest.h"
#include "virtualtimefixture.h"
