# SPDX-License-Identifier: MIT OR Apache-2.0
# Builds and runs tests/consumers/app against cuzk in one way (cmake -P, see tests/CMakeLists.txt).
# Inputs: CUZK_SOURCE, WORK_DIR, MODE (find_package | add_subdirectory | FetchContent).
set(app ${CMAKE_CURRENT_LIST_DIR}/app)
file(REMOVE_RECURSE ${WORK_DIR})
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed: ${ARGN}\n${out}")
  endif()
endfunction()
set(extra)
if(MODE STREQUAL "find_package")
  # Installed without a build: the header-only library (no instance libraries to install).
  run(${CMAKE_COMMAND} -S ${CUZK_SOURCE} -B ${WORK_DIR}/cuzk-build -DCUZK_CUDA=OFF -DCUZK_BUILD_INSTANCES=OFF
      -DCUZK_BUILD_TESTS=OFF -DCUZK_BUILD_BENCHMARKS=OFF -DCUZK_BUILD_EXAMPLES=OFF -DCUZK_INSTALL=ON)
  run(${CMAKE_COMMAND} --install ${WORK_DIR}/cuzk-build --prefix ${WORK_DIR}/prefix)
  set(extra -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
endif()
run(${CMAKE_COMMAND} -S ${app} -B ${WORK_DIR}/app-build -DCUZK_CONSUME=${MODE} -DCUZK_SOURCE=${CUZK_SOURCE}
    -DCUZK_CUDA=OFF ${extra})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/app-build)
run(${WORK_DIR}/app-build/consumer)
