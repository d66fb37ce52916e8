# SPDX-License-Identifier: MIT OR Apache-2.0
# Checks that cuzk::host_instances does its job (tests/CMakeLists.txt): the library defines the
# precompiled templates, and a test object that uses them (test_groth16_prover) only refers to
# them. Fails if CUZK_HOST_PRECOMPILED stopped reaching the consumer or an extern declaration no
# longer matches its definition (the consumer would compile its own copy again).
# Inputs: NM, LIBRARY, OBJECT.
set(symbols
  "cuzk::jacobian<cuzk::bn254::g1> cuzk::msm::msm_host<cuzk::bn254::g1, cuzk::xyzz<cuzk::bn254::g1> >"
  "cuzk::jacobian<cuzk::bls12_381::g2> cuzk::groth16::msm_witness_host<cuzk::bls12_381::g2>"
  "cuzk::groth16::verdict cuzk::groth16::verify_verdict<cuzk::bls12_381::curve>"
  "void cuzk::groth16::compute_h_scalars<cuzk::mont_field<cuzk::bn254::fr_config> >")
function(defined_symbols file out)
  execute_process(COMMAND ${NM} -C --defined-only ${file} RESULT_VARIABLE rc OUTPUT_VARIABLE text ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${NM} ${file} failed: ${err}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()
defined_symbols(${LIBRARY} library)
defined_symbols(${OBJECT} object)
foreach(s IN LISTS symbols)
  string(FIND "${library}" "${s}" in_library)
  string(FIND "${object}" "${s}" in_object)
  if(in_library EQUAL -1)
    message(FATAL_ERROR "cuzk::host_instances does not define ${s}")
  endif()
  if(NOT in_object EQUAL -1)
    message(FATAL_ERROR "test_groth16_prover compiled its own ${s} (the extern declaration did not apply)")
  endif()
endforeach()
list(LENGTH symbols count)
message(STATUS "${count} precompiled templates: defined in the library, only referenced by the test")
