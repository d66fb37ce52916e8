# SPDX-License-Identifier: MIT OR Apache-2.0
# The warning flags of cuzk's own targets (tests, benchmarks, examples, the instance libraries, the C API).
# CI (scripts/test.sh) turns warnings into errors: a warning in a CI log is read by nobody (an
# infinite recursion in test_gpu_faults sat in every CI log for a day).
option(CUZK_WARNINGS_AS_ERRORS "Treat compiler warnings in cuzk's own targets as errors" OFF)
set(CUZK_WARNINGS -Wall -Wextra -Wno-unknown-pragmas)
set(CUZK_CUDA_WARNINGS -Xcompiler=-Wall)
if(CUZK_WARNINGS_AS_ERRORS)
  list(APPEND CUZK_WARNINGS -Werror)
  list(APPEND CUZK_CUDA_WARNINGS -Xcompiler=-Werror --Werror=all-warnings)
endif()
