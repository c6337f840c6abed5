# Shared build rules, so every layer, test and example is added the same way.

# Strict Qt (as QCoro): no implicit ASCII/URL/QByteArray casts, no keywords, no foreach, no
# narrowing in connect(), strict iterators.
set(DATACLIENT_STRICT_DEFINITIONS
  QT_NO_CAST_FROM_ASCII QT_NO_CAST_TO_ASCII QT_NO_URL_CAST_FROM_STRING
  QT_NO_KEYWORDS QT_NO_FOREACH QT_NO_CAST_FROM_BYTEARRAY QT_NO_NARROWING_CONVERSIONS_IN_CONNECT
  QT_STRICT_ITERATORS)

# Since Qt 6.5 an executable linking Qt Qml scans its QML imports at configure time, to link the
# static QML plugins it needs. A shared Qt has none to link, and Debian's Qt 6.8 defines no plugin
# targets (QT_SKIP_AUTO_QML_PLUGIN_INCLUSION), so each scan only warns that they do not exist.
get_target_property(DATACLIENT_QT_CORE_TYPE Qt6::Core TYPE)

function(dataclient_apply_strictness target)
  target_compile_definitions(${target} PRIVATE ${DATACLIENT_STRICT_DEFINITIONS})
  # What only our tests reach is exported when they are built (DATACLIENT_TEST_EXPORT).
  if(DATACLIENT_BUILD_TESTS)
    target_compile_definitions(${target} PRIVATE DATACLIENT_TEST_EXPORTS)
  endif()
  target_compile_options(${target} PRIVATE -Wall -Wextra)
  if(DATACLIENT_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  # Every executable of ours passes here, so the scan is turned off in one place (see above).
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "EXECUTABLE" AND DATACLIENT_QT_CORE_TYPE STREQUAL "SHARED_LIBRARY")
    set_target_properties(${target} PROPERTIES QT_QML_MODULE_NO_IMPORT_SCAN TRUE)
  endif()
endfunction()

if(DATACLIENT_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()

# Fuzzing (docs/reliability.md) rides on the asan build instead of a third build of the library:
# the layers get libFuzzer's coverage instrumentation (fuzzer-no-link: no main, no runtime), only
# the fuzz targets link the fuzzer. The tests stay uninstrumented (and cached); the layers'
# coverage callbacks resolve to the sanitizer runtime's no-op defaults in them.
if(DATACLIENT_FUZZ AND NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "DATACLIENT_FUZZ needs clang (libFuzzer); use the asan or fuzz preset")
endif()

# dataclient_add_layer(<layer> [INTERNAL] SOURCES ... DEPENDS ... [PRIVATE_DEPENDS ...])
# Creates shared library DataClient<Layer> (alias DataClient::<Layer>) from src/<layer>.
# Sources define DATACLIENT_BUILDING_<LAYER> so the export macros in global.h export, not import,
# and DATACLIENT_BUILDING_LAYER for the test-export macro (include/DataClient/private/testexport_p.h).
# INTERNAL: a library only other layers link (src/json): installed beside them, never exported
# to the CMake package, headers in include/DataClient/private (not installed).
function(dataclient_add_layer layer)
  cmake_parse_arguments(ARG "INTERNAL" "" "SOURCES;DEPENDS;PRIVATE_DEPENDS" ${ARGN})
  string(SUBSTRING ${layer} 0 1 first)
  string(TOUPPER ${first} first)
  string(SUBSTRING ${layer} 1 -1 rest)
  set(target DataClient${first}${rest})
  string(TOUPPER ${layer} LAYER)
  qt_add_library(${target} SHARED ${ARG_SOURCES})
  add_library(DataClient::${first}${rest} ALIAS ${target})
  set_target_properties(${target} PROPERTIES
    EXPORT_NAME ${first}${rest}
    VERSION ${PROJECT_VERSION}
    SOVERSION ${DATACLIENT_SOVERSION}
    DATACLIENT_LAYER ${layer})
  target_compile_definitions(${target} PRIVATE DATACLIENT_BUILDING_${LAYER} DATACLIENT_BUILDING_LAYER)
  target_include_directories(${target}
    PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
    PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(${target} PUBLIC ${ARG_DEPENDS} PRIVATE ${ARG_PRIVATE_DEPENDS})
  dataclient_apply_strictness(${target})
  # The QtCore headers every layer reads, precompiled: parsing them was about half of a layer
  # file's compile time (docs/performance.md, CI time). One per layer, not one shared: a
  # precompiled header is only used with the definitions it was made with, and each layer
  # defines its own export macro.
  if(DATACLIENT_LAYER_PCH)
    target_precompile_headers(${target} PRIVATE <QtCore/QObject> <QtCore/QString>
      <QtCore/QVariant> <QtCore/QJsonObject> <QtCore/QJsonArray> <QtCore/QHash> <QtCore/QList>
      <functional> <memory> <vector>)
  endif()
  if(DATACLIENT_FUZZ)
    target_compile_options(${target} PRIVATE -fsanitize=fuzzer-no-link)
  endif()
  if(ARG_INTERNAL)
    set_property(GLOBAL APPEND PROPERTY DATACLIENT_INTERNAL_TARGETS ${target})
  else()
    set_property(GLOBAL APPEND PROPERTY DATACLIENT_LAYER_TARGETS ${target})
  endif()
endfunction()

# Coroutines (docs/testing.md): optional, with QCoro 0.8+ (Debian qcoro-qt6-dev, which ./dev
# installs). Not in clang 14's sanitizer builds: clang 14 fails to assemble coroutine frames
# under -fsanitize=address ("Cannot represent a difference across sections"); the GCC and
# Qt 6.8 builds run the coroutine test.
find_package(QCoro6 0.8 QUIET COMPONENTS Core)
set(DATACLIENT_COROUTINES ${QCoro6Core_FOUND})
if(DATACLIENT_SANITIZE AND CMAKE_CXX_COMPILER_ID STREQUAL "Clang"
    AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 15)
  set(DATACLIENT_COROUTINES OFF)
endif()
