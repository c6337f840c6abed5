#include "logging_p.h"

Q_LOGGING_CATEGORY(lcQml, "dataclient.qml", QtWarningMsg)
