#include "logging_p.h"

Q_LOGGING_CATEGORY(lcTesting, "dataclient.testing", QtWarningMsg)
