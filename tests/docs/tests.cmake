# The API reference builds without a single Doxygen warning.
if(DOXYGEN_FOUND)
  add_test(NAME docs_api_reference COMMAND ${DOXYGEN_EXECUTABLE} ${CMAKE_BINARY_DIR}/docs/Doxyfile
    WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/docs)
endif()

include(${CMAKE_CURRENT_LIST_DIR}/headers.cmake)

# The code blocks of docs/schemas.md and docs/store.md, compiled and run.
dataclient_add_qtest(tst_schemadocs SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_schemadocs.cpp
  LIBS DataClient::Store Qt6::Network)
