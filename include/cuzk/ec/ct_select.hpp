// Branch-free selection between two values of a limb type (field elements, points), for
// code whose control flow must not depend on secrets (constant-time scalar multiplication).
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

}  // namespace cuzk
