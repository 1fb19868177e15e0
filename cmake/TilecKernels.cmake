#===- TilecKernels.cmake - Compile .tile kernels at build time ------------===#
#
# tilec_add_kernels(<target>
#   SOURCE <file.tile> KERNEL <name> SIGNATURE <sig>
#   [OUTPUT <base>]            generated <base>.h/.cpp (default: the kernel)
#   [SPECIALIZE <sig>...]      more variants (a generic one is always added)
#   [DEFINES <NAME=VALUE>...]  constexprs of every configuration
#   [NUM_WARPS <n>]            warps when no CONFIGS are given (default 4)
#   [CONFIGS <items>...]       configurations, "BLOCK=64,num_warps=8" (tuned
#                              at run time when there are several)
#   [TUNE_KEY <param>...]      integer parameters that key the tuning
#   [TUNING <file>]            a tuning file whose choices are baked in
#   [NAMESPACE <ns>]           C++ namespace (default tilec_kernels)
#   [ARCH <sm_XYa>]            target (default sm_90a)
#   [INCLUDE_DIRS <dir>...]    where imported modules are looked for (-I)
#   [CUBIN])                   embed cubins (needs ptxas) instead of PTX
#
# runs `tilec --emit header` at build time, adds the generated source to
# <target>, the folder of the generated header to its include path (include
# "<base>.h") and links it with tilec::runtime. Call it once per kernel. The
# files the source imports are dependencies too (tilec --depfile).
#
#===----------------------------------------------------------------------===#

function(tilec_add_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "CUBIN"
    "SOURCE;KERNEL;SIGNATURE;OUTPUT;NUM_WARPS;TUNING;NAMESPACE;ARCH"
    "SPECIALIZE;DEFINES;CONFIGS;TUNE_KEY;INCLUDE_DIRS")
  foreach(required SOURCE KERNEL SIGNATURE)
    if(NOT ARG_${required})
      message(FATAL_ERROR "tilec_add_kernels(${target}): ${required} is required")
    endif()
  endforeach()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR
      "tilec_add_kernels(${target}): unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET tilec::tilec)
    message(FATAL_ERROR
      "tilec_add_kernels(${target}): this tilec package has no compiler "
      "(it was built with TILEC_RUNTIME_ONLY)")
  endif()

  get_filename_component(source "${ARG_SOURCE}" ABSOLUTE)
  set(base ${ARG_KERNEL})
  if(ARG_OUTPUT)
    set(base ${ARG_OUTPUT})
  endif()
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/tilec_kernels)
  set(args ${source} --kernel ${ARG_KERNEL} --signature ${ARG_SIGNATURE}
    --emit=header -o ${dir}/${base})
  foreach(sig IN LISTS ARG_SPECIALIZE)
    list(APPEND args --specialize ${sig})
  endforeach()
  foreach(define IN LISTS ARG_DEFINES)
    list(APPEND args -D ${define})
  endforeach()
  foreach(include IN LISTS ARG_INCLUDE_DIRS)
    get_filename_component(include "${include}" ABSOLUTE)
    list(APPEND args -I ${include})
  endforeach()
  list(APPEND args --depfile ${dir}/${base}.d)
  foreach(config IN LISTS ARG_CONFIGS)
    list(APPEND args --config ${config})
  endforeach()
  if(ARG_NUM_WARPS)
    list(APPEND args --num-warps ${ARG_NUM_WARPS})
  endif()
  if(NOT "${ARG_TUNE_KEY}" STREQUAL "")
    string(REPLACE ";" "," key "${ARG_TUNE_KEY}")
    list(APPEND args --tune-key ${key})
  endif()
  set(depends ${source})
  if(ARG_TUNING)
    get_filename_component(tuning "${ARG_TUNING}" ABSOLUTE)
    list(APPEND args --tuning ${tuning})
    list(APPEND depends ${tuning})
  endif()
  if(ARG_NAMESPACE)
    list(APPEND args --namespace ${ARG_NAMESPACE})
  endif()
  if(ARG_ARCH)
    list(APPEND args --arch ${ARG_ARCH})
  endif()
  if(ARG_CUBIN)
    list(APPEND args --cubin)
  endif()

  add_custom_command(
    OUTPUT ${dir}/${base}.h ${dir}/${base}.cpp
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    COMMAND tilec::tilec ${args}
    DEPENDS ${depends} tilec::tilec
    DEPFILE ${dir}/${base}.d
    COMMENT "tilec --emit=header ${ARG_SOURCE} (${ARG_KERNEL}) -> ${base}.h/.cpp"
    VERBATIM)
  target_sources(${target} PRIVATE ${dir}/${base}.cpp ${dir}/${base}.h)
  target_include_directories(${target} PRIVATE ${dir})
  target_link_libraries(${target} PRIVATE tilec::runtime)
endfunction()
