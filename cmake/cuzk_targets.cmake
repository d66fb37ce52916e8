# Helpers for cuzk's own executables (tests, benchmarks, examples).

set(CUZK_WARNINGS -Wall -Wextra -Wno-unknown-pragmas)

# Device code fully optimised takes nvcc many CPU-minutes per kernel family (every field product
# inlined). Where the GPU code is only compiled, never run (CI has no GPU), scripts/test.sh turns
# this on: same sources, same checks by the compiler front end, device optimisation off.
# NEVER run such binaries on a GPU: unoptimised, nvcc lets other instructions clobber the carry
# flag between the PTX carry-chain statements, and results are wrong (seen on the H200).
option(CUZK_CUDA_FAST_COMPILE "Compile device code without optimisation (for machines without a GPU)" OFF)
set(CUZK_CUDA_EXTRA_FLAGS)
if(CUZK_CUDA_FAST_COMPILE)
  set(CUZK_CUDA_EXTRA_FLAGS -Xcicc=-O0 -Xptxas=-O0)
  message(STATUS "cuzk: CUZK_CUDA_FAST_COMPILE: device code is compiled unoptimised, for compile checks only (it computes wrong results on a GPU)")
endif()

# cuzk_executable(name SOURCES...) - a host or CUDA executable linked to cuzk.
# .cu sources are only built when CUDA is enabled (the caller checks CUZK_HAVE_CUDA).
function(cuzk_executable name)
  add_executable(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE cuzk::cuzk)
  target_compile_options(${name} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:${CUZK_WARNINGS}>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall>
    "$<$<COMPILE_LANGUAGE:CUDA>:${CUZK_CUDA_EXTRA_FLAGS}>")
  if(OpenMP_CXX_FOUND)
    target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-fopenmp>)
  endif()
endfunction()
