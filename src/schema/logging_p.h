// Logging category of the schema layer: enable with
// QT_LOGGING_RULES="dataclient.schema.debug=true".
#pragma once

#include <QtCore/QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcSchema)
