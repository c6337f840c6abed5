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
