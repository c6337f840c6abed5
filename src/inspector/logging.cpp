#include "logging_p.h"

Q_LOGGING_CATEGORY(lcInspector, "dataclient.inspector", QtWarningMsg)
