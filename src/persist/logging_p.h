// Logging category of the persist layer: enable with QT_LOGGING_RULES="dataclient.persist.debug=true".
#pragma once

#include <QtCore/QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcPersist)
