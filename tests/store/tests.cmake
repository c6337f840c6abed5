# Store layer tests. What each test covers is said in its file.
foreach(test storekinds storenormalize storebadinput storebignumbers storecollections storeinvalidate storememo storeoptimistic storeprepare storecapacity entityrefset storegc storeslotreuse compactkey entitytable)
  dataclient_add_qtest(tst_${test} SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_${test}.cpp
    ${DATACLIENT_TEST_SUPPORT}/storefixtures.h LIBS DataClient::Store Qt6::Network) # Network: the shared test PCH expects it
endforeach()
# The capacity test lowers the store's entity capacity through a private hook (tables_p.h).
target_include_directories(tst_storecapacity PRIVATE ${PROJECT_SOURCE_DIR}/src/store)
# The pk key type is private to the store (compactkey_p.h, header only).
target_include_directories(tst_compactkey PRIVATE ${PROJECT_SOURCE_DIR}/src/store)
# The pk index is private to the store (tables_p.h, EntityTable exported for tests).
target_include_directories(tst_entitytable PRIVATE ${PROJECT_SOURCE_DIR}/src/store)
target_link_libraries(tst_entitytable PRIVATE DataClientJson)
# Slot reuse counts a table's slots through the persisted store's snapshot (storesnapshot_p.h).
target_link_libraries(tst_storeslotreuse PRIVATE DataClientJson)
# The normalizing tests lower the list size from which it reads ahead (normalizer_p.h).
target_include_directories(tst_storenormalize PRIVATE ${PROJECT_SOURCE_DIR}/src/store)
target_include_directories(tst_storebadinput PRIVATE ${PROJECT_SOURCE_DIR}/src/store)
