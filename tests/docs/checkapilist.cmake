# cmake -DINCLUDE_DIR=<include> -DAPI_LIST=<docs/api.md> -P checkapilist.cmake
# Fails naming every installed header that docs/api.md does not mention (as `DataClient/x.h`),
# and every header it mentions that does not exist.
file(GLOB headers RELATIVE ${INCLUDE_DIR}
  ${INCLUDE_DIR}/DataClient/*.h ${INCLUDE_DIR}/DataClient/testing/*.h)
file(READ ${API_LIST} list)
set(missing)
foreach(header IN LISTS headers)
  string(FIND "${list}" "`${header}`" at)
  if(at EQUAL -1)
    list(APPEND missing ${header})
  endif()
endforeach()
string(REGEX MATCHALL "`DataClient/[a-z/_]+\\.h`" named "${list}")
set(stale)
foreach(entry IN LISTS named)
  string(REPLACE "`" "" header ${entry})
  if(NOT EXISTS ${INCLUDE_DIR}/${header})
    list(APPEND stale ${header})
  endif()
endforeach()
if(missing OR stale)
  list(JOIN missing ", " missing)
  list(JOIN stale ", " stale)
  message(FATAL_ERROR "${API_LIST} is out of date with ${INCLUDE_DIR}/DataClient. Installed "
    "headers it does not list: [${missing}]; headers it lists that do not exist: [${stale}]. "
    "Give each installed header a line (`DataClient/x.h`: its classes, what they are for).")
endif()
list(LENGTH headers count)
message(STATUS "${API_LIST} lists all ${count} installed headers")
