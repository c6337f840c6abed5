# Installs headers, the layer libraries, the QML module and a CMake package config, so that
#   find_package(DataClient REQUIRED)
#   target_link_libraries(app PRIVATE DataClient::DataClient)
# works in a consumer project (tests/consumer proves it).
include(CMakePackageConfigHelpers)

set(DATACLIENT_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/DataClient)
set(DATACLIENT_INSTALL_QMLDIR ${CMAKE_INSTALL_LIBDIR}/qml)

get_property(dataclient_targets GLOBAL PROPERTY DATACLIENT_LAYER_TARGETS)
# Internal libraries (src/json) are only linked by layers; they are in the export set because
# CMake lists a shared library's private shared dependencies there (for the linker's
# -rpath-link), but no header of theirs is installed, so apps cannot use DataClient::Json.
get_property(dataclient_internal_targets GLOBAL PROPERTY DATACLIENT_INTERNAL_TARGETS)
install(TARGETS ${dataclient_targets} ${dataclient_internal_targets} EXPORT DataClientTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The layers' private API (include/DataClient/private) is built against, never installed.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/DataClient DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  PATTERN private EXCLUDE)

install(EXPORT DataClientTargets NAMESPACE DataClient:: DESTINATION ${DATACLIENT_INSTALL_CMAKEDIR})

# The plugin finds the backing library (lib/libDataClientQml.so) from lib/qml/DataClient.
set_target_properties(DataClientQmlplugin PROPERTIES INSTALL_RPATH "$ORIGIN/../..")
foreach(target IN LISTS dataclient_targets dataclient_internal_targets)
  if(NOT target STREQUAL "DataClient")
    set_target_properties(${target} PROPERTIES INSTALL_RPATH "$ORIGIN")
  endif()
endforeach()

# The QML module: plugin, qmldir, qmltypes and QML files, under <prefix>/lib/qml/DataClient.
install(TARGETS DataClientQmlplugin
  LIBRARY DESTINATION ${DATACLIENT_INSTALL_QMLDIR}/DataClient)
install(DIRECTORY ${QT_QML_OUTPUT_DIRECTORY}/DataClient/
  DESTINATION ${DATACLIENT_INSTALL_QMLDIR}/DataClient
  FILES_MATCHING PATTERN "qmldir" PATTERN "*.qmltypes" PATTERN "*.qml")

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/DataClientConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/DataClientConfig.cmake
  INSTALL_DESTINATION ${DATACLIENT_INSTALL_CMAKEDIR}
  PATH_VARS DATACLIENT_INSTALL_QMLDIR)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/DataClientConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/DataClientConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/DataClientConfigVersion.cmake
  DESTINATION ${DATACLIENT_INSTALL_CMAKEDIR})
