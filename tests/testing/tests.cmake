dataclient_add_qtest(tst_testserver SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_testserver.cpp
  LIBS DataClient::Testing Qt6::Network)
dataclient_add_qtest(tst_fakerestapi SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_fakerestapi.cpp
  ${CMAKE_CURRENT_LIST_DIR}/httpcall.h ${CMAKE_CURRENT_LIST_DIR}/fakeapitest.h LIBS DataClient::Testing Qt6::Network)
dataclient_add_qtest(tst_fakerestapi_faults
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_fakerestapi_faults.cpp ${CMAKE_CURRENT_LIST_DIR}/httpcall.h
    ${CMAKE_CURRENT_LIST_DIR}/fakeapitest.h
  LIBS DataClient::Testing Qt6::Network)
dataclient_add_qtest(tst_sampledata
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_sampledata.cpp ${CMAKE_CURRENT_LIST_DIR}/httpcall.h
  LIBS DataClient::Testing Qt6::Network)
dataclient_add_qtest(tst_testingdocs SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_testingdocs.cpp
  LIBS DataClient::Testing Qt6::Network)
