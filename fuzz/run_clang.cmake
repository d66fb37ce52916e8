# SPDX-License-Identifier: MIT OR Apache-2.0
# Configures fuzz/ as a standalone clang project, builds the fuzz targets and runs them
# (ctest -L fuzz). Called by the fuzz_readers_clang test of a non-clang build.
# -DSOURCE=fuzz dir -DBINARY=build dir -DCLANGXX=clang++ -DSECONDS=per-target time -DGENERATOR=...
foreach(step
    "${CMAKE_COMMAND};-S;${SOURCE};-B;${BINARY};-G;${GENERATOR};-DCMAKE_BUILD_TYPE=RelWithDebInfo;-DCMAKE_CXX_COMPILER=${CLANGXX};-DCUZK_FUZZ_SECONDS=${SECONDS}"
    "${CMAKE_COMMAND};--build;${BINARY}"
    "${CMAKE_CTEST_COMMAND};--test-dir;${BINARY};--output-on-failure;-L;fuzz")
  execute_process(COMMAND ${step} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "fuzz: step failed (${rc}): ${step}")
  endif()
endforeach()
