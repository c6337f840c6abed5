# The outbox (docs/offline-outbox.md): its queue and file format alone, then the Controller against the real
# server in virtual time (replay, retries, refusals), the file across restarts, and the race
# between reads and changes that wait.
set(_outbox_src ${PROJECT_SOURCE_DIR}/src/controller)
dataclient_add_qtest(tst_outboxqueue
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_outboxqueue.cpp
  LIBS DataClient::Controller DataClientPersist)
target_include_directories(tst_outboxqueue PRIVATE ${_outbox_src})

foreach(behaviour outbox outboxfile outboxdisk outboxrace outboxinterleavings)
  set(_fixture outboxfixture.h)
  if(behaviour MATCHES "race|interleavings")
    set(_fixture outboxracefixture.h) # reads racing changes that wait
  endif()
  dataclient_add_qtest(tst_${behaviour}
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_${behaviour}.cpp ${CMAKE_CURRENT_LIST_DIR}/${_fixture}
      ${DATACLIENT_TEST_SUPPORT}/virtualtimefixture.h
      ${DATACLIENT_CONTROLLER_TEST_FIXTURE}
    LIBS DataClient::Controller DataClient::Testing Qt6::Network)
  target_include_directories(tst_${behaviour} PRIVATE ${CMAKE_CURRENT_LIST_DIR})
endforeach()
# The file format is read back by the test (OutboxFile's test export).
foreach(reader tst_outboxfile tst_outboxdisk)
  target_link_libraries(${reader} PRIVATE DataClientPersist)
  target_include_directories(${reader} PRIVATE ${_outbox_src})
endforeach()
