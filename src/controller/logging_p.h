// Logging category of the controller layer: enable with
// QT_LOGGING_RULES="dataclient.controller.debug=true".
#pragma once

#include <QtCore/QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcController)
