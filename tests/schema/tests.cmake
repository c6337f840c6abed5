# Schema layer tests.
foreach(test decimal deserializer compactjson compactnumbers compactutf8 schema rowlist)
  dataclient_add_qtest(tst_${test} SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_${test}.cpp
    LIBS DataClient::Schema Qt6::Network) # Network: the shared test PCH expects it
endforeach()
# Typed results go through the store.
dataclient_add_qtest(tst_entityschema SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_entityschema.cpp
  LIBS DataClient::Store Qt6::Network)
# The UTF-8 test also checks the helper the QJsonDocument paths call (the JSON library's utf8_p.h).
target_link_libraries(tst_compactutf8 PRIVATE DataClientJson)
# The parse test calls the JSON library's clearUpperVectorState() (vectorstate_p.h).
target_link_libraries(tst_compactjson PRIVATE DataClientJson)
dataclient_add_qtest(tst_schemawalk SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_schemawalk.cpp
  LIBS DataClient::Schema Qt6::Network)
# A pk that cannot be computed from a record is refused, for each way of declaring one.
dataclient_add_qtest(tst_gadgetpk SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_gadgetpk.cpp ${DATACLIENT_TEST_SUPPORT}/gadgettodo.h
  LIBS DataClient::Store Qt6::Network)
# Records and RowLists through QVariant's conversions, toJsonValue() and qDebug() (read from a
# store); the value types' shared idiom (the REST layer's among them).
dataclient_add_qtest(tst_valueconversions SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_valueconversions.cpp
  LIBS DataClient::Rest Qt6::Network)
