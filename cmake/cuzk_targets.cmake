# Helpers for cuzk's own executables (tests, benchmarks, examples).

set(CUZK_WARNINGS -Wall -Wextra -Wno-unknown-pragmas)

# cuzk's own CUDA executables link the precompiled instances (each kernel family compiled once
# per build, in src/instances/); OFF compiles every TU header-only, as a consumer without the
# library would (the GPU machine tests both). Defaults to whether the library is built.
option(CUZK_USE_INSTANCES "Link cuzk's CUDA tests, benchmarks and examples to cuzk::instances" ${CUZK_HAVE_INSTANCES})
if(CUZK_USE_INSTANCES AND NOT CUZK_HAVE_INSTANCES AND CUZK_HAVE_CUDA)
  message(FATAL_ERROR "CUZK_USE_INSTANCES needs CUZK_BUILD_INSTANCES=ON")
endif()

# cuzk_executable(name SOURCES...) - a host or CUDA executable linked to cuzk.
# .cu sources are only built when CUDA is enabled (the caller checks CUZK_HAVE_CUDA). With
# CUZK_USE_INSTANCES those link cuzk::instances (a .cpp compiled as CUDA links it itself).
function(cuzk_executable name)
  add_executable(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE cuzk::cuzk)
  target_compile_options(${name} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:${CUZK_WARNINGS}>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall>
    "$<$<COMPILE_LANGUAGE:CUDA>:${CUZK_CUDA_DEVICE_FLAGS}>")
  if(CUZK_HAVE_CUDA AND CUZK_USE_INSTANCES AND "${ARGN}" MATCHES "\\.cu(;|$)")
    target_link_libraries(${name} PRIVATE cuzk::instances)
  endif()
  if(OpenMP_CXX_FOUND)
    target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-fopenmp>)
  endif()
endfunction()
