#include "logging_p.h"

Q_LOGGING_CATEGORY(lcPersist, "dataclient.persist", QtInfoMsg)
