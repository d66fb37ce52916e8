# Helpers for cuzk's own executables (tests, benchmarks, examples).

set(CUZK_WARNINGS -Wall -Wextra -Wno-unknown-pragmas)

# cuzk_executable(name SOURCES...) - a host or CUDA executable linked to cuzk.
# .cu sources are only built when CUDA is enabled (the caller checks CUZK_HAVE_CUDA).
function(cuzk_executable name)
  add_executable(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE cuzk::cuzk)
  target_compile_options(${name} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:${CUZK_WARNINGS}>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall>)
  if(OpenMP_CXX_FOUND)
    target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-fopenmp>)
  endif()
endfunction()
