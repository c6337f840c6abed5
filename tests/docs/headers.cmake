# Every installed header appears in docs/api.md, and (DATACLIENT_HEADER_CHECK, the dev preset:
# one build configuration of CI is enough) compiles on its own, with nothing included before
# it: one tiny translation unit per header, no precompiled header (it would hide a missing
# include), the project's warnings as errors. About 2.5 CPU-minutes without ccache.
add_test(NAME headers_in_api_list
  COMMAND ${CMAKE_COMMAND} -DINCLUDE_DIR=${PROJECT_SOURCE_DIR}/include
    -DAPI_LIST=${PROJECT_SOURCE_DIR}/docs/api.md -P ${CMAKE_CURRENT_LIST_DIR}/checkapilist.cmake)
if(NOT DATACLIENT_HEADER_CHECK)
  return()
endif()
file(GLOB dataclient_installed_headers RELATIVE ${PROJECT_SOURCE_DIR}/include
  ${PROJECT_SOURCE_DIR}/include/DataClient/*.h ${PROJECT_SOURCE_DIR}/include/DataClient/testing/*.h)
set(header_check_libs DataClient::Qml DataClient::Testing)
set(header_check_sources)
foreach(header IN LISTS dataclient_installed_headers)
  # The headers of optional libraries, when they are built.
  if(header MATCHES "/oauth2tokensource\\.h$")
    if(NOT TARGET DataClientOAuth)
      continue()
    endif()
    list(APPEND header_check_libs DataClient::OAuth)
  elseif(header MATCHES "/inspectordock\\.h$")
    if(NOT TARGET DataClientInspectorWidgets)
      continue()
    endif()
    list(APPEND header_check_libs DataClient::InspectorWidgets)
  elseif(header MATCHES "/(inspector[a-z]*|storeinspector)\\.h$")
    if(NOT TARGET DataClientInspector)
      continue()
    endif()
    list(APPEND header_check_libs DataClient::Inspector)
  endif()
  string(MAKE_C_IDENTIFIER ${header} name)
  set(source ${CMAKE_CURRENT_BINARY_DIR}/headercheck/${name}.cpp)
  # Twice: the second inclusion must be a no-op (#pragma once).
  file(CONFIGURE OUTPUT ${source} CONTENT "#include <${header}>\n#include <${header}>\n" @ONLY)
  list(APPEND header_check_sources ${source})
endforeach()
list(REMOVE_DUPLICATES header_check_libs)
add_library(dataclient_header_check OBJECT ${header_check_sources})
target_link_libraries(dataclient_header_check PRIVATE ${header_check_libs})
dataclient_apply_strictness(dataclient_header_check)
# Building the target is the check; ctest asks for it again (a no-op once built).
add_test(NAME headers_compile_alone
  COMMAND ${CMAKE_COMMAND} --build ${CMAKE_BINARY_DIR} --target dataclient_header_check)
