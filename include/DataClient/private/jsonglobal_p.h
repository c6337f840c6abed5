// Export macro of the internal JSON library (src/json): the compact tree, its parser and scanner,
// the ISO-date reader and the conversions. Only the schema and store layers link it; its headers
// are in include/DataClient/private and are not installed (docs/architecture.md, "Private API").
#pragma once

#include <QtCore/qglobal.h>

#if defined(DATACLIENT_BUILDING_JSON)
#    define DATACLIENT_JSON_EXPORT Q_DECL_EXPORT
#else
#    define DATACLIENT_JSON_EXPORT Q_DECL_IMPORT
#endif
