// SPDX-License-Identifier: MIT OR Apache-2.0
// The window-cost model (msm/window_cost.hpp) against the three formulas it replaced, copied
// here as they were: the same width for every n and scalar width the MSMs see, so no kernel is
// given a different parameter. Host only: the device models are constants of the same header.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <vector>

#include "cuzk/msm/pippenger_host.hpp"
#include "cuzk/msm/window_cost.hpp"

namespace msm = cuzk::msm;

namespace {

unsigned windows_of(unsigned scalar_bits, unsigned c) { return (scalar_bits + c) / c; }

// The host dispatcher's formula: W(c) * (n + 2^c) over c in [1, 16].
unsigned old_host_window_bits(size_t n, unsigned scalar_bits) {
    unsigned best = 1;
    double best_cost = 0;
    for (unsigned c = 1; c <= 16; ++c) {
        double cost = double(windows_of(scalar_bits, c)) * (double(n) + double(uint64_t(1) << c));
        if (c == 1 || cost < best_cost) {
            best = c;
            best_cost = cost;
        }
    }
    return best;
}

// The device dispatcher's: W(c) * (n + 3 * 2^(c-1)) over c in [4, 22].
unsigned old_device_window_bits(size_t n, unsigned scalar_bits) {
    unsigned best = 4;
    double best_cost = 0;
    for (unsigned c = 4; c <= 22; ++c) {
        double cost = double(windows_of(scalar_bits, c)) * (double(n) + 3.0 * double(uint64_t(1) << (c - 1)));
        if (c == 4 || cost < best_cost) {
            best = c;
            best_cost = cost;
        }
    }
    return best;
}

// A table of shifted bases: W(c) * n + 3 * 2^(c-1) over c in [8, 22].
unsigned old_fixed_bases_window_bits(size_t n, unsigned scalar_bits) {
    unsigned best = 8;
    double best_cost = 0;
    for (unsigned c = 8; c <= 22; ++c) {
        double cost = double(windows_of(scalar_bits, c)) * double(n) + 3.0 * double(uint64_t(1) << (c - 1));
        if (c == 8 || cost < best_cost) best = c, best_cost = cost;
    }
    return best;
}

// n = 1 .. 2^28: every power of two, its neighbours, and the powers of ten.
std::vector<size_t> sizes() {
    std::set<size_t> n;
    for (unsigned k = 0; k <= 28; ++k) {
        const size_t p = size_t(1) << k;
        n.insert(p);
        n.insert(p + 1);
        if (p > 1) n.insert(p - 1);
    }
    for (size_t p = 1; p <= (size_t(1) << 28); p *= 10) n.insert(p);
    return {n.begin(), n.end()};
}

constexpr unsigned scalar_widths[] = {64, 128, 254, 255, 381};

}  // namespace

TEST(WindowCost, ModelsKeepTheirRanges) {
    EXPECT_EQ(msm::host_buckets.min_bits, 1u);
    EXPECT_EQ(msm::host_buckets.max_bits, 16u);
    EXPECT_EQ(msm::host_max_window_bits, 16u);
    EXPECT_EQ(msm::device_buckets.min_bits, 4u);
    EXPECT_EQ(msm::device_buckets.max_bits, 22u);
    EXPECT_EQ(msm::device_max_window_bits, 22u);
    EXPECT_EQ(msm::table_buckets.min_bits, 8u);
    EXPECT_EQ(msm::table_buckets.max_bits, 22u);
    EXPECT_EQ(msm::fixed_bases_min_window_bits, 8u);
}

TEST(WindowCost, HostWidthsEqualTheOldFormula) {
    size_t checked = 0;
    for (unsigned bits : scalar_widths)
        for (size_t n : sizes()) {
            ASSERT_EQ(msm::choose_window_bits(n, bits, msm::host_buckets), old_host_window_bits(n, bits))
                << "n " << n << ", " << bits << "-bit scalars";
            ASSERT_EQ(msm::host_window_bits(n, bits), old_host_window_bits(n, bits)) << "n " << n << ", " << bits;
            ++checked;
        }
    EXPECT_GT(checked, 5u * 29 * 3);
}

TEST(WindowCost, DeviceWidthsEqualTheOldFormula) {
    for (unsigned bits : scalar_widths)
        for (size_t n : sizes())
            ASSERT_EQ(msm::choose_window_bits(n, bits, msm::device_buckets), old_device_window_bits(n, bits))
                << "n " << n << ", " << bits << "-bit scalars";
}

TEST(WindowCost, TableWidthsEqualTheOldFormula) {
    for (unsigned bits : scalar_widths)
        for (size_t n : sizes())
            ASSERT_EQ(msm::choose_window_bits(n, bits, msm::table_buckets), old_fixed_bases_window_bits(n, bits))
                << "n " << n << ", " << bits << "-bit scalars";
}

// The widths are not all one value: the comparison above sees the width move with n.
TEST(WindowCost, WidthsGrowWithN) {
    std::set<unsigned> host, device, table;
    for (size_t n : sizes()) {
        host.insert(msm::choose_window_bits(n, 255, msm::host_buckets));
        device.insert(msm::choose_window_bits(n, 255, msm::device_buckets));
        table.insert(msm::choose_window_bits(n, 255, msm::table_buckets));
    }
    EXPECT_GE(host.size(), 10u);
    EXPECT_GE(device.size(), 10u);
    EXPECT_GE(table.size(), 8u);
}

// A model's cost is the formula of its kind: W(c) n + S(c) w 2^(c-1).
TEST(WindowCost, CostIsTheFormula) {
    const size_t n = 1000003;
    for (unsigned c = 1; c <= 22; ++c) {
        const double W = double(windows_of(255, c)), half = double(uint64_t(1) << (c - 1));
        EXPECT_EQ(msm::host_buckets.cost(n, 255, c), W * double(n) + W * 2 * half);
        EXPECT_EQ(msm::device_buckets.cost(n, 255, c), W * double(n) + W * 3 * half);
        EXPECT_EQ(msm::table_buckets.cost(n, 255, c), W * double(n) + 3 * half);
    }
}
