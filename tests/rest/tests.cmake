# REST layer tests. Network tests use the in-process TestServer (DataClient::Testing).
dataclient_add_qtest(tst_pathtemplate SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_pathtemplate.cpp
  LIBS DataClient::Rest)
dataclient_add_qtest(tst_restendpoint SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_restendpoint.cpp
  LIBS DataClient::Rest)
dataclient_add_qtest(tst_restrequests SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_restrequests.cpp ${DATACLIENT_TEST_SUPPORT}/servertest.h
  LIBS DataClient::Rest DataClient::Testing)
dataclient_add_qtest(tst_restresponses SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_restresponses.cpp ${DATACLIENT_TEST_SUPPORT}/servertest.h
  LIBS DataClient::Rest DataClient::Testing)
dataclient_add_qtest(tst_resource SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_resource.cpp
  LIBS DataClient::Rest DataClient::Testing)
dataclient_add_qtest(tst_resourceoptions
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_resourceoptions.cpp ${DATACLIENT_TEST_SUPPORT}/servertest.h
  LIBS DataClient::Rest DataClient::Testing)
dataclient_add_qtest(tst_resourceextend SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_resourceextend.cpp
  LIBS DataClient::Rest DataClient::Testing)
dataclient_add_qtest(tst_customkeys SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_customkeys.cpp ${DATACLIENT_TEST_SUPPORT}/servertest.h
  LIBS DataClient::Rest DataClient::Testing)
dataclient_add_qtest(tst_customresponses SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_customresponses.cpp ${DATACLIENT_TEST_SUPPORT}/servertest.h
  LIBS DataClient::Rest DataClient::Testing)
dataclient_add_qtest(tst_credentials SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_credentials.cpp
  LIBS DataClient::Rest DataClient::Testing)
dataclient_add_qtest(tst_restcompact SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_restcompact.cpp ${DATACLIENT_TEST_SUPPORT}/servertest.h ${DATACLIENT_TEST_SUPPORT}/logcapture.h
  LIBS DataClient::Rest DataClient::Testing)
dataclient_add_qtest(tst_hostileserver SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_hostileserver.cpp ${DATACLIENT_TEST_SUPPORT}/servertest.h
  LIBS DataClient::Rest DataClient::Testing)
dataclient_add_qtest(tst_fetchlistas SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_fetchlistas.cpp ${DATACLIENT_TEST_SUPPORT}/servertest.h
  LIBS DataClient::Rest DataClient::Testing)
# RequestContext: headers, validators, deadline, abort group and results passed with a request.
dataclient_add_qtest(tst_requestcontext SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_requestcontext.cpp ${DATACLIENT_TEST_SUPPORT}/servertest.h ${DATACLIENT_TEST_SUPPORT}/rawhttpserver.h
  LIBS DataClient::Rest DataClient::Testing)
# The text/event-stream parser, alone (compiled in: a private class of the rest layer).
set(_rest_src ${PROJECT_SOURCE_DIR}/src/rest)
dataclient_add_qtest(tst_sseparser SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_sseparser.cpp
  ${_rest_src}/sseparser.cpp ${_rest_src}/sseparser_p.h LIBS Qt6::Network)
target_include_directories(tst_sseparser PRIVATE ${_rest_src})
# The push sources (EventSource, WebSocketSource) against real sockets.
dataclient_add_qtest(tst_livesources SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_livesources.cpp
  LIBS DataClient::Rest DataClient::Testing)
# The option keyCase: query keys, bodies and answers between the server's case and the app's.
dataclient_add_qtest(tst_keycase SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_keycase.cpp ${DATACLIENT_TEST_SUPPORT}/servertest.h
  LIBS DataClient::Controller DataClient::Testing)
