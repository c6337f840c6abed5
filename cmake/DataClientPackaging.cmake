# Debian packages of an installed build (`./dev package`, docs/packaging.md), split the way Debian
# splits Qt libraries, one per install component of cmake/DataClientInstall.cmake:
#   libdataclient<soversion>          Runtime: the core's shared libraries
#   qml6-module-dataclient            Qml: `import DataClient`, in Qt's QML directory
#   libdataclient-testing<soversion>  TestingRuntime: the test kit's shared libraries
#   qml6-module-dataclient-testing    TestingQml: `import DataClient.Testing`
#   libdataclient-inspector<soversion> InspectorRuntime: the store inspector's libraries
#   qml6-module-dataclient-inspector  InspectorQml: `import DataClient.Inspector`
#   libdataclient-oauth<soversion>    OAuthRuntime: DataClient::OAuth (when it was built)
#   libdataclient-dev                 Development: headers, CMake package, name links
# Library dependencies come from the binaries (dpkg-shlibdeps); the QML modules also depend on
# the Qt QML modules their QML files import, which no binary names.
set(CPACK_PACKAGE_NAME dataclient)
set(CPACK_PACKAGE_VENDOR "The DataClient authors")
set(CPACK_PACKAGE_CONTACT "DataClient maintainers <dataclient@example.org>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_HOMEPAGE_URL "https://example.org/dataclient")
set(CPACK_GENERATOR DEB)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(dataclient_deb_components Runtime Qml TestingRuntime TestingQml InspectorRuntime InspectorQml)
if(TARGET DataClientOAuth)
  list(APPEND dataclient_deb_components OAuthRuntime)
endif()
list(APPEND dataclient_deb_components Development)
set(CPACK_COMPONENTS_ALL ${dataclient_deb_components})
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# The Debian revision: a rebuild of the same version gets a higher one (`./dev package` takes it
# from DATACLIENT_PACKAGE_RELEASE), so that it installs over the older build.
set(DATACLIENT_PACKAGE_RELEASE 1 CACHE STRING "The Debian revision of the packages (0.1.0-<this>)")
set(CPACK_DEBIAN_PACKAGE_RELEASE ${DATACLIENT_PACKAGE_RELEASE})
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# dpkg-shlibdeps of one package must find the libraries of its sibling packages (the QML plugin
# needs libDataClientQml from the runtime package): their staged trees. The dependency between
# the packages themselves comes from the components' DEPENDS below.
set(dataclient_staging ${CMAKE_BINARY_DIR}/_CPack_Packages/Linux/DEB/dataclient-${PROJECT_VERSION}-Linux)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS
  ${dataclient_staging}/Runtime/${CMAKE_INSTALL_FULL_LIBDIR}
  ${dataclient_staging}/TestingRuntime/${CMAKE_INSTALL_FULL_LIBDIR}
  ${dataclient_staging}/InspectorRuntime/${CMAKE_INSTALL_FULL_LIBDIR})
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)

# The Description field: the summary line, then the extended description, paragraphs apart by
# an empty line (CPack indents the lines and writes " ." as Debian policy 5.6.13 asks). Each
# package has its own summary line: CPack puts CPACK_PACKAGE_DESCRIPTION_SUMMARY in front of
# every package's description unless it is CPack's default, so it is left at that.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${CMAKE_PROJECT_NAME} built using CMake")
string(CONCAT dataclient_long_description
  "DataClient turns a REST API into a normalized entity store for Qt apps: one\n"
  "createResource() call makes the endpoints, a Controller owns the store, and\n"
  "QML queries and C++ list models update with the smallest model signals\n"
  "whenever an entity they show changes.")

function(dataclient_deb component name section summary)
  string(TOUPPER ${component} upper)
  set(CPACK_DEBIAN_${upper}_PACKAGE_NAME ${name} PARENT_SCOPE)
  set(CPACK_DEBIAN_${upper}_PACKAGE_SECTION ${section} PARENT_SCOPE)
  set(CPACK_DEBIAN_${upper}_DESCRIPTION "${summary}\n${dataclient_long_description}\n\n${ARGN}"
    PARENT_SCOPE)
endfunction()

dataclient_deb(Runtime libdataclient${DATACLIENT_SOVERSION} libs
  "reactive, normalized REST data layer for Qt 6 - libraries"
  "This package contains the shared libraries.")
dataclient_deb(Qml qml6-module-dataclient libs
  "reactive, normalized REST data layer for Qt 6 - QML module"
  "This package contains the QML module DataClient.")
dataclient_deb(TestingRuntime libdataclient-testing${DATACLIENT_SOVERSION} libs
  "reactive, normalized REST data layer for Qt 6 - test kit"
  "This package contains the test kit's shared libraries.")
dataclient_deb(TestingQml qml6-module-dataclient-testing libs
  "reactive, normalized REST data layer for Qt 6 - QML test kit"
  "This package contains the QML module DataClient.Testing.")
dataclient_deb(InspectorRuntime libdataclient-inspector${DATACLIENT_SOVERSION} libs
  "reactive, normalized REST data layer for Qt 6 - store inspector"
  "This package contains the store inspector's shared libraries (item models, a Widgets dock).")
dataclient_deb(InspectorQml qml6-module-dataclient-inspector libs
  "reactive, normalized REST data layer for Qt 6 - QML store inspector"
  "This package contains the QML module DataClient.Inspector.")
dataclient_deb(OAuthRuntime libdataclient-oauth${DATACLIENT_SOVERSION} libs
  "reactive, normalized REST data layer for Qt 6 - OAuth 2 token source"
  "This package contains DataClient::OAuth, a Qt Network Authorization flow as a token source.")
dataclient_deb(Development libdataclient-dev libdevel
  "reactive, normalized REST data layer for Qt 6 - development files"
  "This package contains the headers and the CMake package.")

# What no binary names: the Qt QML modules the QML files import, and what find_package(DataClient)
# looks for (cmake/DataClientConfig.cmake.in).
set(CPACK_DEBIAN_QML_PACKAGE_DEPENDS
  "qml6-module-qtqml, qml6-module-qtqml-models, qml6-module-qtqml-workerscript, qml6-module-qtquick")
set(CPACK_DEBIAN_TESTINGQML_PACKAGE_DEPENDS "qml6-module-qtqml, qml6-module-qttest")
set(CPACK_DEBIAN_INSPECTORQML_PACKAGE_DEPENDS
  "qml6-module-qtqml, qml6-module-qtqml-models, qml6-module-qtquick, qml6-module-qtquick-controls,
  qml6-module-qtquick-layouts")
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_DEPENDS
  "qt6-base-dev (>= 6.4), qt6-declarative-dev (>= 6.4), qt6-websockets-dev (>= 6.4)")

# The shared libraries' packages tell ldconfig through a trigger (Debian policy 8.1.1), instead
# of the postinst/postrm scripts CPack would write: their own scripts do nothing else.
foreach(upper RUNTIME TESTINGRUNTIME INSPECTORRUNTIME OAUTHRUNTIME)
  set(CPACK_DEBIAN_${upper}_PACKAGE_CONTROL_EXTRA ${PROJECT_SOURCE_DIR}/packaging/triggers
    ${PROJECT_SOURCE_DIR}/packaging/postinst ${PROJECT_SOURCE_DIR}/packaging/postrm)
endforeach()

include(CPack)
cpack_add_component(Runtime)
cpack_add_component(Qml DEPENDS Runtime)
cpack_add_component(TestingRuntime DEPENDS Runtime)
cpack_add_component(TestingQml DEPENDS TestingRuntime Qml)
cpack_add_component(InspectorRuntime DEPENDS Runtime)
cpack_add_component(InspectorQml DEPENDS InspectorRuntime Qml)
if(TARGET DataClientOAuth)
  cpack_add_component(OAuthRuntime DEPENDS Runtime)
endif()
list(REMOVE_ITEM dataclient_deb_components Development)
cpack_add_component(Development DEPENDS ${dataclient_deb_components})

# Each package carries its copyright and changelog, as Debian policy asks.
string(TIMESTAMP DATACLIENT_CHANGELOG_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)
configure_file(${PROJECT_SOURCE_DIR}/packaging/changelog.Debian.in
  ${CMAKE_CURRENT_BINARY_DIR}/packaging/changelog.Debian @ONLY)
execute_process(COMMAND gzip -9nf ${CMAKE_CURRENT_BINARY_DIR}/packaging/changelog.Debian
  RESULT_VARIABLE gzip_result)
if(NOT gzip_result EQUAL 0)
  message(FATAL_ERROR "Packaging: gzip of packaging/changelog.Debian failed (${gzip_result})")
endif()
foreach(component IN LISTS CPACK_COMPONENTS_ALL)
  string(TOUPPER ${component} upper)
  set(docdir ${CMAKE_INSTALL_DATAROOTDIR}/doc/${CPACK_DEBIAN_${upper}_PACKAGE_NAME})
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/copyright DESTINATION ${docdir}
    COMPONENT ${component})
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/packaging/changelog.Debian.gz DESTINATION ${docdir}
    COMPONENT ${component})
endforeach()
