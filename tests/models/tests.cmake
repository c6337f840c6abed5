# Models layer tests (DataClient::Models, Qt Core only): the list diff, CollectionModel's row
# synchronisation, and the model in Qt Widgets views (docs/widgets.md). Tests may include their
# own layer's src folder.
dataclient_add_qtest(tst_listdiff SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_listdiff.cpp
  LIBS DataClient::Models)
target_include_directories(tst_listdiff PRIVATE ${PROJECT_SOURCE_DIR}/src/models)

dataclient_add_qtest(tst_collectionrows SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_collectionrows.cpp
  LIBS DataClient::Models)
target_include_directories(tst_collectionrows PRIVATE ${PROJECT_SOURCE_DIR}/src/models)

# Optimistic creates without client ids: the exact signals of placeholder rows.
dataclient_add_qtest(tst_placeholderrows SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_placeholderrows.cpp
  ${DATACLIENT_TEST_SUPPORT}/placeholderbackend.h ${DATACLIENT_TEST_SUPPORT}/modelsignals.h
  LIBS DataClient::Models DataClient::Testing Qt6::Network)

# CollectionModel in Qt Widgets views: linked against DataClient::Models alone (no Qt Qml).
find_package(Qt6 COMPONENTS Widgets)
if(TARGET Qt6::Widgets)
  # dataclient_add_widgetstest(<name> SOURCES ...): not through dataclient_add_qtest, the shared
  # precompiled header is built without Qt GUI.
  function(dataclient_add_widgetstest name)
    cmake_parse_arguments(ARG "" "" "SOURCES" ${ARGN})
    qt_add_executable(${name} ${ARG_SOURCES})
    target_link_libraries(${name} PRIVATE DataClient::Models DataClient::Testing Qt6::Widgets
      Qt6::Test)
    target_include_directories(${name} PRIVATE ${DATACLIENT_TEST_SUPPORT})
    dataclient_apply_strictness(${name})
    add_test(NAME ${name} COMMAND ${name})
    set_tests_properties(${name} PROPERTIES ENVIRONMENT "${DATACLIENT_TEST_ENV}" TIMEOUT 120)
  endfunction()
  dataclient_add_widgetstest(tst_widgets SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_widgets.cpp)
  # Editing (setEditable / setData / flags) in a real QTableView; proxies and forms.
  dataclient_add_widgetstest(tst_collectionedit
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_collectionedit.cpp ${CMAKE_CURRENT_LIST_DIR}/editfixture.h)
  dataclient_add_widgetstest(tst_collectionproxies
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_collectionproxies.cpp ${CMAKE_CURRENT_LIST_DIR}/editfixture.h)
endif()

# examples/todo-widgets offscreen: its --screenshot and options (process runs) and its window
# in-process against the demo's embedded server: edits reach the server, a refused one rolls back
# (tst_todowidgets); sorting, the status bar, refused deletes, new and pending rows, Edit > Undo
# and Redo with the keyboard (tst_todowidgets_feedback).
if(DATACLIENT_BUILD_EXAMPLES AND TARGET Qt6::Widgets)
  foreach(test tst_todowidgets tst_todowidgets_feedback)
    qt_add_executable(${test} ${CMAKE_CURRENT_LIST_DIR}/${test}.cpp
      ${CMAKE_CURRENT_LIST_DIR}/todowidgetsapp.h)
    target_link_libraries(${test} PRIVATE todowidgets Qt6::Test)
    target_include_directories(${test} PRIVATE ${DATACLIENT_TEST_SUPPORT}
      ${CMAKE_CURRENT_LIST_DIR}/../examples)
    target_compile_definitions(${test} PRIVATE
      TODO_WIDGETS_EXECUTABLE="$<TARGET_FILE:dataclient-todo-widgets>"
      DATACLIENT_DOC_IMAGES_DIR="${PROJECT_SOURCE_DIR}/docs/images")
    dataclient_apply_strictness(${test})
    add_dependencies(${test} dataclient-todo-widgets)
    add_test(NAME ${test} COMMAND ${test})
    set_tests_properties(${test} PROPERTIES ENVIRONMENT "${DATACLIENT_TEST_ENV}" TIMEOUT 120)
  endforeach()
endif()

# The store's list patch (one changed entity) and the model comparing only its rows.
dataclient_add_qtest(tst_listpatch SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_listpatch.cpp
  ${DATACLIENT_TEST_SUPPORT}/storefixtures.h ${DATACLIENT_TEST_SUPPORT}/modelsignals.h
  LIBS DataClient::Models)
target_include_directories(tst_listpatch PRIVATE ${PROJECT_SOURCE_DIR}/src/models)

# CollectionModel over a Controller (Qt Core only): its rows and signals, live polling,
# loadMore with getPage and a paged refetch.
foreach(test collectionmodel collectionmodel_live collectionmodel_pageendpoint
    collectionmodel_pagerefetch)
  dataclient_add_qtest(tst_${test} SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_${test}.cpp
    LIBS DataClient::Models DataClient::Testing)
endforeach()
# Kept data while params change (docs/networking.md): placeholder rows, no reset, the edge cases.
foreach(test keepprevious placeholderevents)
  dataclient_add_qtest(tst_collectionmodel_${test}
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_collectionmodel_${test}.cpp
      ${CMAKE_CURRENT_LIST_DIR}/keptrowstest.h ${DATACLIENT_TEST_SUPPORT}/controllerfixture.h
      ${DATACLIENT_TEST_SUPPORT}/modelsignals.h
    LIBS DataClient::Models DataClient::Testing Qt6::Network)
endforeach()
# Lists that follow their data: re-filtering moves a changed entity between stored lists, and
# the explicit list members (getList.move / remove / assign).
foreach(list_test refilter refilteroptimistic listmembers)
  dataclient_add_qtest(tst_collectionmodel_${list_test}
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_collectionmodel_${list_test}.cpp
      ${DATACLIENT_TEST_SUPPORT}/listfixture.h
    LIBS DataClient::Models DataClient::Testing)
endforeach()
