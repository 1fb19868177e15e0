#===- test/gpu/CheckRegistry.cmake - ctest's list vs the test registry ----===#
#
# Run as `cmake -DPROGRAM=<program> -DEXPECTED=a,b,... -P
# CheckRegistry.cmake`: fails unless `PROGRAM --list` names exactly the tests
# EXPECTED names, in that order, so that the CMakeLists.txt of tilec-gpu-tests
# (test/gpu) or tilec-interpreter-examples (test/interp-examples) has one
# ctest entry per registry entry. Needs no GPU.
#
#===----------------------------------------------------------------------===#

execute_process(COMMAND ${PROGRAM} --list
  OUTPUT_VARIABLE output RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} --list failed (${rc})")
endif()
string(REPLACE "\n" ";" lines "${output}")
set(listed)
foreach(line IN LISTS lines)
  string(REGEX MATCH "^[^ ]+" name "${line}")
  if(name)
    list(APPEND listed ${name})
  endif()
endforeach()
string(REPLACE "," ";" expected "${EXPECTED}")
if(NOT listed STREQUAL expected)
  message(FATAL_ERROR "the registry of ${PROGRAM} and the ctest entries "
    "of its CMakeLists.txt differ:\n"
    "  registry: ${listed}\n  cmake:    ${expected}")
endif()
list(LENGTH listed count)
message(STATUS "registry OK: ${count} tests")
