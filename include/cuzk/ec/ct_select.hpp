// SPDX-License-Identifier: MIT OR Apache-2.0
// Branch-free selection between two values of a limb type (field elements, points), and a
// branch-free zero test, for code whose control flow must not depend on secrets (constant-time
// scalar multiplication). tests/test_constant_time checks them under valgrind.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "cuzk/core/hd.hpp"

namespace cuzk {

/// All-ones when b is true, zero otherwise, computed without a branch.
CUZK_HD constexpr uint64_t ct_mask(bool b) { return uint64_t(0) - uint64_t(b); }

/// Returns take_b ? b : a by masking 64-bit words, so the time and the memory access pattern
/// do not depend on take_b. T must be trivially copyable and a whole number of words (every
/// cuzk field element and point is).
template <class T>
CUZK_HD T ct_select(const T& a, const T& b, bool take_b) {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) % sizeof(uint64_t) == 0,
                  "ct_select works on whole 64-bit words");
    constexpr size_t n = sizeof(T) / sizeof(uint64_t);
    const uint64_t mask = ct_mask(take_b);
    T r = a;
    auto* rw = reinterpret_cast<uint64_t*>(&r);
    const auto* aw = reinterpret_cast<const uint64_t*>(&a);
    const auto* bw = reinterpret_cast<const uint64_t*>(&b);
    for (size_t i = 0; i < n; ++i) rw[i] = aw[i] ^ (mask & (aw[i] ^ bw[i]));
    return r;
}

/// True when every 64-bit word of x is zero, computed without a branch. For cuzk's field
/// elements (always fully reduced: zero is all-zero limbs) this is x.is_zero(), which for
/// towers is c0.is_zero() && c1.is_zero(): a branch that gcc keeps (tests/test_constant_time).
template <class T>
CUZK_HD bool ct_is_zero(const T& x) {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) % sizeof(uint64_t) == 0,
                  "ct_is_zero works on whole 64-bit words");
    constexpr size_t n = sizeof(T) / sizeof(uint64_t);
    const auto* w = reinterpret_cast<const uint64_t*>(&x);
    uint64_t acc = 0;
    for (size_t i = 0; i < n; ++i) acc |= w[i];
    return bool(((acc | (uint64_t(0) - acc)) >> 63) ^ 1);  // top bit of acc | -acc is set iff acc != 0
}

}  // namespace cuzk
