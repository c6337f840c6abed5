# The JSON library's tests (src/json, internal to the layers): its parser split across threads,
# its nodes' fingerprints and arena, and the shape registry's bounds. They reach the library's
# private headers (include/DataClient/private: jsonparser_p.h, node_p.h, nodearena_p.h, shape_p.h)
# by linking DataClientJson.
foreach(test parsesplit nodefingerprint)
  dataclient_add_qtest(tst_${test} SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_${test}.cpp
    LIBS DataClient::Schema DataClientJson Qt6::Network) # Network: the shared test PCH expects it
endforeach()
foreach(test nodearena shaperegistry)
  dataclient_add_qtest(tst_${test} SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_${test}.cpp
    ${DATACLIENT_TEST_SUPPORT}/storefixtures.h LIBS DataClient::Store DataClientJson Qt6::Network)
endforeach()
