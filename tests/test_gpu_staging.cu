// SPDX-License-Identifier: MIT OR Apache-2.0
// gpu::upload_staging (gpu/upload_staging.hpp): every byte arrives, for sizes around the slot
// size, from pageable and page-locked sources; a pageable source may be overwritten as soon as
// upload() returns; concurrent callers do not mix their bytes. Skips without a GPU.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "cuzk/gpu/device_buffer.hpp"
#include "cuzk/gpu/stream.hpp"
#include "cuzk/gpu/upload_staging.hpp"
#include "gpu_test.hpp"

namespace {

using namespace cuzk;

std::vector<unsigned char> random_bytes(size_t n, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<unsigned char> v(n);
    for (auto& b : v) b = static_cast<unsigned char>(rng());
    return v;
}

std::vector<unsigned char> round_trip(gpu::upload_staging& staging, std::vector<unsigned char>& src) {
    gpu::stream st;
    gpu::device_buffer<unsigned char> d(src.size(), st);
    const std::vector<unsigned char> want = src;
    staging.upload(d.data(), src.data(), src.size(), st);
    std::fill(src.begin(), src.end(), 0xAB);  // the contract: reusable at once
    std::vector<unsigned char> got(src.size());
    if (!got.empty()) d.download(got.data(), st);
    st.synchronize();
    src = want;
    return got;
}

TEST(UploadStaging, EveryByteForSizesAroundTheSlot) {
    SKIP_WITHOUT_GPU();
    const size_t slot = (size_t(1) << 20) + 3;  // odd, so chunk edges fall mid-word
    gpu::upload_staging staging(slot);
    for (size_t n : {size_t(0), size_t(1), size_t(7), slot - 1, slot, slot + 1, 2 * slot, 3 * slot + 5}) {
        auto src = random_bytes(n, n);
        EXPECT_TRUE(round_trip(staging, src) == src) << "n=" << n;
    }
    // The default ring with a witness-sized copy (parallel host copies inside each slot).
    gpu::upload_staging big;
    auto src = random_bytes((size_t(100) << 20) + 17, 5);
    EXPECT_TRUE(round_trip(big, src) == src);
}

TEST(UploadStaging, PageLockedSourceIsCopiedDirectly) {
    SKIP_WITHOUT_GPU();
    const size_t n = (size_t(3) << 20) + 1;
    unsigned char* pinned = nullptr;
    ASSERT_EQ(cudaMallocHost(reinterpret_cast<void**>(&pinned), n), cudaSuccess);
    const auto want = random_bytes(n, 9);
    std::memcpy(pinned, want.data(), n);
    gpu::upload_staging staging(size_t(1) << 20);
    gpu::stream st;
    gpu::device_buffer<unsigned char> d(n, st);
    staging.upload(d.data(), pinned, n, st);
    std::vector<unsigned char> got(n);
    d.download(got.data(), st);
    st.synchronize();
    cudaFreeHost(pinned);
    EXPECT_TRUE(got == want);
}

TEST(UploadStaging, ConcurrentCallersKeepTheirBytes) {
    SKIP_WITHOUT_GPU();
    gpu::upload_staging staging(size_t(1) << 20);
    std::vector<std::vector<unsigned char>> srcs, gots(4);
    for (int t = 0; t < 4; ++t) srcs.push_back(random_bytes((size_t(5) << 20) + size_t(t), 100 + t));
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) threads.emplace_back([&, t] { gots[t] = round_trip(staging, srcs[t]); });
    for (auto& th : threads) th.join();
    for (int t = 0; t < 4; ++t) EXPECT_TRUE(gots[t] == srcs[t]) << "thread " << t;
}

}  // namespace
