// Logging category of the rest layer: enable with QT_LOGGING_RULES="dataclient.rest.debug=true".
#pragma once

#include <QtCore/QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcRest)
