// Logging category of the store layer: enable with QT_LOGGING_RULES="dataclient.store.debug=true".
#pragma once

#include <QtCore/QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcStore)
