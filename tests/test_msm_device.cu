// SPDX-License-Identifier: MIT OR Apache-2.0
// Device MSM tests for G1 of BLS12-381 and BN254 (cases in test_msm_device_cases.cuh).
#include <gtest/gtest.h>

#include "test_msm_util.hpp"
namespace {
using MsmDeviceGroups = ::testing::Types<msm_test::bls_g1, msm_test::bn_g1>;
}
#include "test_msm_device_cases.cuh"
