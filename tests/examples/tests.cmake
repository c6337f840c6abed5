# The example programs, run the way users and CI run them (examples are off in the asan preset).
if(DATACLIENT_BUILD_EXAMPLES)
  find_package(Qt6 REQUIRED COMPONENTS Gui)
  dataclient_add_qtest(tst_demo
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_demo.cpp ${CMAKE_CURRENT_LIST_DIR}/imagerows.h
      ${CMAKE_CURRENT_LIST_DIR}/docimages.h
    LIBS DataClient::Testing Qt6::Gui Qt6::Network
    TIMEOUT 300)
  # The shared precompiled header is built without QtGui (QT_GUI_LIB would invalidate it).
  set_target_properties(tst_demo PROPERTIES DISABLE_PRECOMPILE_HEADERS ON)
  target_compile_definitions(tst_demo PRIVATE DEMO_EXECUTABLE="$<TARGET_FILE:dataclient-demo>"
    DATACLIENT_DOC_IMAGES_DIR="${PROJECT_SOURCE_DIR}/docs/images")
  add_dependencies(tst_demo dataclient-demo)

  # The demo's QML in-process, against the demo's own embedded server (compiled in): what a
  # user does (tst_demoui), where views meet: user switches, placeholders, paging
  # (tst_demoui_views), and what the user sees after acting (tst_demoui_feedback).
  foreach(test tst_demoui tst_demoui_views tst_demoui_feedback)
    dataclient_add_qtest(${test}
      SOURCES ${CMAKE_CURRENT_LIST_DIR}/${test}.cpp ${CMAKE_CURRENT_LIST_DIR}/demouitest.h
        ${CMAKE_CURRENT_LIST_DIR}/docimages.h
        ${PROJECT_SOURCE_DIR}/examples/todo-qml/embeddedserver.h
        ${PROJECT_SOURCE_DIR}/examples/todo-qml/embeddedserver.cpp
      LIBS DataClient::DataClient DataClient::Testing Qt6::Network Qt6::Quick
      TIMEOUT 300)
    set_target_properties(${test} PROPERTIES DISABLE_PRECOMPILE_HEADERS ON)
    target_include_directories(${test} PRIVATE ${PROJECT_SOURCE_DIR}/examples/todo-qml)
    target_compile_definitions(${test} PRIVATE
      DEMO_QML_DIR="${PROJECT_SOURCE_DIR}/examples/todo-qml"
      DATACLIENT_DOC_IMAGES_DIR="${PROJECT_SOURCE_DIR}/docs/images"
      DATACLIENT_QML_DIR="${QT_QML_OUTPUT_DIRECTORY}")
    add_dependencies(${test} DataClientQmlplugin DataClientInspectorQmlplugin)
  endforeach()

  # The embedded server's pushes: a change in one client reaches another without a poll.
  dataclient_add_qtest(tst_demopush
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_demopush.cpp
      ${PROJECT_SOURCE_DIR}/examples/todo-qml/embeddedserver.h
      ${PROJECT_SOURCE_DIR}/examples/todo-qml/embeddedserver.cpp
    LIBS DataClient::Models DataClient::Testing Qt6::Network)
  target_include_directories(tst_demopush PRIVATE ${PROJECT_SOURCE_DIR}/examples/todo-qml)

  dataclient_add_qtest(tst_githubpagination
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_githubpagination.cpp
    LIBS DataClient::Testing Qt6::Network)
  target_compile_definitions(tst_githubpagination PRIVATE
    PAGINATION_EXECUTABLE="$<TARGET_FILE:dataclient-github-pagination>")
  add_dependencies(tst_githubpagination dataclient-github-pagination)

  find_package(Qt6 REQUIRED COMPONENTS Quick)
  dataclient_add_qtest(tst_gettingstarted
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_gettingstarted.cpp
    LIBS DataClient::Testing Qt6::Network Qt6::Quick)
  set_target_properties(tst_gettingstarted PROPERTIES DISABLE_PRECOMPILE_HEADERS ON)
  target_compile_definitions(tst_gettingstarted PRIVATE
    TODOS_EXECUTABLE="$<TARGET_FILE:todos>"
    GETTING_STARTED_DIR="${PROJECT_SOURCE_DIR}/examples/getting-started"
    DATACLIENT_QML_DIR="${QT_QML_OUTPUT_DIRECTORY}")
  add_dependencies(tst_gettingstarted todos todos-qml DataClientQmlplugin)
endif()

# Docs snippets are real code (see the file's comment); needs no example to be built.
dataclient_add_qtest(tst_docsnippets SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_docsnippets.cpp
  LIBS Qt6::Network) # (Network: the shared precompiled header expects it)
target_compile_definitions(tst_docsnippets PRIVATE DATACLIENT_SOURCE_DIR="${PROJECT_SOURCE_DIR}")

# docs/getting-started.md end to end: install, then build examples/getting-started alone.
if(DATACLIENT_BUILD_EXAMPLES AND NOT DATACLIENT_SANITIZE)
  add_test(NAME getting_started_project
    COMMAND ${CMAKE_COMMAND}
      -DBUILD_DIR=${PROJECT_BINARY_DIR}
      -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/getting-started-work
      -DPROJECT_DIR=${PROJECT_SOURCE_DIR}/examples/getting-started
      -DGENERATOR=${CMAKE_GENERATOR}
      -DCXX=${CMAKE_CXX_COMPILER}
      -DBUILD_TYPE=${CMAKE_BUILD_TYPE}
      -DAPPS=todos,todos-qml
      -P ${CMAKE_CURRENT_LIST_DIR}/run-getting-started.cmake)
  set_tests_properties(getting_started_project PROPERTIES TIMEOUT 600 ENVIRONMENT "${DATACLIENT_TEST_ENV}")
endif()
