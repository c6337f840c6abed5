// Logging category of the testing helpers: QT_LOGGING_RULES="dataclient.testing.debug=true".
#pragma once

#include <QtCore/QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcTesting)
