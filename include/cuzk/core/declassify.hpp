// SPDX-License-Identifier: MIT OR Apache-2.0
// Declassification for the constant-time check (docs/RELIABILITY.md, "Constant time"): a value
// computed from secrets that may be revealed, such as a rejection-sampling verdict or the public
// proof, is passed through declassify() before code branches on it. In the check's build
// (CUZK_CT_CHECK, defined only by tests/test_constant_time under valgrind's memcheck.h) it tells
// memcheck that the bytes are public; everywhere else it returns its argument and costs nothing.
#pragma once

#include <type_traits>

#if defined(CUZK_CT_CHECK) && __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define CUZK_CT_DECLASSIFY 1
#endif

namespace cuzk {

/// x, marked public for the constant-time check (a no-op outside it).
template <class T>
constexpr T declassify(T x) noexcept {
#if defined(CUZK_CT_DECLASSIFY)
    if (!std::is_constant_evaluated()) (void)VALGRIND_MAKE_MEM_DEFINED(&x, sizeof x);
#endif
    return x;
}

}  // namespace cuzk
