# The API reference builds without a single Doxygen warning.
if(DOXYGEN_FOUND)
  add_test(NAME docs_api_reference COMMAND ${DOXYGEN_EXECUTABLE} ${CMAKE_BINARY_DIR}/docs/Doxyfile
    WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/docs)
endif()
