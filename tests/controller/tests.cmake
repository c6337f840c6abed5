# Controller tests: against the real in-process server (TestServer + FakeRestApi).
set(DATACLIENT_CONTROLLER_TEST_FIXTURE ${DATACLIENT_TEST_SUPPORT}/controllerfixture.h)
foreach(behaviour fetch expiry race optimistic collections polling lifetime faults)
  dataclient_add_qtest(tst_controller_${behaviour}
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_controller_${behaviour}.cpp ${DATACLIENT_CONTROLLER_TEST_FIXTURE}
    LIBS DataClient::Controller DataClient::Testing Qt6::Network)
endforeach()

# The snippets of docs/controller.md, optimistic-updates.md and polling.md, compiled and run.
dataclient_add_qtest(tst_controller_docs
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_controller_docs.cpp ${DATACLIENT_CONTROLLER_TEST_FIXTURE}
  LIBS DataClient::Controller DataClient::Testing Qt6::Network)
target_compile_definitions(tst_controller_docs PRIVATE
  DATACLIENT_CONTROLLER_DOCS_TEST="${CMAKE_CURRENT_LIST_DIR}/tst_controller_docs.cpp"
  DATACLIENT_DOCS_DIR="${PROJECT_SOURCE_DIR}/docs")

# The private building blocks, reached through their test exports (testexport_p.h).
set(_controller_src ${PROJECT_SOURCE_DIR}/src/controller)
dataclient_add_qtest(tst_controller_units
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_controller_units.cpp
  LIBS DataClient::Controller)
target_include_directories(tst_controller_units PRIVATE ${_controller_src})

# The Controller's one scheduler for time, alone and under a manual clock.
dataclient_add_qtest(tst_scheduler
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_scheduler.cpp
  LIBS DataClient::Controller)
target_include_directories(tst_scheduler PRIVATE ${_controller_src})

# Large answers parsed and normalized off the GUI thread, seen by a model too.
dataclient_add_qtest(tst_offthreadanswers
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_offthreadanswers.cpp ${CMAKE_CURRENT_LIST_DIR}/offthreadfixture.h
    ${DATACLIENT_TEST_SUPPORT}/logcapture.h ${DATACLIENT_CONTROLLER_TEST_FIXTURE}
  LIBS DataClient::Qml DataClient::Testing Qt6::Network)
# The same while the Controller, the store or the answer change under the worker.
dataclient_add_qtest(tst_offthreadlifetime
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_offthreadlifetime.cpp ${CMAKE_CURRENT_LIST_DIR}/offthreadfixture.h
    ${DATACLIENT_TEST_SUPPORT}/logcapture.h ${DATACLIENT_CONTROLLER_TEST_FIXTURE}
  LIBS DataClient::Qml DataClient::Testing Qt6::Network)

# The app-wide defaults are deleted before the application object is torn down (a probe program).
add_executable(dataclient-teardown-probe ${CMAKE_CURRENT_LIST_DIR}/teardownprobe.cpp)
target_link_libraries(dataclient-teardown-probe PRIVATE DataClient::Controller Qt6::Network)
dataclient_apply_strictness(dataclient-teardown-probe)
dataclient_add_qtest(tst_controller_teardown
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_controller_teardown.cpp
    ${DATACLIENT_TEST_SUPPORT}/processrun.h
  LIBS Qt6::Network)
target_compile_definitions(tst_controller_teardown PRIVATE
  TEARDOWN_PROBE="$<TARGET_FILE:dataclient-teardown-probe>")
add_dependencies(tst_controller_teardown dataclient-teardown-probe)

# The `Collection` option of createResource(): which stored lists a created entity joins.
dataclient_add_qtest(tst_collectionoption
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_collectionoption.cpp ${DATACLIENT_CONTROLLER_TEST_FIXTURE}
  LIBS DataClient::Controller DataClient::Testing Qt6::Network)

# HTTP validators: ETag / Last-Modified sent back, 304 kept without a signal.
dataclient_add_qtest(tst_validators
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_validators.cpp ${DATACLIENT_CONTROLLER_TEST_FIXTURE}
  LIBS DataClient::Qml DataClient::Testing Qt6::Network)
# An endpoint that sends later stays in its request's context: aborted with it, sends its validators.
dataclient_add_qtest(tst_latesending
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_latesending.cpp ${DATACLIENT_CONTROLLER_TEST_FIXTURE}
  LIBS DataClient::Controller DataClient::Testing Qt6::Network)
# The validator table and what a 304 means, alone.
dataclient_add_qtest(tst_validatortable
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_validatortable.cpp
  LIBS DataClient::Controller)
target_include_directories(tst_validatortable PRIVATE ${_controller_src})
# Retries with backoff: the real server, virtual time; the backoff rules alone too.
dataclient_add_qtest(tst_retry
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_retry.cpp ${DATACLIENT_CONTROLLER_TEST_FIXTURE}
    ${DATACLIENT_TEST_SUPPORT}/virtualtimefixture.h
  LIBS DataClient::Controller DataClient::Testing Qt6::Network)
target_include_directories(tst_retry PRIVATE ${_controller_src})

# Connectivity and application state: the real server, virtual time, a manual source.
foreach(behaviour connectivity appstate resumerefetch)
  dataclient_add_qtest(tst_${behaviour}
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_${behaviour}.cpp ${DATACLIENT_TEST_SUPPORT}/virtualtimefixture.h
      ${DATACLIENT_CONTROLLER_TEST_FIXTURE}
    LIBS DataClient::Controller DataClient::Testing Qt6::Network)
endforeach()

# A query (CollectionModel) on a network that fails and goes offline.
dataclient_add_qtest(tst_querynetwork
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_querynetwork.cpp ${DATACLIENT_TEST_SUPPORT}/virtualtimefixture.h
    ${DATACLIENT_CONTROLLER_TEST_FIXTURE}
  LIBS DataClient::Qml DataClient::Testing Qt6::Network)

# Garbage collection and the memory budget (docs/memory.md), in virtual time.
dataclient_add_qtest(tst_garbagecollection
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_garbagecollection.cpp ${DATACLIENT_CONTROLLER_TEST_FIXTURE}
  LIBS DataClient::Qml DataClient::Testing Qt6::Network)

# Optimistic creates without client ids: placeholder rows, held writes.
dataclient_add_qtest(tst_placeholders
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_placeholders.cpp ${DATACLIENT_TEST_SUPPORT}/placeholderbackend.h
    ${DATACLIENT_CONTROLLER_TEST_FIXTURE}
  LIBS DataClient::Controller DataClient::Testing Qt6::Network)

# Mutations against trailing-slash routes: refused redirects, 307/308/303, list paths.
dataclient_add_qtest(tst_redirectedmutations
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_redirectedmutations.cpp ${DATACLIENT_CONTROLLER_TEST_FIXTURE}
    ${DATACLIENT_TEST_SUPPORT}/gadgettodo.h
  LIBS DataClient::Controller DataClient::Testing Qt6::Network)

# Entities written without an endpoint (Controller::set() and remove()): views, the race rule,
# optimistic guesses, persistence, bad input.
dataclient_add_qtest(tst_controllerentitywrites
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_controllerentitywrites.cpp ${DATACLIENT_CONTROLLER_TEST_FIXTURE}
  LIBS DataClient::Controller DataClient::Testing Qt6::Network)

# The application's managers (Controller::addManager()) end to end, their bad input and their
# combinations with connectivity, the outbox and a reset; the three managers of docs/managers.md
# (examples/managers, compiled in) and the page's code blocks.
foreach(name appmanagers appmanagers_input)
  dataclient_add_qtest(tst_${name}
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_${name}.cpp ${CMAKE_CURRENT_LIST_DIR}/appmanagersfixture.h
      ${DATACLIENT_TEST_SUPPORT}/virtualtimefixture.h ${DATACLIENT_CONTROLLER_TEST_FIXTURE}
    LIBS DataClient::Qml DataClient::Testing Qt6::Network)
endforeach()
set(_managers_example ${PROJECT_SOURCE_DIR}/examples/managers)
dataclient_add_qtest(tst_managers_docs
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_managers_docs.cpp ${CMAKE_CURRENT_LIST_DIR}/appmanagersfixture.h
    ${DATACLIENT_TEST_SUPPORT}/virtualtimefixture.h ${DATACLIENT_CONTROLLER_TEST_FIXTURE}
    ${_managers_example}/requestlogger.h ${_managers_example}/requestlogger.cpp
    ${_managers_example}/requestmetrics.h ${_managers_example}/requestmetrics.cpp
    ${_managers_example}/tokenauth.h ${_managers_example}/tokenauth.cpp
    ${DATACLIENT_TEST_SUPPORT}/testtokensource.h
  LIBS DataClient::Controller DataClient::Testing Qt6::Network)
target_include_directories(tst_managers_docs PRIVATE ${_managers_example})
target_compile_definitions(tst_managers_docs PRIVATE
  DATACLIENT_MANAGERS_DOCS_TEST="${CMAKE_CURRENT_LIST_DIR}/tst_managers_docs.cpp"
  DATACLIENT_MANAGERS_EXAMPLE_DIR="${_managers_example}"
  DATACLIENT_DOCS_DIR="${PROJECT_SOURCE_DIR}/docs")
# Pushed messages as store writes (LiveFeed), seen by list models, against real sockets.
dataclient_add_qtest(tst_livefeed SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_livefeed.cpp
  ${DATACLIENT_TEST_SUPPORT}/livefixture.h
  LIBS DataClient::Models DataClient::Testing)
# A LiveFeed's connection life (reconnect, offline, catch-up, grace, reset, destruction).
dataclient_add_qtest(tst_livefeed_connection
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_livefeed_connection.cpp
  ${DATACLIENT_TEST_SUPPORT}/livefixture.h
  LIBS DataClient::Models DataClient::Testing)
# A push against a fetch answer about the same record: the version field, else the date rule.
dataclient_add_qtest(tst_pushordering SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_pushordering.cpp
  LIBS DataClient::Controller DataClient::Testing)

# Authentication (docs/authentication.md): the token source's token, one refresh then replay.
foreach(name auth authrefresh)
  dataclient_add_qtest(tst_${name}
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_${name}.cpp ${CMAKE_CURRENT_LIST_DIR}/authfixture.h
      ${DATACLIENT_TEST_SUPPORT}/testtokensource.h ${DATACLIENT_TEST_SUPPORT}/virtualtimefixture.h
      ${DATACLIENT_CONTROLLER_TEST_FIXTURE}
    LIBS DataClient::Controller DataClient::Testing Qt6::Network)
endforeach()
dataclient_add_qtest(tst_logout
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_logout.cpp ${CMAKE_CURRENT_LIST_DIR}/authfixture.h
    ${DATACLIENT_TEST_SUPPORT}/testtokensource.h ${DATACLIENT_TEST_SUPPORT}/virtualtimefixture.h
    ${DATACLIENT_TEST_SUPPORT}/logcapture.h ${DATACLIENT_CONTROLLER_TEST_FIXTURE}
  LIBS DataClient::Controller DataClient::Testing Qt6::Network)
