// SPDX-License-Identifier: MIT OR Apache-2.0
// The VRAM budget: reservations, resident reservations, and errors instead of endless waits.
#include <gtest/gtest.h>

#include <thread>

#include "cuzk/gpu/vram_budget.hpp"

using cuzk::gpu::vram_budget;

TEST(VramBudget, ReservesAndGivesBack) {
    vram_budget b(100);
    {
        auto r = b.reserve(60);
        EXPECT_EQ(b.used(), 60u);
        EXPECT_FALSE(b.try_reserve_resident(50).has_value());
        auto k = b.try_reserve_resident(40);
        ASSERT_TRUE(k.has_value());
        EXPECT_EQ(b.resident(), 40u);
    }
    EXPECT_EQ(b.used(), 0u);
    EXPECT_EQ(b.resident(), 0u);
}

TEST(VramBudget, ResidentNeedsHeadroom) {
    vram_budget b(100);
    EXPECT_FALSE(b.try_reserve_resident(60, 50).has_value());  // key fits, a proof beside it does not
    EXPECT_TRUE(b.try_reserve_resident(60, 40).has_value());
}

TEST(VramBudget, WaitsForTransientHoldersButNotForResidentOnes) {
    vram_budget b(100);
    auto key = b.try_reserve_resident(50);
    ASSERT_TRUE(key);
    EXPECT_THROW(b.reserve(51), cuzk::invalid_argument);  // could never fit while the key lives
    EXPECT_THROW(b.reserve(101), cuzk::invalid_argument);
    auto first = b.reserve(50);
    std::thread t([&] { first.release(); });  // a transient holder gives back: the wait ends
    auto second = b.reserve(50);
    t.join();
    EXPECT_EQ(b.used(), 100u);
}
