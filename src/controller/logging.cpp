#include "logging_p.h"

Q_LOGGING_CATEGORY(lcController, "dataclient.controller", QtWarningMsg)
