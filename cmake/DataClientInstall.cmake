# Installs headers, the layer libraries, the QML modules and a CMake package config, so that
#   find_package(DataClient REQUIRED [COMPONENTS Testing])
#   target_link_libraries(app PRIVATE DataClient::DataClient)
#   target_link_libraries(tests PRIVATE DataClient::Testing)   # the Testing component
# works in a consumer project (tests/consumer proves it). The Testing component (the
# DataClientTesting library, its QML module DataClient.Testing, their export set
# DataClientTestingTargets) is installed beside the core but never linked by it.
#
# Install components, one per Debian package (cmake/DataClientPackaging.cmake, docs/packaging.md):
#   Runtime         the core's shared libraries (libDataClient*.so.<soversion>)
#   Qml             the QML module DataClient
#   TestingRuntime  the test kit's shared libraries
#   TestingQml      the QML module DataClient.Testing
#   InspectorRuntime  the store inspector's shared libraries (on Qt Widgets too)
#   InspectorQml    the QML module DataClient.Inspector
#   OAuthRuntime    DataClient::OAuth, when built (on Qt Network Authorization)
#   Development     headers (the test kit's too), the CMake package, the libraries' name links
include(CMakePackageConfigHelpers)

set(DATACLIENT_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/DataClient)

# Where the QML modules go. Installed into Qt's own prefix (e.g. /usr), they go where Qt looks
# for modules (Qt's QML directory), so `import DataClient` needs no import path; elsewhere
# <prefix>/lib/qml, which apps add through DataClient_QML_IMPORT_DIR. Relative to the prefix.
get_filename_component(dataclient_prefix "${CMAKE_INSTALL_PREFIX}" REALPATH)
get_filename_component(dataclient_qt_prefix "${QT6_INSTALL_PREFIX}" REALPATH)
if(QT6_INSTALL_QML AND dataclient_prefix STREQUAL dataclient_qt_prefix)
  set(dataclient_default_qmldir ${QT6_INSTALL_QML})
else()
  set(dataclient_default_qmldir ${CMAKE_INSTALL_LIBDIR}/qml)
endif()
set(DATACLIENT_INSTALL_QMLDIR ${dataclient_default_qmldir} CACHE STRING
  "Where the QML modules DataClient and DataClient.Testing are installed, relative to the prefix (default: Qt's QML directory when installing into Qt's prefix, else lib/qml)")

get_property(dataclient_targets GLOBAL PROPERTY DATACLIENT_LAYER_TARGETS)
list(REMOVE_ITEM dataclient_targets DataClientTesting)
set(dataclient_testing_targets DataClientTesting DataClientTestingQml)
# The Inspector component (docs/inspector.md): the store inspector's libraries and QML module,
# found with find_package(DataClient COMPONENTS Inspector).
set(dataclient_inspector_targets)
foreach(target DataClientInspector DataClientInspectorWidgets DataClientInspectorQml)
  if(TARGET ${target})
    list(REMOVE_ITEM dataclient_targets ${target})
    list(APPEND dataclient_inspector_targets ${target})
  endif()
endforeach()

# Internal libraries (src/json) are only linked by layers; they are in the export set because
# CMake lists a shared library's private shared dependencies there (for the linker's
# -rpath-link), but no header of theirs is installed, so apps cannot use DataClient::Json.
get_property(dataclient_internal_targets GLOBAL PROPERTY DATACLIENT_INTERNAL_TARGETS)
install(TARGETS ${dataclient_targets} ${dataclient_internal_targets} EXPORT DataClientTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Runtime NAMELINK_COMPONENT Development
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Development
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT Runtime
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS ${dataclient_testing_targets} EXPORT DataClientTestingTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT TestingRuntime
    NAMELINK_COMPONENT Development
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Development
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT TestingRuntime
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/DataClient DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  COMPONENT Development PATTERN "testing" EXCLUDE
  # The layers' private API (include/DataClient/private) is built against, never installed.
  PATTERN "private" EXCLUDE)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/DataClient/testing
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/DataClient COMPONENT Development)
install(TARGETS ${dataclient_inspector_targets} EXPORT DataClientInspectorTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT InspectorRuntime
    NAMELINK_COMPONENT Development
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Development
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT InspectorRuntime
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT DataClientInspectorTargets NAMESPACE DataClient::
  DESTINATION ${DATACLIENT_INSTALL_CMAKEDIR} COMPONENT Development)
install(EXPORT DataClientTargets NAMESPACE DataClient:: DESTINATION ${DATACLIENT_INSTALL_CMAKEDIR}
  COMPONENT Development)
install(EXPORT DataClientTestingTargets NAMESPACE DataClient::
  DESTINATION ${DATACLIENT_INSTALL_CMAKEDIR} COMPONENT Development)
# DataClient::OAuth (find_package(DataClient COMPONENTS OAuth)), when it was built: its own
# package, so that only apps that use it depend on Qt Network Authorization.
if(TARGET DataClientOAuth)
  install(TARGETS DataClientOAuth EXPORT DataClientOAuthTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT OAuthRuntime
      NAMELINK_COMPONENT Development
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Development
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT OAuthRuntime)
  install(EXPORT DataClientOAuthTargets NAMESPACE DataClient::
    DESTINATION ${DATACLIENT_INSTALL_CMAKEDIR} COMPONENT Development)
endif()

# The plugins find their backing libraries (lib/libDataClientQml.so) from the QML directory.
function(dataclient_plugin_rpath plugin module_dir)
  if(IS_ABSOLUTE "${DATACLIENT_INSTALL_QMLDIR}")
    set_target_properties(${plugin} PROPERTIES INSTALL_RPATH "${CMAKE_INSTALL_FULL_LIBDIR}")
  else()
    file(RELATIVE_PATH up "/p/${DATACLIENT_INSTALL_QMLDIR}/${module_dir}" "/p/${CMAKE_INSTALL_LIBDIR}")
    set_target_properties(${plugin} PROPERTIES INSTALL_RPATH "$ORIGIN/${up}")
  endif()
endfunction()
dataclient_plugin_rpath(DataClientQmlplugin DataClient)
dataclient_plugin_rpath(DataClientTestingQmlplugin DataClient/Testing)
foreach(target IN LISTS dataclient_targets dataclient_internal_targets dataclient_testing_targets
    dataclient_inspector_targets)
  if(NOT target STREQUAL "DataClient")
    set_target_properties(${target} PROPERTIES INSTALL_RPATH "$ORIGIN")
  endif()
endforeach()

# The QML modules: plugin, qmldir, qmltypes and QML files, under <qmldir>/DataClient and
# <qmldir>/DataClient/Testing.
install(TARGETS DataClientQmlplugin
  LIBRARY DESTINATION ${DATACLIENT_INSTALL_QMLDIR}/DataClient COMPONENT Qml)
install(DIRECTORY ${QT_QML_OUTPUT_DIRECTORY}/DataClient/
  DESTINATION ${DATACLIENT_INSTALL_QMLDIR}/DataClient COMPONENT Qml
  FILES_MATCHING PATTERN "qmldir" PATTERN "*.qmltypes" PATTERN "*.qml" PATTERN "Testing" EXCLUDE
  PATTERN "Inspector" EXCLUDE)
install(TARGETS DataClientTestingQmlplugin
  LIBRARY DESTINATION ${DATACLIENT_INSTALL_QMLDIR}/DataClient/Testing COMPONENT TestingQml)
install(DIRECTORY ${QT_QML_OUTPUT_DIRECTORY}/DataClient/Testing/
  DESTINATION ${DATACLIENT_INSTALL_QMLDIR}/DataClient/Testing COMPONENT TestingQml
  FILES_MATCHING PATTERN "qmldir" PATTERN "*.qmltypes" PATTERN "*.qml")

if(TARGET DataClientInspectorQmlplugin)
  dataclient_plugin_rpath(DataClientInspectorQmlplugin DataClient/Inspector)
  install(TARGETS DataClientInspectorQmlplugin
    LIBRARY DESTINATION ${DATACLIENT_INSTALL_QMLDIR}/DataClient/Inspector COMPONENT InspectorQml)
  install(DIRECTORY ${QT_QML_OUTPUT_DIRECTORY}/DataClient/Inspector/
    DESTINATION ${DATACLIENT_INSTALL_QMLDIR}/DataClient/Inspector COMPONENT InspectorQml
    FILES_MATCHING PATTERN "qmldir" PATTERN "*.qmltypes" PATTERN "*.qml")
endif()

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/DataClientConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/DataClientConfig.cmake
  INSTALL_DESTINATION ${DATACLIENT_INSTALL_CMAKEDIR}
  PATH_VARS DATACLIENT_INSTALL_QMLDIR)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/DataClientConfigVersion.cmake
  COMPATIBILITY ${DATACLIENT_VERSION_COMPATIBILITY})
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/DataClientConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/DataClientConfigVersion.cmake
  DESTINATION ${DATACLIENT_INSTALL_CMAKEDIR} COMPONENT Development)
