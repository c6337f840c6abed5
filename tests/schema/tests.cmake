# Schema layer tests (issue 3).
foreach(test decimal deserializer compactjson schema entityschema)
  if(EXISTS ${CMAKE_CURRENT_LIST_DIR}/tst_${test}.cpp)
    dataclient_add_qtest(tst_${test} SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_${test}.cpp
      LIBS DataClient::Schema Qt6::Network) # Network: the shared test PCH expects it
  endif()
endforeach()
