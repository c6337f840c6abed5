# The persisted store (docs/offline.md): the file, the Controller's write-behind and
# hydration, and restarts and kills of a child process (persistchild).
dataclient_add_qtest(tst_persistfile SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_persistfile.cpp
  ${CMAKE_CURRENT_LIST_DIR}/persistfixture.h LIBS DataClient::Controller DataClientPersist DataClientStore DataClientJson Qt6::Network)
dataclient_add_qtest(tst_verifiedwrite SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_verifiedwrite.cpp
  ${DATACLIENT_TEST_SUPPORT}/smalltmpfs.h LIBS DataClientPersist Qt6::Network)
dataclient_add_qtest(tst_persistfailure SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_persistfailure.cpp
  ${CMAKE_CURRENT_LIST_DIR}/persistfixture.h ${DATACLIENT_TEST_SUPPORT}/smalltmpfs.h
  LIBS DataClient::Controller DataClient::Testing DataClientPersist DataClientStore DataClientJson
    Qt6::Network)
dataclient_add_qtest(tst_persistcontroller SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_persistcontroller.cpp
  ${CMAKE_CURRENT_LIST_DIR}/persistfixture.h LIBS DataClient::DataClient DataClient::Testing Qt6::Network)

qt_add_executable(persistchild ${CMAKE_CURRENT_LIST_DIR}/persistchild.cpp)
target_link_libraries(persistchild PRIVATE DataClient::Controller)
dataclient_apply_strictness(persistchild)
dataclient_add_qtest(tst_persistrestart SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_persistrestart.cpp
  ${CMAKE_CURRENT_LIST_DIR}/persistfixture.h
  LIBS DataClient::Controller DataClient::Testing DataClientPersist DataClientStore DataClientJson Qt6::Network)
add_dependencies(tst_persistrestart persistchild)
target_compile_definitions(tst_persistrestart PRIVATE
  PERSISTCHILD="$<TARGET_FILE:persistchild>")
