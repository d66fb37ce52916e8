# SPDX-License-Identifier: MIT OR Apache-2.0
# Helpers for cuzk's own executables (tests, benchmarks, examples).

# CUZK_WARNINGS and CUZK_CUDA_WARNINGS come from cmake/cuzk_warnings.cmake (CMakeLists.txt).

# cuzk's own executables link the precompiled instances (each heavy template compiled once per
# build: the kernel families in src/instances/, the CPU prover's pieces in src/host_instances/);
# OFF compiles every TU header-only, as a consumer without the libraries would (the GPU machine
# tests both, as does the `header-only` preset on the host). Defaults to whether they are built.
option(CUZK_USE_INSTANCES "Link cuzk's tests, benchmarks and examples to cuzk::instances and cuzk::host_instances"
       ${CUZK_HAVE_HOST_INSTANCES})
if(CUZK_USE_INSTANCES AND NOT CUZK_HAVE_HOST_INSTANCES)
  message(FATAL_ERROR "CUZK_USE_INSTANCES needs CUZK_BUILD_INSTANCES=ON")
endif()
# Executables compiled header-only whatever CUZK_USE_INSTANCES says: test_constant_time defines
# CUZK_CT_CHECK (core/declassify.hpp), which changes the prover code that the instances hold.
set(CUZK_HEADER_ONLY_EXECUTABLES test_constant_time)

# cuzk_executable(name SOURCES...) - a host or CUDA executable linked to cuzk.
# .cu sources are only built when CUDA is enabled (the caller checks CUZK_HAVE_CUDA). With
# CUZK_USE_INSTANCES every executable links cuzk::host_instances and those with .cu sources also
# cuzk::instances (a .cpp compiled as CUDA links it itself).
function(cuzk_executable name)
  add_executable(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE cuzk::cuzk)
  if(CUZK_USE_INSTANCES AND NOT name IN_LIST CUZK_HEADER_ONLY_EXECUTABLES)
    target_link_libraries(${name} PRIVATE cuzk::host_instances)
  endif()
  target_compile_options(${name} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:${CUZK_WARNINGS}>
    "$<$<COMPILE_LANGUAGE:CUDA>:${CUZK_CUDA_WARNINGS}>"
    "$<$<COMPILE_LANGUAGE:CUDA>:${CUZK_CUDA_DEVICE_FLAGS}>")
  if(CUZK_HAVE_CUDA AND CUZK_USE_INSTANCES AND "${ARGN}" MATCHES "\\.cu(;|$)")
    target_link_libraries(${name} PRIVATE cuzk::instances)
  endif()
  if(OpenMP_CXX_FOUND)
    target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-fopenmp>)
  endif()
endfunction()

# The device point-operation kernels of test_ec_device and bench_ec_device (tests/ec_device_kernels.hpp),
# compiled once for both instead of in each TU (they are most of both TUs' compile time). Built
# only when one of them is.
if(CUZK_HAVE_CUDA)
  add_library(cuzk_ec_device_kernels STATIC EXCLUDE_FROM_ALL ${PROJECT_SOURCE_DIR}/tests/ec_device_kernels.cu)
  target_include_directories(cuzk_ec_device_kernels PUBLIC ${PROJECT_SOURCE_DIR}/tests)
  target_link_libraries(cuzk_ec_device_kernels PUBLIC cuzk::cuzk)
  target_compile_options(cuzk_ec_device_kernels PRIVATE ${CUZK_CUDA_WARNINGS} ${CUZK_CUDA_DEVICE_FLAGS})
endif()
