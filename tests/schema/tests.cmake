# Schema layer tests (issue 3).
foreach(test decimal deserializer compactjson compactnumbers schema)
  if(EXISTS ${CMAKE_CURRENT_LIST_DIR}/tst_${test}.cpp)
    dataclient_add_qtest(tst_${test} SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_${test}.cpp
      LIBS DataClient::Schema Qt6::Network) # Network: the shared test PCH expects it
  endif()
endforeach()
# Typed results go through the store.
dataclient_add_qtest(tst_entityschema SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_entityschema.cpp
  LIBS DataClient::Store Qt6::Network)
