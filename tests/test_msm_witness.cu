// SPDX-License-Identifier: MIT OR Apache-2.0
// The device witness MSM (msm/witness_device.cuh) against the host MSM and the naive sum:
// witness shapes (all zeros, all ones, 90% and 99% bits, random), scalars that only reduce to 0
// or 1 (r, r + 1), Montgomery-form input, the ones' reduction meeting P + P and P + (-P),
// identity points, tables of shifted bases, and a workspace that is too small; the same MSMs
// over bases streamed from host memory in chunks (msm/streamed_bases.cuh); one witness plan
// (msm/witness_plan.cuh) read by two G1 MSMs and a G2 MSM over different bases, against the
// unshared calls and the naive sum. G1 and G2 of both curves. Skipped without a GPU.
#include <gtest/gtest.h>

#include <random>
#include <type_traits>
#include <vector>

#include "cuzk/gpu/device_buffer.hpp"
#include "cuzk/gpu/stream.hpp"
#include "cuzk/msm/pippenger_host.hpp"
#include "cuzk/msm/streamed_bases.cuh"
#include "cuzk/msm/witness_device.cuh"
#include "cuzk/msm/witness_plan.cuh"
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
    // Sizes just under, at and over a chunk of k points, and one of several chunks and a remainder.
    // Under compute-sanitizer k is 16: the same shapes in 280 chunk MSMs instead of 8,124, each of which
    // costs the tools a few launches' checking (at k = 1000 the case ran past 13 minutes).
    const size_t k = test::sanitized(size_t(1000), size_t(16));
    auto pts = random_points<G>(4 * k + 97, 14);
    const auto s = witness_scalars<G>(pts.size(), 0.9, 15);
    for (bool pinned : {false, true}) {
        if (pinned)
            ASSERT_EQ(cudaHostRegister(pts.data(), pts.size() * sizeof(affine<G>), cudaHostRegisterDefault),
                      cudaSuccess);
        for (size_t n : {size_t(1), k - 1, k, k + 1, 4 * k + 97})
            for (size_t chunk : {size_t(1), size_t(7), k, size_t(8192)}) {
                if (chunk == 1 && n > k) continue;  // k one-point chunks are enough
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

/// A curve's two groups: a plan of one scalar vector serves MSMs over either.
template <class G1_, class G2_>
struct curve_groups {
    using g1 = G1_;
    using g2 = G2_;
};
template <class C>
class WitnessPlan : public ::testing::Test {};
using PlanCurves = ::testing::Types<curve_groups<bls_g1, bls_g2>, curve_groups<bn_g1, bn_g2>>;
TYPED_TEST_SUITE(WitnessPlan, PlanCurves);

/// Device copies of three base vectors, as a Groth16 key's A, B_G1 (G1) and B_G2 (G2).
template <class C>
struct plan_bases {
    using G1 = typename C::g1;
    using G2 = typename C::g2;
    std::vector<affine<G1>> a, b1;
    std::vector<affine<G2>> b2;
    gpu::device_buffer<affine<G1>> da, db1;
    gpu::device_buffer<affine<G2>> db2;
    plan_bases(size_t n, uint64_t seed, cudaStream_t st)
        : a(random_points<G1>(n, seed)),
          b1(random_points<G1>(n, seed + 1)),
          b2(random_points<G2>(n, seed + 2)),
          da(n, st),
          db1(n, st),
          db2(n, st) {
        if (n == 0) return;
        da.upload(a.data(), st);
        db1.upload(b1.data(), st);
        db2.upload(b2.data(), st);
    }
};

/// The sums of the three MSMs over one plan.
template <class C>
struct plan_sums {
    jacobian<typename C::g1> a, b1;
    jacobian<typename C::g2> b2;
};

/// A, B1 (G1) and B2 (G2) over one plan, one after another in one workspace, each MSM given
/// exactly its queried size; B2 with the given accumulation.
template <class C>
plan_sums<C> run_plan(const plan_bases<C>& bases, const msm::witness_plan<typename C::g1::scalar>& plan,
                      cudaStream_t st, msm::device_options::accumulation g2_accumulate = {}) {
    using G1 = typename C::g1;
    using G2 = typename C::g2;
    const size_t bytes1 = msm::msm_witness_workspace_bytes<G1>(plan);
    const size_t bytes2 = msm::msm_witness_workspace_bytes<G2>(plan, g2_accumulate);
    gpu::device_buffer<char> ws(std::max(bytes1, bytes2), st);
    plan_sums<C> r;
    r.a = msm::msm_witness_device<G1>(bases.da.data(), plan, ws.data(), bytes1, st);
    r.b1 = msm::msm_witness_device<G1>(bases.db1.data(), plan, ws.data(), bytes1, st);
    r.b2 = msm::msm_witness_device<G2>(bases.db2.data(), plan, ws.data(), bytes2, st, g2_accumulate);
    return r;
}

TYPED_TEST(WitnessPlan, SharedByG1AndG2MsmsGivesTheUnsharedSums) {
    SKIP_WITHOUT_GPU();
    using G1 = typename TypeParam::g1;
    using G2 = typename TypeParam::g2;
    using Fr = typename G1::scalar;
    using I = scalar_int<G1>;
    static_assert(std::is_same_v<Fr, typename G2::scalar>);
    gpu::stream st;
    const plan_bases<TypeParam> bases(1000, 31, st);
    using acc = msm::device_options::accumulation;
    for (size_t n : {size_t(0), size_t(1), size_t(33), size_t(1000)})
        for (const char* shape : {"90% bits", "all zeros", "all ones", "random"}) {
            const std::string s_shape = shape;
            std::vector<I> s = s_shape == "all zeros" ? std::vector<I>(n)
                               : s_shape == "all ones"
                                   ? std::vector<I>(n, I::from_u64(1))
                                   : witness_scalars<G1>(n, s_shape == "random" ? 0.0 : 0.9, 40 + n);
            gpu::device_buffer<I> ds(n, st);
            if (n) ds.upload(s.data(), st);
            const size_t plan_bytes = msm::witness_plan_bytes<Fr>(n);
            gpu::device_buffer<char> buffer(plan_bytes, st);
            const msm::witness_plan<Fr> plan(ds.data(), n, buffer.data(), plan_bytes, st);
            ASSERT_EQ(plan.size(), n);
            size_t ones = 0, others = 0;
            for (const I& x : s) (x == I::from_u64(1) ? ones : others) += !x.is_zero();
            EXPECT_EQ(plan.ones(), ones) << shape << " n=" << n;
            EXPECT_EQ(plan.others(), others) << shape << " n=" << n;
            // Sized before the plan existed, a workspace serves it.
            EXPECT_LE(msm::msm_witness_workspace_bytes<G1>(plan), msm::msm_witness_planned_workspace_bytes<G1>(n));
            EXPECT_LE(msm::msm_witness_workspace_bytes<G2>(plan), msm::msm_witness_planned_workspace_bytes<G2>(n));
            auto first = [&](const auto& v) { return std::span(v).first(n); };
            const auto sc = std::span<const I>(s);
            const jacobian<G1> want_a = naive_msm<G1>(first(bases.a), sc), want_b1 = naive_msm<G1>(first(bases.b1), sc);
            const jacobian<G2> want_b2 = naive_msm<G2>(first(bases.b2), sc);
            for (acc g2 : {acc::automatic, acc::xyzz, acc::batch_affine}) {
                const plan_sums<TypeParam> got = run_plan<TypeParam>(bases, plan, st, g2);
                EXPECT_TRUE(got.a == want_a) << G1::name << " " << shape << " n=" << n;
                EXPECT_TRUE(got.b1 == want_b1) << G1::name << " " << shape << " n=" << n;
                EXPECT_TRUE(got.b2 == want_b2)
                    << G2::name << " " << shape << " n=" << n << " g2 accumulation " << int(g2);
            }
            EXPECT_TRUE(run_witness<G1>(first(bases.a), sc) == want_a) << shape << " n=" << n;  // the unshared calls
            EXPECT_TRUE(run_witness<G1>(first(bases.b1), sc) == want_b1) << shape << " n=" << n;
            EXPECT_TRUE(run_witness<G2>(first(bases.b2), sc) == want_b2) << shape << " n=" << n;
        }
}

// A larger witness, Montgomery form: the others' digits take a narrower width than the plan was
// sized for. The plan reads its buffer only: the scalars may change once it is built.
TYPED_TEST(WitnessPlan, LargerMontgomeryWitnessAndScalarsOverwrittenAfterwards) {
    SKIP_WITHOUT_GPU();
    using G1 = typename TypeParam::g1;
    using G2 = typename TypeParam::g2;
    using Fr = typename G1::scalar;
    using I = scalar_int<G1>;
    gpu::stream st;
    const size_t n = (size_t(1) << 16) + 3;
    const plan_bases<TypeParam> bases(n, 51, st);
    // Under compute-sanitizer only the witness of bits, whose others take the narrower width: the
    // all-random one runs the same kernels at the buffer's own width (BN254 took 375 s with both).
    for (double bits : test::sanitized(std::vector{0.9, 0.0}, std::vector{0.9})) {
        const auto s = witness_scalars<G1>(n, bits, 52);
        std::vector<I> mont(n);
        for (size_t i = 0; i < n; ++i) mont[i] = Fr::from_canonical(s[i]).mont;
        gpu::device_buffer<I> ds(n, st);
        ds.upload(mont.data(), st);
        const msm::device_options opt{.form = msm::scalar_form::montgomery};
        const size_t plan_bytes = msm::witness_plan_bytes<Fr>(n, opt);
        gpu::device_buffer<char> buffer(plan_bytes, st);
        const msm::witness_plan<Fr> plan(ds.data(), n, buffer.data(), plan_bytes, st, opt);
        // The others' own width (c = 10 for the 90%-bits tenth, 26 windows), not the one the
        // buffer was sized for (c = 13 for all n, 20 windows): the wider one folds 6x the buckets.
        EXPECT_EQ(plan.window_bits(), msm::device_window_bits(plan.others(), unsigned(Fr::modulus_bits)))
            << "bits=" << bits;
        CUZK_CUDA_CHECK(cudaMemsetAsync(ds.data(), 0xff, n * sizeof(I), st));  // no longer read
        const plan_sums<TypeParam> got = run_plan<TypeParam>(bases, plan, st);
        const auto sc = std::span<const I>(s);
        EXPECT_TRUE(got.a == msm::msm_host<G1>(std::span<const affine<G1>>(bases.a), sc)) << "bits=" << bits;
        EXPECT_TRUE(got.b1 == msm::msm_host<G1>(std::span<const affine<G1>>(bases.b1), sc)) << "bits=" << bits;
        EXPECT_TRUE(got.b2 == msm::msm_host<G2>(std::span<const affine<G2>>(bases.b2), sc)) << "bits=" << bits;
    }
}

TYPED_TEST(WitnessPlan, TooSmallABufferOrWorkspaceIsAnError) {
    SKIP_WITHOUT_GPU();
    using G1 = typename TypeParam::g1;
    using G2 = typename TypeParam::g2;
    using Fr = typename G1::scalar;
    using I = scalar_int<G1>;
    gpu::stream st;
    const size_t n = 100;
    const plan_bases<TypeParam> bases(n, 61, st);
    const auto s = witness_scalars<G1>(n, 0.5, 62);
    gpu::device_buffer<I> ds(n, st);
    ds.upload(s.data(), st);
    const size_t plan_bytes = msm::witness_plan_bytes<Fr>(n);
    gpu::device_buffer<char> buffer(plan_bytes, st);
    EXPECT_THROW(msm::witness_plan<Fr>(ds.data(), n, buffer.data(), plan_bytes - 1, st), invalid_argument);
    const msm::witness_plan<Fr> plan(ds.data(), n, buffer.data(), plan_bytes, st);
    const size_t bytes = msm::msm_witness_workspace_bytes<G2>(plan);
    gpu::device_buffer<char> ws(bytes, st);
    EXPECT_THROW(msm::msm_witness_device<G2>(bases.db2.data(), plan, ws.data(), bytes - 1, st), invalid_argument);
    EXPECT_TRUE(msm::msm_witness_device<G2>(bases.db2.data(), plan, ws.data(), bytes, st) ==
                naive_msm<G2>(std::span<const affine<G2>>(bases.b2), std::span<const I>(s)));
}

}  // namespace
