# `docs` target: the API reference (Doxygen) from the public headers. Warnings fail the build,
# and tests/docs runs it so a broken doc comment fails the suite when doxygen is installed.
find_package(Doxygen QUIET)
if(DOXYGEN_FOUND)
  configure_file(${PROJECT_SOURCE_DIR}/docs/Doxyfile.in ${CMAKE_BINARY_DIR}/docs/Doxyfile @ONLY)
  add_custom_target(docs
    COMMAND ${DOXYGEN_EXECUTABLE} ${CMAKE_BINARY_DIR}/docs/Doxyfile
    WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/docs
    COMMENT "API reference -> ${CMAKE_BINARY_DIR}/docs/api/html/index.html")
endif()
