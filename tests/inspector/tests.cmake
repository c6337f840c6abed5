# The store inspector (docs/inspector.md): its models, actions and bad input over the Widgets todo
# app and the demo's embedded server, and its Widgets dock in a QMainWindow (tst_inspector); its
# QML overlay over the QML demo, offscreen, with the docs' screenshot (tst_inspector_qml).
if(DATACLIENT_BUILD_EXAMPLES AND TARGET Qt6::Widgets)
  qt_add_executable(tst_inspector ${CMAKE_CURRENT_LIST_DIR}/tst_inspector.cpp
    ${CMAKE_CURRENT_LIST_DIR}/inspectorapp.h)
  target_link_libraries(tst_inspector PRIVATE todowidgets DataClient::InspectorWidgets Qt6::Test)
  target_include_directories(tst_inspector PRIVATE ${DATACLIENT_TEST_SUPPORT}
    ${CMAKE_CURRENT_LIST_DIR}/../models ${CMAKE_CURRENT_LIST_DIR}/../examples)
  target_compile_definitions(tst_inspector PRIVATE
    DATACLIENT_DOC_IMAGES_DIR="${PROJECT_SOURCE_DIR}/docs/images")
  dataclient_apply_strictness(tst_inspector)
  add_test(NAME tst_inspector COMMAND tst_inspector)
  set_tests_properties(tst_inspector PROPERTIES ENVIRONMENT "${DATACLIENT_TEST_ENV}" TIMEOUT 180)
endif()

if(DATACLIENT_BUILD_EXAMPLES AND TARGET DataClientInspectorQmlplugin)
  dataclient_add_qtest(tst_inspector_qml
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_inspector_qml.cpp
      ${PROJECT_SOURCE_DIR}/tests/examples/demouitest.h ${PROJECT_SOURCE_DIR}/tests/examples/docimages.h
      ${PROJECT_SOURCE_DIR}/examples/todo-qml/embeddedserver.h
      ${PROJECT_SOURCE_DIR}/examples/todo-qml/embeddedserver.cpp
    LIBS DataClient::DataClient DataClient::Inspector DataClient::Testing Qt6::Network Qt6::Quick
    TIMEOUT 300)
  set_target_properties(tst_inspector_qml PROPERTIES DISABLE_PRECOMPILE_HEADERS ON)
  target_include_directories(tst_inspector_qml PRIVATE ${PROJECT_SOURCE_DIR}/examples/todo-qml
    ${PROJECT_SOURCE_DIR}/tests/examples)
  target_compile_definitions(tst_inspector_qml PRIVATE
    DEMO_QML_DIR="${PROJECT_SOURCE_DIR}/examples/todo-qml"
    DATACLIENT_DOC_IMAGES_DIR="${PROJECT_SOURCE_DIR}/docs/images"
    DATACLIENT_QML_DIR="${QT_QML_OUTPUT_DIRECTORY}")
  add_dependencies(tst_inspector_qml DataClientQmlplugin DataClientInspectorQmlplugin)
endif()
