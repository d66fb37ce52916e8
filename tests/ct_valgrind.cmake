# SPDX-License-Identifier: MIT OR Apache-2.0
# Runs test_constant_time under valgrind memcheck for ctest (tests/CMakeLists.txt):
#   cmake -DVALGRIND=<valgrind or empty> -DEXE=<test_constant_time> -DFILTER=<gtest filter>
#         -DEXPECT=clean|jump|address -P ct_valgrind.cmake
# clean:   memcheck must report no error at all (exit 0, "ERROR SUMMARY: 0 errors").
# jump:    a deliberately leaky case; memcheck must report a conditional jump on the secret
# address: ... and a memory address computed from the secret.
# For jump/address the gtest case itself must still pass (its result is checked).
# Prints "ct_valgrind: SKIP" (ctest's SKIP_REGULAR_EXPRESSION) when valgrind is unavailable.
if(NOT VALGRIND OR VALGRIND MATCHES "NOTFOUND$")
  message("ct_valgrind: SKIP (valgrind or valgrind/memcheck.h not found at configure time, or a sanitizer build)")
  return()
endif()
set(error_code 99)
set(ENV{OMP_NUM_THREADS} 1)
execute_process(
  COMMAND ${VALGRIND} --tool=memcheck --error-exitcode=${error_code} --leak-check=no --track-origins=yes
          --num-callers=12 ${EXE} --gtest_filter=${FILTER} --gtest_brief=1
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}\n${err}")
# Only the first reports: a leak in the leaf arithmetic repeats thousands of times.
string(SUBSTRING "${all}" 0 20000 head)
message("${head}")
string(REGEX MATCH "ERROR SUMMARY: [0-9]+ errors? from [0-9]+ contexts?" summary "${all}")
message("ct_valgrind: exit code ${rc}; ${summary}")
if(all MATCHES "unhandled instruction bytes|Unrecognised instruction|SIGILL")
  message(FATAL_ERROR "ct_valgrind: valgrind cannot execute this binary (build it without newer ISA extensions)")
endif()
if(EXPECT STREQUAL "clean")
  if(NOT rc EQUAL 0 OR NOT all MATCHES "ERROR SUMMARY: 0 errors")
    message(FATAL_ERROR "ct_valgrind: secret-dependent branches or addresses reported (or the test failed), see above")
  endif()
  return()
endif()
if(EXPECT STREQUAL "jump")
  set(want "Conditional jump or move depends on uninitialised value")
elseif(EXPECT STREQUAL "address")
  set(want "Use of uninitialised value of size")
else()
  message(FATAL_ERROR "ct_valgrind: EXPECT must be clean, jump or address")
endif()
if(NOT rc EQUAL error_code)
  message(FATAL_ERROR "ct_valgrind: expected valgrind to report the deliberate leak (exit ${error_code}), got exit ${rc}")
endif()
if(NOT all MATCHES "${want}")
  message(FATAL_ERROR "ct_valgrind: expected a report '${want}'")
endif()
if(all MATCHES "FAILED TEST")
  message(FATAL_ERROR "ct_valgrind: the leaky case computed a wrong result")
endif()
message("ct_valgrind: the deliberate leak was reported, as it must be")
