#include "logging_p.h"

Q_LOGGING_CATEGORY(lcModels, "dataclient.models", QtWarningMsg)
