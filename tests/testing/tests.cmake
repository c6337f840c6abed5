dataclient_add_qtest(tst_testserver SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_testserver.cpp
  LIBS DataClient::Testing Qt6::Network)
dataclient_add_qtest(tst_fakerestapi SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_fakerestapi.cpp
  ${DATACLIENT_TEST_SUPPORT}/httpcall.h ${DATACLIENT_TEST_SUPPORT}/fakeapitest.h LIBS DataClient::Testing Qt6::Network)
dataclient_add_qtest(tst_fakerestapi_faults
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_fakerestapi_faults.cpp ${DATACLIENT_TEST_SUPPORT}/httpcall.h
    ${DATACLIENT_TEST_SUPPORT}/fakeapitest.h
  LIBS DataClient::Testing Qt6::Network)
dataclient_add_qtest(tst_sampledata
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_sampledata.cpp ${DATACLIENT_TEST_SUPPORT}/httpcall.h
  LIBS DataClient::Testing Qt6::Network)
dataclient_add_qtest(tst_testingdocs SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_testingdocs.cpp
  LIBS DataClient::Testing Qt6::Network)
dataclient_add_qtest(tst_virtualclock SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_virtualclock.cpp
  LIBS DataClient::Testing Qt6::Network)
dataclient_add_qtest(tst_mocknetwork SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_mocknetwork.cpp
  LIBS DataClient::Testing Qt6::Network)
dataclient_add_qtest(tst_await SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_await.cpp
  ${CMAKE_CURRENT_LIST_DIR}/failurerecorder.h LIBS DataClient::Testing Qt6::Network)
dataclient_add_qtest(tst_initialstate SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_initialstate.cpp
  ${CMAKE_CURRENT_LIST_DIR}/failurerecorder.h LIBS DataClient::Testing Qt6::Network)
# Qt Quick tests of the QML module DataClient.Testing (no server).
qt_add_executable(tst_testingqml ${CMAKE_CURRENT_LIST_DIR}/tst_testingqml.cpp)
target_link_libraries(tst_testingqml PRIVATE Qt6::Quick Qt6::QuickTest)
dataclient_apply_strictness(tst_testingqml)
target_compile_definitions(tst_testingqml PRIVATE
  QUICK_TEST_SOURCE_DIR="${CMAKE_CURRENT_LIST_DIR}/qml")
add_dependencies(tst_testingqml DataClientQmlplugin DataClientTestingQmlplugin)
add_test(NAME tst_testingqml COMMAND tst_testingqml)
set_tests_properties(tst_testingqml PROPERTIES ENVIRONMENT "${DATACLIENT_TEST_ENV}" TIMEOUT 120)
dataclient_add_qtest(tst_typedfetch SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_typedfetch.cpp
  ${CMAKE_CURRENT_LIST_DIR}/typedorders.h LIBS DataClient::Testing Qt6::Network)
# Coroutines: optional (DATACLIENT_COROUTINES in cmake/DataClientHelpers.cmake).
if(DATACLIENT_COROUTINES)
  dataclient_add_qtest(tst_coroutines SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_coroutines.cpp
    ${CMAKE_CURRENT_LIST_DIR}/typedorders.h LIBS DataClient::Testing QCoro6::Core)
else()
  message(STATUS "Coroutines off (no QCoro6, or clang 14 with sanitizers): tst_coroutines is not built")
endif()
