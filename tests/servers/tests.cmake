# Tests against real servers of other frameworks (docs/servers/). Django REST Framework runs from
# Debian's python3-django, python3-djangorestframework and python3-django-filters (./dev installs
# them); the project in tests/servers/django starts with a fresh SQLite file per run.
dataclient_add_qtest(tst_djangoserver SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_djangoserver.cpp
  LIBS DataClient::Qml DataClient::Testing)
target_compile_definitions(tst_djangoserver PRIVATE
  DATACLIENT_DJANGO_DIR="${CMAKE_CURRENT_LIST_DIR}/django")
target_include_directories(tst_djangoserver PRIVATE ${CMAKE_CURRENT_LIST_DIR})
# Rails, Laravel, Spring Data and JSON:API answers emulated on the in-process test server.
dataclient_add_qtest(tst_frameworkemulations
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_frameworkemulations.cpp ${DATACLIENT_TEST_SUPPORT}/servertest.h
  LIBS DataClient::Qml DataClient::Testing)
target_include_directories(tst_frameworkemulations PRIVATE ${CMAKE_CURRENT_LIST_DIR})
