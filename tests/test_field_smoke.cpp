#include <gtest/gtest.h>
#include "cuzk/curves/bn254.hpp"
TEST(Smoke, One) { EXPECT_TRUE(cuzk::bn254::fr::one().is_one()); }
