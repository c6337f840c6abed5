# The fault suite, the soak and the security tests (docs/reliability.md):
# against the real in-process server (TestServer + FakeRestApi).
set(_faults_support ${CMAKE_CURRENT_LIST_DIR}/faultsuite.h ${CMAKE_CURRENT_LIST_DIR}/serverview.h
  ${DATACLIENT_TEST_SUPPORT}/controllerfixture.h)

foreach(family answers bodies lifetime)
  dataclient_add_qtest(tst_faults_${family}
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_faults_${family}.cpp ${_faults_support}
    LIBS DataClient::Controller DataClient::Qml DataClient::Testing Qt6::Network Qt6::Qml)
  target_include_directories(tst_faults_${family} PRIVATE ${CMAKE_CURRENT_LIST_DIR})
endforeach()

# The soak: seeds run one after another for DATACLIENT_SOAK_SECONDS (default 8 s) per run.
dataclient_add_qtest(tst_soak
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_soak.cpp ${CMAKE_CURRENT_LIST_DIR}/serverview.h
    ${CMAKE_CURRENT_LIST_DIR}/soakseeds.h
  LIBS DataClient::Controller DataClient::Testing Qt6::Network)
target_include_directories(tst_soak PRIVATE ${CMAKE_CURRENT_LIST_DIR})

# Security: path segments, CR/LF/NUL, TLS (a self-signed certificate in data/), the sources.
dataclient_add_qtest(tst_security
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_security.cpp ${DATACLIENT_TEST_SUPPORT}/servertest.h
  LIBS DataClient::Rest DataClient::Testing Qt6::Network)
target_compile_definitions(tst_security PRIVATE
  DATACLIENT_FAULTS_DATA="${CMAKE_CURRENT_LIST_DIR}/data"
  DATACLIENT_SOURCE_DIR="${PROJECT_SOURCE_DIR}")

# Answers whose size or content the head does not tell (chunked, close-delimited, gzip, deflate,
# undecodable), served raw at full speed.
dataclient_add_qtest(tst_faults_encodings
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_faults_encodings.cpp ${DATACLIENT_TEST_SUPPORT}/rawhttpserver.h
    ${DATACLIENT_TEST_SUPPORT}/controllerfixture.h
  LIBS DataClient::Controller DataClient::Testing Qt6::Network)

# The views soak: CollectionModels over paged, filtered lists against a model of the server,
# through offline spells and restarts (DATACLIENT_SOAK_SECONDS, like tst_soak).
dataclient_add_qtest(tst_viewsoak
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_viewsoak.cpp ${CMAKE_CURRENT_LIST_DIR}/serverview.h
    ${CMAKE_CURRENT_LIST_DIR}/soakseeds.h
  LIBS DataClient::Models DataClient::Controller DataClient::Testing Qt6::Network)
target_include_directories(tst_viewsoak PRIVATE ${CMAKE_CURRENT_LIST_DIR})
