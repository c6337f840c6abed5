// Logging category of the QML layer: enable with QT_LOGGING_RULES="dataclient.qml.debug=true".
#pragma once

#include <QtCore/QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcQml)
