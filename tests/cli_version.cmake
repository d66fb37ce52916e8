# SPDX-License-Identifier: MIT OR Apache-2.0
# `TOOL --version` exits 0 and prints exactly "NAME VERSION", VERSION being the project's version:
#   cmake -DEXE=... -DNAME=cuzk-prove -DVERSION=x.y.z -P cli_version.cmake
execute_process(COMMAND ${EXE} --version RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NAME} --version exited ${rc}: ${out}${err}")
endif()
if(NOT out STREQUAL "${NAME} ${VERSION}\n")
  message(FATAL_ERROR "${NAME} --version printed '${out}', expected '${NAME} ${VERSION}'")
endif()
message(STATUS "${NAME} --version: ${out}")
