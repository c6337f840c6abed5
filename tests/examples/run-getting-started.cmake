# Script mode: what docs/getting-started.md tells a newcomer to do — install DataClient, then
# configure and build examples/getting-started as a project of its own (find_package).
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "Command failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
endfunction()

run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
run(${CMAKE_COMMAND} -S ${PROJECT_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
    -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=${BUILD_TYPE} -DCMAKE_PREFIX_PATH=${prefix})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
string(REPLACE "," ";" APPS "${APPS}")
foreach(app IN LISTS APPS)
  if(NOT EXISTS ${WORK_DIR}/build/${app})
    message(FATAL_ERROR "building ${PROJECT_DIR} did not produce ${app}")
  endif()
endforeach()
message(STATUS "built ${APPS} against the installed package")
