// Logging category of the store inspector: enable with QT_LOGGING_RULES="dataclient.inspector.debug=true".
#pragma once

#include <QtCore/QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcInspector)
