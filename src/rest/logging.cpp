#include "logging_p.h"

Q_LOGGING_CATEGORY(lcRest, "dataclient.rest", QtWarningMsg)
