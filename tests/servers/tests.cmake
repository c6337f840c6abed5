# Tests against real servers of other frameworks (docs/servers/). Django REST Framework runs from
# Debian's python3-django, python3-djangorestframework and python3-django-filters (./dev installs
# them); the project in tests/servers/django starts with a fresh SQLite file per run.
dataclient_add_qtest(tst_djangoserver SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_djangoserver.cpp
  LIBS DataClient::Qml DataClient::Testing)
target_compile_definitions(tst_djangoserver PRIVATE
  DATACLIENT_DJANGO_DIR="${CMAKE_CURRENT_LIST_DIR}/django")
