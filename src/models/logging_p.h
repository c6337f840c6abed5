// Logging category of the models layer: enable with QT_LOGGING_RULES="dataclient.models.debug=true".
#pragma once

#include <QtCore/QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcModels)
