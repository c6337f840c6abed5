# Undo and redo of mutations (DataClient::Undo, docs/undo.md) against the in-process server.
dataclient_add_qtest(tst_undo SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_undo.cpp
  ${DATACLIENT_TEST_SUPPORT}/placeholderbackend.h
  LIBS DataClient::Undo DataClient::Testing Qt6::Network)
# The shared precompiled header is built without Qt GUI (QT_GUI_LIB would invalidate it).
set_target_properties(tst_undo PROPERTIES DISABLE_PRECOMPILE_HEADERS ON)
