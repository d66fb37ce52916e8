// SPDX-License-Identifier: MIT OR Apache-2.0
// The curves Groth16 tests run on, as a gtest type list.
#pragma once

#include <gtest/gtest.h>

#include "cuzk/groth16/curve.hpp"

namespace cuzk::test {

using groth16_curves = ::testing::Types<cuzk::bls12_381::curve, cuzk::bn254::curve>;

}  // namespace cuzk::test
