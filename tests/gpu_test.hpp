// The GPU guard of the device tests (tests/test_*.cu): each test that needs a CUDA device starts
// with SKIP_WITHOUT_GPU(), so on a machine without one it reports SKIPPED (GTEST_SKIP), and ctest
// reports the executable as skipped when all of its tests did (tests/CMakeLists.txt).
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

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

}  // namespace cuzk::test

/// Skips the current test when no CUDA device is present. Use it in a TEST body or in a fixture's
/// SetUp (GTEST_SKIP returns from the enclosing function).
#define SKIP_WITHOUT_GPU()                                               \
    do {                                                                 \
        if (!::cuzk::test::have_gpu()) GTEST_SKIP() << "no CUDA device"; \
    } while (0)
