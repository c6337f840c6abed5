#include "logging_p.h"

Q_LOGGING_CATEGORY(lcStore, "dataclient.store", QtWarningMsg)
