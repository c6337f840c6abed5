# QML layer tests (issue 6): the list diff, CollectionModel (C++, QAbstractItemModelTester) and the
# Qt Quick tests in tests/qml/*.qml run by tst_qml against the in-process FakeRestApi server.
dataclient_add_qtest(tst_listdiff SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_listdiff.cpp
  LIBS DataClient::Qml)
target_include_directories(tst_listdiff PRIVATE ${PROJECT_SOURCE_DIR}/src/qml)
