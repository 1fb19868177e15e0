#===- PackageTest.cmake - Build the example against an installed tilec ----===#
#
# cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -DFAKE_CUDA=...
#       -DGENERATOR=...
#       -P PackageTest.cmake
#
# Installs the build tree into WORK_DIR/prefix, configures and builds
# examples/host-app against it with find_package(tilec CONFIG) alone, then
# runs it twice on the fake driver with a fresh kernel cache: vector_add
# through its generated launcher, and the JIT matmul and descriptor matmul
# (whose blocks a pre_hook sets) compiled and loaded (the fake driver
# cannot run them). The first run must compile one kernel of each, the
# second none.
#
#===----------------------------------------------------------------------===#

cmake_minimum_required(VERSION 3.20)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
    ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}")
  endif()
  set(output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/host-app -B ${WORK_DIR}/app
  -G ${GENERATOR} -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${prefix})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/app)

set(ENV{TILEC_CUDA_LIBRARY} ${FAKE_CUDA})
set(ENV{TILEC_CACHE_DIR} ${WORK_DIR}/cache)
foreach(round first second)
  run(${WORK_DIR}/app/host-app --steps aot-vector-add,jit-matmul,jit-desc-matmul
    --jit-no-launch)
  message("${round} run:\n${output}")
  if(NOT output MATCHES "aot-vector-add: n=1048576 variant 0d1d2d3d: PASS")
    message(FATAL_ERROR "the generated launcher did not pass")
  endif()
  if(round STREQUAL first)
    set(expected "compiled 1, from disk 0")
  else()
    set(expected "compiled 0, from disk 1")
  endif()
  if(NOT output MATCHES "jit-matmul: compiler linked, .*${expected}")
    message(FATAL_ERROR "the ${round} run did not show '${expected}'")
  endif()
  # The descriptor kernel whose blocks its configuration's pre_hook sets.
  if(NOT output MATCHES "jit-desc-matmul: ${expected}")
    message(FATAL_ERROR "the ${round} run of jit-desc-matmul did not show "
                        "'${expected}'")
  endif()
endforeach()
message("tilec package test: PASS")
