# QML layer tests: CollectionModel (C++, QAbstractItemModelTester) and the Qt Quick
# tests in tests/qml/*.qml run by tst_qml against the in-process FakeRestApi server. The list diff
# and the row synchronisation live with the models layer (tests/models).

# Qt Quick tests: tests/qml/tst_*.qml, run by one QUICK_TEST_MAIN_WITH_SETUP executable that
# serves a FakeRestApi backend in-process (offscreen).
find_package(Qt6 REQUIRED COMPONENTS Quick QuickTest)
qt_add_executable(tst_qml ${CMAKE_CURRENT_LIST_DIR}/tst_qml.cpp
  ${CMAKE_CURRENT_LIST_DIR}/testbackend.h ${CMAKE_CURRENT_LIST_DIR}/testbackend.cpp)
target_link_libraries(tst_qml PRIVATE DataClient::Qml DataClient::Testing Qt6::Quick Qt6::QuickTest)
dataclient_apply_strictness(tst_qml)
target_compile_definitions(tst_qml PRIVATE QUICK_TEST_SOURCE_DIR="${CMAKE_CURRENT_LIST_DIR}")
add_dependencies(tst_qml DataClientQmlplugin)
add_test(NAME tst_qml COMMAND tst_qml)
set_tests_properties(tst_qml PROPERTIES ENVIRONMENT "${DATACLIENT_TEST_ENV}" TIMEOUT 180)

dataclient_add_qtest(tst_qmlcontroller SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_qmlcontroller.cpp
  LIBS DataClient::Qml)

# Large answers of QML Resources off the GUI thread (the path is read from debug messages).
dataclient_add_qtest(tst_qmloffthread SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_qmloffthread.cpp
  LIBS DataClient::Qml DataClient::Testing)

# The module's QML files and the examples' stay qmllint-clean: qmllint exits non-zero
# on any warning, so a warning fails this test.
add_test(NAME qmllint COMMAND ${CMAKE_COMMAND} --build ${CMAKE_BINARY_DIR} --target all_qmllint)
set_tests_properties(qmllint PROPERTIES TIMEOUT 300)

# A single-entity query whose entity is deleted shows nothing (Invalid) and refetches.
dataclient_add_qtest(tst_deletedentityquery SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_deletedentityquery.cpp
  LIBS DataClient::Qml DataClient::Testing)

