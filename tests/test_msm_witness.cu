// The device witness MSM (msm/witness_device.cuh) against the host MSM and the naive sum:
// witness shapes (all zeros, all ones, 90% and 99% bits, random), scalars that only reduce to 0
// or 1 (r, r + 1), Montgomery-form input, the ones' reduction meeting P + P and P + (-P),
// identity points, tables of shifted bases, and a workspace that is too small; the same MSMs
// over bases streamed from host memory in chunks (msm/streamed_bases.cuh). G1 and G2 of both
// curves. Skipped without a GPU.
#include <gtest/gtest.h>

#include <random>

#include "cuzk/gpu/device_buffer.hpp"
#include "cuzk/gpu/stream.hpp"
#include "cuzk/msm/pippenger_host.hpp"
#include "cuzk/msm/streamed_bases.cuh"
#include "cuzk/msm/witness_device.cuh"
#include "gpu_test.hpp"
#include "test_msm_util.hpp"

namespace {

using namespace cuzk;
using namespace msm_test;

/// Uploads inputs and runs the witness MSM with a workspace of exactly the queried size.
template <class G>
jacobian<G> run_witness(std::span<const affine<G>> p, std::span<const scalar_int<G>> s, msm::device_options opt = {}) {
    gpu::stream st;
    const size_t n = p.size();
    gpu::device_buffer<affine<G>> dp(n, st);
    gpu::device_buffer<scalar_int<G>> ds(n, st);
    if (n) {
        dp.upload(p.data(), st);
        ds.upload(s.data(), st);
    }
    const size_t bytes = msm::msm_witness_workspace_bytes<G>(n, opt);
    gpu::device_buffer<char> ws(bytes, st);
    jacobian<G> r = msm::msm_witness_device<G>(dp.data(), ds.data(), n, ws.data(), bytes, st, opt);
    st.synchronize();
    return r;
}

/// Scalars of which a share `bits` is 0 or 1 (half each), the rest uniform in [0, r).
template <class G>
std::vector<scalar_int<G>> witness_scalars(size_t n, double bits, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0, 1);
    std::vector<scalar_int<G>> s(n);
    for (auto& x : s) {
        const double v = u(rng);
        x = v < bits / 2 ? scalar_int<G>{} : v < bits ? scalar_int<G>::from_u64(1) : random_scalar<G>(rng);
    }
    return s;
}

template <class G>
class MsmWitness : public ::testing::Test {};
using WitnessGroups = ::testing::Types<bls_g1, bn_g1, bls_g2, bn_g2>;
TYPED_TEST_SUITE(MsmWitness, WitnessGroups);

TYPED_TEST(MsmWitness, WitnessShapesAgainstHost) {
    SKIP_WITHOUT_GPU();
    using G = TypeParam;
    auto pts = random_points<G>(4097, 11);
    for (size_t n : {0, 1, 2, 33, 1000, 4097})
        for (double bits : {0.0, 0.5, 0.9, 0.99, 1.0}) {
            auto p = std::span<const affine<G>>(pts).first(n);
            auto s = witness_scalars<G>(n, bits, 100 + n);
            EXPECT_TRUE(run_witness<G>(p, s) == msm::msm_host<G>(p, std::span<const scalar_int<G>>(s)))
                << G::name << " n=" << n << " bits=" << bits;
        }
}

TYPED_TEST(MsmWitness, AllZerosAndAllOnes) {
    SKIP_WITHOUT_GPU();
    using G = TypeParam;
    using I = scalar_int<G>;
    auto pts = random_points<G>(3000, 12);
    std::vector<I> zeros(pts.size()), ones(pts.size(), I::from_u64(1));
    EXPECT_TRUE(run_witness<G>(pts, zeros).is_identity());
    jacobian<G> sum = jacobian<G>::identity();
    for (const auto& p : pts) sum += jacobian<G>::from_affine(p);
    EXPECT_TRUE(run_witness<G>(pts, ones) == sum);
}

TYPED_TEST(MsmWitness, ScalarsThatReduceToZeroOrOneAndOddPoints) {
    SKIP_WITHOUT_GPU();
    using G = TypeParam;
    using I = scalar_int<G>;
    const I r = G::scalar::modulus, one = I::from_u64(1);
    auto pts = random_points<G>(16, 13);
    pts[1] = affine<G>::identity();  // an identity point among the ones
    pts[3] = pts[2];                 // P + P inside the ones' reduction
    pts[5] = -pts[4];                // P + (-P) inside the ones' reduction
    pts[9] = pts[8];                 // the same point with scalar 1 and with another scalar
    std::vector<I> sc = {
        one, one, one, one, one, one, r, r + one, one, I::from_u64(2), r - one, I{}, r + one, I::from_u64(3), one, r};
    EXPECT_TRUE(run_witness<G>(pts, sc) == naive_msm<G>(pts, sc));
    for (unsigned c : {1u, 7u, 16u})
        EXPECT_TRUE(run_witness<G>(pts, sc, {.window_bits = c}) == naive_msm<G>(pts, sc)) << "c=" << c;
    // Many copies of one point with scalar 1: the ones' sum is k P through doublings in every lane.
    std::vector<affine<G>> same(5000, pts[0]);
    std::vector<I> ones(same.size(), one);
    EXPECT_TRUE(run_witness<G>(same, ones) == mul_vartime(pts[0], I::from_u64(same.size())));
}

TYPED_TEST(MsmWitness, MontgomeryFormInput) {
    SKIP_WITHOUT_GPU();
    using G = TypeParam;
    using Fr = typename G::scalar;
    auto pts = random_points<G>(2000, 14);
    auto s = witness_scalars<G>(pts.size(), 0.9, 15);
    std::vector<scalar_int<G>> mont(s.size());
    for (size_t i = 0; i < s.size(); ++i) mont[i] = Fr::from_canonical(s[i]).mont;
    EXPECT_TRUE(run_witness<G>(pts, mont, {.form = msm::scalar_form::montgomery}) ==
                msm::msm_host<G>(std::span<const affine<G>>(pts), std::span<const scalar_int<G>>(s)));
}

TYPED_TEST(MsmWitness, LargerWitnessAgainstHost) {
    SKIP_WITHOUT_GPU();
    using G = TypeParam;
    const size_t n = (size_t(1) << 16) + 3;
    auto pts = random_points<G>(n, 16);
    for (double bits : {0.9, 0.99}) {
        auto s = witness_scalars<G>(n, bits, 17);
        EXPECT_TRUE(run_witness<G>(pts, s) ==
                    msm::msm_host<G>(std::span<const affine<G>>(pts), std::span<const scalar_int<G>>(s)))
            << "bits=" << bits;
    }
}

TYPED_TEST(MsmWitness, TableOfShiftedBases) {
    SKIP_WITHOUT_GPU();
    using G = TypeParam;
    gpu::stream st;
    const size_t n = 5000;
    auto pts = random_points<G>(n, 18);
    auto s = witness_scalars<G>(n, 0.9, 19);
    gpu::device_buffer<affine<G>> dp(n, st);
    gpu::device_buffer<scalar_int<G>> ds(n, st);
    dp.upload(pts.data(), st);
    ds.upload(s.data(), st);
    msm::fixed_bases<G> table(dp.data(), n, st, 10);
    for (size_t m : {size_t(1), size_t(777), n}) {
        const size_t bytes = msm::msm_witness_workspace_bytes(table, m);
        gpu::device_buffer<char> ws(bytes, st);
        const jacobian<G> got = msm::msm_witness_device(table, ds.data(), m, ws.data(), bytes, st);
        st.synchronize();
        EXPECT_TRUE(got == msm::msm_host<G>(std::span<const affine<G>>(pts).first(m),
                                            std::span<const scalar_int<G>>(s).first(m)))
            << "m=" << m;
    }
}

TYPED_TEST(MsmWitness, TooSmallAWorkspaceIsAnError) {
    SKIP_WITHOUT_GPU();
    using G = TypeParam;
    gpu::stream st;
    const size_t n = 100;
    gpu::device_buffer<affine<G>> dp(n, st);
    gpu::device_buffer<scalar_int<G>> ds(n, st);
    const size_t bytes = msm::msm_witness_workspace_bytes<G>(n);
    gpu::device_buffer<char> ws(bytes, st);
    EXPECT_THROW(msm::msm_witness_device<G>(dp.data(), ds.data(), n, ws.data(), bytes - 1, st), invalid_argument);
}

/// The streamed MSM over pts (host memory) with chunks of `chunk` points, each chunk's MSM the
/// witness MSM (or the plain one) over its slice of the scalars s, already on the device.
template <class G>
jacobian<G> run_streamed(std::span<const affine<G>> pts, std::span<const scalar_int<G>> s, size_t chunk, bool witness) {
    gpu::stream st;
    const size_t n = pts.size();
    gpu::device_buffer<scalar_int<G>> ds(n, st);
    if (n) ds.upload(s.data(), st);
    const size_t c = std::max<size_t>(1, std::min(chunk, n));
    const size_t ws_bytes = std::max(msm::msm_witness_workspace_bytes<G>(c), msm::msm_device_workspace_bytes<G>(c));
    gpu::device_buffer<char> ws(ws_bytes, st), buffers(msm::streamed_bases_bytes<G>(c), st);
    jacobian<G> r = msm::msm_streamed_bases<G>(
        pts.data(), n, chunk, buffers.data(), buffers.bytes(), st, [&](const affine<G>* d, size_t first, size_t count) {
            return witness ? msm::msm_witness_device<G>(d, ds.data() + first, count, ws.data(), ws_bytes, st)
                           : msm::msm_device<G>(d, ds.data() + first, count, ws.data(), ws_bytes, st);
        });
    st.synchronize();
    return r;
}

TYPED_TEST(MsmWitness, StreamedBasesEqualTheResidentMsm) {
    SKIP_WITHOUT_GPU();
    using G = TypeParam;
    auto pts = random_points<G>(4097, 14);
    const auto s = witness_scalars<G>(pts.size(), 0.9, 15);
    for (bool pinned : {false, true}) {
        if (pinned)
            ASSERT_EQ(cudaHostRegister(pts.data(), pts.size() * sizeof(affine<G>), cudaHostRegisterDefault),
                      cudaSuccess);
        for (size_t n : {size_t(1), size_t(999), size_t(1000), size_t(1001), size_t(4097)})
            for (size_t chunk : {size_t(1), size_t(7), size_t(1000), size_t(8192)}) {
                if (chunk == 1 && n > 1000) continue;  // a thousand MSM calls are enough
                auto p = std::span<const affine<G>>(pts).first(n);
                auto sc = std::span<const scalar_int<G>>(s).first(n);
                const jacobian<G> want = msm::msm_host<G>(p, sc);
                EXPECT_TRUE(run_streamed<G>(p, sc, chunk, true) == want)
                    << G::name << " witness n=" << n << " chunk=" << chunk << " pinned=" << pinned;
                if (chunk != 1)
                    EXPECT_TRUE(run_streamed<G>(p, sc, chunk, false) == want)
                        << G::name << " plain n=" << n << " chunk=" << chunk << " pinned=" << pinned;
            }
        if (pinned) ASSERT_EQ(cudaHostUnregister(pts.data()), cudaSuccess);
    }
    EXPECT_TRUE(run_streamed<G>({}, {}, 16, true).is_identity());
}

TYPED_TEST(MsmWitness, StreamedBasesErrors) {
    SKIP_WITHOUT_GPU();
    using G = TypeParam;
    auto pts = random_points<G>(100, 16);
    const auto s = witness_scalars<G>(pts.size(), 0.5, 17);
    gpu::stream st;
    gpu::device_buffer<char> buffers(msm::streamed_bases_bytes<G>(40), st);
    auto none = [](const affine<G>*, size_t, size_t) { return jacobian<G>::identity(); };
    EXPECT_THROW(msm::msm_streamed_bases<G>(pts.data(), 100, 0, buffers.data(), buffers.bytes(), st, none),
                 invalid_argument);
    EXPECT_THROW(msm::msm_streamed_bases<G>(pts.data(), 100, 41, buffers.data(), buffers.bytes(), st, none),
                 invalid_argument);  // two chunks of 41 do not fit
    EXPECT_THROW(msm::msm_streamed_bases<G>(nullptr, 100, 40, buffers.data(), buffers.bytes(), st, none),
                 invalid_argument);
    // An error in the third chunk's MSM reaches the caller, the queued uploads finish, and the
    // same buffers then give the right sum.
    size_t calls = 0;
    EXPECT_THROW(msm::msm_streamed_bases<G>(pts.data(), 100, 40, buffers.data(), buffers.bytes(), st,
                                            [&](const affine<G>*, size_t, size_t) -> jacobian<G> {
                                                if (++calls == 3) throw std::runtime_error("chunk failed");
                                                return jacobian<G>::identity();
                                            }),
                 std::runtime_error);
    EXPECT_EQ(calls, 3u);
    gpu::device_buffer<scalar_int<G>> ds(pts.size(), st);
    ds.upload(s.data(), st);
    const size_t ws_bytes = msm::msm_witness_workspace_bytes<G>(40);
    gpu::device_buffer<char> ws(ws_bytes, st);
    std::vector<size_t> firsts;
    const jacobian<G> r = msm::msm_streamed_bases<G>(
        pts.data(), 100, 40, buffers.data(), buffers.bytes(), st, [&](const affine<G>* d, size_t first, size_t count) {
            firsts.push_back(first);
            return msm::msm_witness_device<G>(d, ds.data() + first, count, ws.data(), ws_bytes, st);
        });
    EXPECT_EQ(firsts, (std::vector<size_t>{0, 40, 80}));
    EXPECT_TRUE(r == msm::msm_host<G>(std::span<const affine<G>>(pts), std::span<const scalar_int<G>>(s)));
}

}  // namespace
