#include "logging_p.h"

Q_LOGGING_CATEGORY(lcUndo, "dataclient.undo", QtWarningMsg)
