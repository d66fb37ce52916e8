// SPDX-License-Identifier: MIT OR Apache-2.0
// The GPU guard of the device tests (tests/test_*.cu): each test that needs a CUDA device starts
// with SKIP_WITHOUT_GPU(), so on a machine without one it reports SKIPPED (GTEST_SKIP), and ctest
// reports the executable as skipped when all of its tests did (tests/CMakeLists.txt).
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdlib>

namespace cuzk::test {

/// True when the CUDA runtime sees at least one device. Asked once per process; the error a
/// failed query leaves (no driver, no device) is cleared so that it does not surface later.
inline bool have_gpu() {
    static const bool present = [] {
        int count = 0;
        const bool ok = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
        if (!ok) (void)cudaGetLastError();
        return ok;
    }();
    return present;
}

/// True when the test runs under compute-sanitizer: scripts/gpu-suite.sh (CUZK_SUITE_SANITIZER)
/// and scripts/sanitizer-cases.sh set CUZK_TEST_UNDER_SANITIZER=1. racecheck makes a 2^10 proof
/// take seconds, so the slowest cases then prove fewer times on smaller circuits (sanitized()):
/// the tools check every kernel a proof launches, which one proof of each shape already runs;
/// the plain runs keep the full counts and sizes.
inline bool under_sanitizer() {
    static const bool on = [] {
        const char* v = std::getenv("CUZK_TEST_UNDER_SANITIZER");
        return v != nullptr && *v != '\0' && *v != '0';
    }();
    return on;
}

/// `full` in a plain run, `reduced` under compute-sanitizer.
template <class T>
T sanitized(T full, T reduced) {
    return under_sanitizer() ? reduced : full;
}

}  // namespace cuzk::test

/// Skips the current test when no CUDA device is present. Use it in a TEST body or in a fixture's
/// SetUp (GTEST_SKIP returns from the enclosing function).
#define SKIP_WITHOUT_GPU()                                               \
    do {                                                                 \
        if (!::cuzk::test::have_gpu()) GTEST_SKIP() << "no CUDA device"; \
    } while (0)
