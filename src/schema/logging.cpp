#include "logging_p.h"

Q_LOGGING_CATEGORY(lcSchema, "dataclient.schema", QtWarningMsg)
