// Logging category of the undo layer: enable with QT_LOGGING_RULES="dataclient.undo.debug=true".
#pragma once

#include <QtCore/QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcUndo)
