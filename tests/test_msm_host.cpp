// SPDX-License-Identifier: MIT OR Apache-2.0
// Host MSM: every edge case (empty input, zero and extreme scalars, identity and equal points, every
// window width, Montgomery-form scalars) against the naive sum of scalar multiplications, and a
// closed-form check at a larger non-power-of-two size; each with full-width scalars and with the
// endomorphism split forced on (2 parts, and 4 on BLS12-381 G2). The splits themselves
// (msm/scalar_split.hpp) are checked against Fr arithmetic and naive scalar multiplications.
#include <gtest/gtest.h>

#include <algorithm>

#include <cstring>
#include <random>

#include "cuzk/msm/witness_host.hpp"
#include "cuzk/msm/pippenger_host.hpp"
#include "cuzk/msm/scalar_split.hpp"
#include "test_msm_util.hpp"

namespace {

using namespace cuzk;
using namespace msm_test;

template <class G>
class MsmHost : public ::testing::Test {};
using Groups = ::testing::Types<bls_g1, bn_g1, bls_g2, bn_g2>;
TYPED_TEST_SUITE(MsmHost, Groups);

// Both bucket accumulations run every case (the automatic choice is one of them).
constexpr msm::host_accumulation accumulations[] = {msm::host_accumulation::xyzz,
                                                    msm::host_accumulation::batch_affine};

// The split settings every case runs with: off, on (2 parts), and 4 parts where the group has them.
template <class G>
std::vector<msm::host_options> splits() {
    std::vector<msm::host_options> v = {{.split = msm::host_split::off}, {.split = msm::host_split::on}};
    if constexpr (msm::has_endomorphism_split<G, 4>) v.push_back({.split = msm::host_split::on, .split_parts = 4});
    return v;
}
template <class G>
std::string describe(const msm::host_options& o) {
    return std::string(G::name) + " c=" + std::to_string(o.window_bits) + " acc=" + std::to_string(int(o.accumulation)) +
           " split=" + std::to_string(int(o.split)) + " parts=" + std::to_string(o.split_parts);
}

template <class G>
void expect_msm_eq_naive(std::span<const affine<G>> p, std::span<const scalar_int<G>> s, msm::host_options opt = {}) {
    jacobian<G> want = naive_msm<G>(p, s);
    for (msm::host_options o : splits<G>())
        for (auto acc : accumulations) {
            o.window_bits = opt.window_bits;
            o.accumulation = acc;
            jacobian<G> got = msm::msm_host<G>(p, s, o);
            EXPECT_TRUE(got == want) << describe<G>(o) << " n=" << p.size();
            EXPECT_TRUE(got.is_on_curve());
        }
}

TYPED_TEST(MsmHost, SizesAgainstNaive) {
    using G = TypeParam;
    auto pts = random_points<G>(130, 1);
    auto sc = random_scalars<G>(130, 2);
    // prefix sums of the naive terms: the oracle for every n at the cost of the largest
    std::vector<jacobian<G>> prefix(131, jacobian<G>::identity());
    for (size_t i = 0; i < 130; ++i) prefix[i + 1] = prefix[i] + mul_vartime(pts[i], sc[i]);
    for (size_t n : {0, 1, 2, 3, 31, 32, 33, 63, 64, 65, 100, 127, 129})
        for (const msm::host_options& o : splits<G>()) {
            jacobian<G> got = msm::msm_host<G>(std::span(pts).first(n), std::span(sc).first(n), o);
            EXPECT_TRUE(got == prefix[n]) << describe<G>(o) << " n=" << n;
        }
}

TYPED_TEST(MsmHost, EmptyIsIdentity) {
    using G = TypeParam;
    EXPECT_TRUE(msm::msm_host<G>(std::span<const affine<G>>{}, std::span<const scalar_int<G>>{}).is_identity());
}

TYPED_TEST(MsmHost, EdgeScalarsAndPoints) {
    using G = TypeParam;
    const edge_inputs<G> edge;
    const auto& pts = edge.points;
    const auto& sc = edge.scalars;
    const jacobian<G> want = naive_msm<G>(pts, sc);
    for (unsigned c : {0u, 1u, 5u, 8u, 13u, 16u})
        for (auto acc : accumulations)
            for (msm::host_options o : splits<G>()) {
                o.window_bits = c;
                o.accumulation = acc;
                EXPECT_TRUE(msm::msm_host<G>(pts, sc, o) == want) << describe<G>(o);
            }
}

TYPED_TEST(MsmHost, ZeroScalarsAndIdentityPoints) {
    using G = TypeParam;
    auto pts = random_points<G>(33, 4);
    for (const msm::host_options& o : splits<G>()) {
        std::vector<scalar_int<G>> zeros(33);
        EXPECT_TRUE(msm::msm_host<G>(pts, zeros, o).is_identity()) << describe<G>(o);
        std::vector<affine<G>> ids(33, affine<G>::identity());
        auto sc = random_scalars<G>(33, 5);
        EXPECT_TRUE(msm::msm_host<G>(ids, sc, o).is_identity()) << describe<G>(o);
        // one non-zero scalar: exactly that point
        zeros[17] = scalar_int<G>::from_u64(1);
        EXPECT_TRUE(msm::msm_host<G>(pts, zeros, o) == pts[17]) << describe<G>(o);
    }
}

TYPED_TEST(MsmHost, AllScalarsEqualAndAllPointsEqual) {
    using G = TypeParam;
    auto pts = random_points<G>(64, 6);
    std::vector<scalar_int<G>> same(64, random_scalars<G>(1, 7)[0]);
    expect_msm_eq_naive<G>(pts, same);
    std::vector<affine<G>> dup(64, pts[0]);
    auto sc = random_scalars<G>(64, 8);
    expect_msm_eq_naive<G>(dup, sc);
}

TYPED_TEST(MsmHost, EveryWindowSize) {
    using G = TypeParam;
    auto pts = random_points<G>(40, 9);
    auto sc = random_scalars<G>(40, 10);
    const jacobian<G> want = naive_msm<G>(pts, sc);
    // Wide windows cost 2^c additions whatever n is; G2 (3x dearer) checks the widest only.
    constexpr bool g2 = requires { typename G::field::base; };  // coordinates in Fp2
    for (unsigned c = 1; c <= msm::host_max_window_bits; ++c) {
        if (g2 && c > 12 && c < msm::host_max_window_bits) continue;
        for (auto acc : accumulations)
            for (msm::host_options o : splits<G>()) {
                if (g2 && o.split == msm::host_split::on && c > 8 && c < msm::host_max_window_bits) continue;
                o.window_bits = c;
                o.accumulation = acc;
                EXPECT_TRUE(msm::msm_host<G>(pts, sc, o) == want) << describe<G>(o);
            }
    }
    // and the widths the dispatcher picks across sizes are all in range
    for (size_t n = 1; n < (size_t(1) << 30); n *= 3) {
        unsigned c = msm::host_window_bits(n, G::scalar::modulus_bits);
        EXPECT_GE(c, 1u);
        EXPECT_LE(c, msm::host_max_window_bits);
    }
}

TYPED_TEST(MsmHost, MontgomeryFormScalars) {
    using G = TypeParam;
    using Fr = typename G::scalar;
    auto pts = random_points<G>(33, 11);
    std::mt19937_64 rng(12);
    std::vector<Fr> fr(33);
    std::vector<scalar_int<G>> canon(33);
    for (size_t i = 0; i < 33; ++i) {
        fr[i] = Fr::random(rng);
        canon[i] = fr[i].to_canonical();
    }
    jacobian<G> want = naive_msm<G>(pts, canon);
    for (const msm::host_options& o : splits<G>())
        EXPECT_TRUE(msm::msm_host<G>(std::span<const affine<G>>(pts), std::span<const Fr>(fr), o) == want)
            << describe<G>(o);
}

TYPED_TEST(MsmHost, RepeatableAndThreadCountIndependent) {
    using G = TypeParam;
    auto pts = random_points<G>(257, 13);
    auto sc = random_scalars<G>(257, 14);
    jacobian<G> a = msm::msm_host<G>(pts, sc), b = msm::msm_host<G>(pts, sc);
    EXPECT_EQ(std::memcmp(&a, &b, sizeof a), 0) << "two runs differ in their bytes";
    EXPECT_TRUE(msm::msm_host<G>(pts, sc, {.threads = 1}) == a);
    EXPECT_TRUE(msm::msm_host<G>(pts, sc, {.threads = 3}) == a);
    for (auto acc : accumulations) {
        jacobian<G> x = msm::msm_host<G>(pts, sc, {.accumulation = acc}), y = msm::msm_host<G>(pts, sc, {.accumulation = acc});
        EXPECT_EQ(std::memcmp(&x, &y, sizeof x), 0) << int(acc);
        EXPECT_TRUE(x == a) << int(acc);
    }
    for (msm::host_options o : splits<G>()) {
        jacobian<G> x = msm::msm_host<G>(pts, sc, o);
        o.threads = 1;
        EXPECT_TRUE(msm::msm_host<G>(pts, sc, o) == x) << describe<G>(o);
        EXPECT_TRUE(x == a) << describe<G>(o);
    }
}

// Window counts that do not divide among the threads: the last passes are cut into pieces
// (msm::detail::bucket_tasks); the sum must not change.
TYPED_TEST(MsmHost, PassesCutAmongThreadsAgainstClosedForm) {
    using G = TypeParam;
    const size_t n = (size_t(1) << 12) + 3;
    auto prog = progression<G>::make(17, 100);
    auto pts = prog.points(n);
    auto sc = random_scalars<G>(n, 18);
    const jacobian<G> want = prog.expected(sc);
    for (unsigned c : {4u, 5u, 7u})
        for (int threads : {2, 3, 5})
            for (auto acc : accumulations)
                EXPECT_TRUE(msm::msm_host<G>(pts, sc, {.window_bits = c, .threads = threads, .accumulation = acc}) == want)
                    << "c " << c << ", " << threads << " threads, accumulation " << int(acc);
}

// ---- batch-affine buckets: their own exceptional cases, bucket by bucket against XYZZ sums ----

template <class G>
void expect_buckets(const msm::detail::affine_buckets<G>& got, const std::vector<xyzz<G>>& want) {
    for (size_t b = 0; b < want.size(); ++b)
        EXPECT_TRUE(to_jacobian(got.sum(b)) == to_jacobian(want[b])) << G::name << " bucket " << b;
}

TYPED_TEST(MsmHost, BatchAffineExceptionalCases) {
    using G = TypeParam;
    auto p = random_points<G>(4, 21);
    const affine<G> P = p[0], Q = p[1];
    const affine<G> PQ = to_affine(xyzz<G>::from_affine(P) + Q);
    msm::detail::affine_buckets<G> acc(64);  // batch 16
    std::vector<xyzz<G>> want(64, xyzz<G>::identity());
    auto add = [&](uint32_t b, const affine<G>& x) {
        acc.add(b, x);
        want[b] += x;
    };
    add(0, P), add(0, P);          // P + P: the doubling
    add(1, P), add(1, -P);         // P + (-P): empty again
    add(1, Q);                     // ... and refilled
    add(2, P), add(2, Q);          // staged: bucket 2 becomes P + Q in the batch
    add(2, -PQ);                   // same bucket, same batch: queued; then P + Q - (P + Q) = identity mid-run
    add(3, P), add(3, Q), add(3, PQ);  // queued behind the staged Q; then (P + Q) + (P + Q): a doubling
    add(4, affine<G>::identity());     // identity points leave a bucket empty
    // bucket 5 stays empty
    add(6, P), add(6, -P), add(6, -P);
    acc.finish();
    expect_buckets(acc, want);
    EXPECT_TRUE(acc.sum(5).is_identity());
    EXPECT_FALSE(acc.sum(1).is_identity());
    EXPECT_TRUE(to_jacobian(acc.sum(2)).is_identity());
}

TYPED_TEST(MsmHost, BatchAffineConflictsQueueAndOverflow) {
    using G = TypeParam;
    // Few distinct points (equal x everywhere: doublings and cancellations), few buckets (many
    // conflicts per batch), one bucket that takes every point (the queue fills, the overflow
    // buckets take the rest), and enough points for several resets.
    auto p = random_points<G>(3, 22);
    std::vector<affine<G>> pool = {p[0], -p[0], p[1], -p[1], p[2]};
    std::mt19937_64 rng(23);
    msm::detail::affine_buckets<G> acc(32);
    for (int round = 0; round < 3; ++round) {
        acc.reset();
        std::vector<xyzz<G>> want(32, xyzz<G>::identity());
        for (int i = 0; i < 2000; ++i) {
            const uint32_t b = round == 2 ? 7 : uint32_t(rng() % (round == 0 ? 32 : 3));
            const affine<G>& x = pool[rng() % pool.size()];
            acc.add(b, x);
            want[b] += x;
        }
        acc.finish();
        expect_buckets(acc, want);
        xyzz<G> fold = xyzz<G>::identity();
        for (size_t b = 0; b < 32; ++b)
            for (size_t k = 0; k <= b; ++k) fold += want[b];
        EXPECT_TRUE(to_jacobian(acc.fold()) == to_jacobian(fold)) << "round " << round;
    }
}

// The IFMA additions (batch_affine_ifma.hpp, BN254 G1 and G2 on a CPU with AVX-512 IFMA) against the
// scalar ones and XYZZ sums: batches of 1 to 1024 additions, every remainder mod 8 (the partial
// last row), points whose coordinates are near 0 and near p as well as random ones.
TYPED_TEST(MsmHost, BatchAffineVectorisedEqualsScalar) {
    using G = TypeParam;
    using B = msm::detail::affine_buckets<G>;
    if (!B::uses_ifma()) GTEST_SKIP() << G::name << ": no IFMA path for this group on this CPU";
    auto pts = random_points<G>(600, 31);
    for (size_t k = 0; k < 20; ++k) pts.push_back(-pts[k]);  // y and p - y
    std::mt19937_64 rng(32);
    for (size_t buckets : {4u, 32u, 36u, 64u, 200u, 4096u})
        for (size_t adds : {1u, 7u, 9u, 100u, 3001u}) {
            B vec(buckets, true), scalar(buckets, false);
            ASSERT_TRUE(vec.vectorised());
            ASSERT_FALSE(scalar.vectorised());
            std::vector<xyzz<G>> want(buckets, xyzz<G>::identity());
            for (size_t i = 0; i < adds; ++i) {
                const uint32_t b = uint32_t(rng() % buckets);
                const affine<G>& x = pts[rng() % pts.size()];
                vec.add(b, x);
                scalar.add(b, x);
                want[b] += x;
            }
            vec.finish();
            scalar.finish();
            for (size_t b = 0; b < buckets; ++b) {
                ASSERT_TRUE(to_jacobian(vec.sum(b)) == to_jacobian(want[b])) << "buckets " << buckets << " adds " << adds << " bucket " << b;
                // The affine sums stay canonical (below p): the buckets' equal-x and identity tests
                // compare limbs. With no overflow bucket in use, sum(b) holds them as they are.
                const xyzz<G> v = vec.sum(b);
                if constexpr (requires { v.x.c1; }) {
                    const auto& q = G::field::base::modulus;
                    ASSERT_TRUE(v.x.c0.mont < q && v.x.c1.mont < q && v.y.c0.mont < q && v.y.c1.mont < q) << "bucket " << b;
                } else {
                    ASSERT_TRUE(v.x.mont < G::field::modulus && v.y.mont < G::field::modulus) << "bucket " << b;
                }
                ASSERT_TRUE(v == scalar.sum(b)) << "buckets " << buckets << " adds " << adds << " bucket " << b;
            }
        }
}

#if CUZK_IFMA
// apply_batch_ifma on coordinates that are not points but field values at the edges (0, 1, 2,
// p - 1, p - 2, (p - 1) / 2) mixed with random ones: the unreduced intermediate values then come
// near their bounds, and every output must equal the affine formulas in scalar arithmetic,
// reduced below p, limb for limb.
template <class G>
void ifma_batch_against_formulas() {
    using F = typename G::field;
    using B = typename msm::detail::inversion_field<F>::type;
    if (!msm::detail::affine_buckets<G>::uses_ifma()) GTEST_SKIP() << G::name << ": no IFMA path on this CPU";
    std::mt19937_64 rng(41);
    auto base_value = [&]() {
        B v;
        v.mont = bigint<B::limbs>{};
        const auto& q = B::modulus;
        switch (rng() % 8) {
            case 0: break;  // 0
            case 1: v.mont.limb[0] = 1; break;
            case 2: v.mont.limb[0] = 2; break;
            case 3: v.mont = q; v.mont.limb[0] -= 1; break;  // p - 1 (p odd: no borrow)
            case 4: v.mont = q; v.mont.limb[0] -= 2; break;
            case 5:  // (p - 1) / 2
                v.mont = q;
                for (size_t i = 0; i < B::limbs; ++i)
                    v.mont.limb[i] = (q.limb[i] >> 1) | (i + 1 < B::limbs ? q.limb[i + 1] << 63 : 0);
                break;
            default: v = B::random(rng); break;
        }
        return v;
    };
    auto value = [&]() {
        if constexpr (requires(const F& f) { f.c1; }) return F{base_value(), base_value()};
        else return base_value();
    };
    struct entry {
        uint32_t bucket;
        affine<G> point;
    };
    for (size_t n : {1u, 7u, 8u, 9u, 64u, 1000u}) {
        std::vector<entry> e(n);
        std::vector<affine<G>> buckets(n), want(n);
        for (size_t j = 0; j < n; ++j) {
            e[j].bucket = uint32_t(n - 1 - j);  // distinct, not in order
            affine<G>& q = buckets[e[j].bucket];
            do {
                q = affine<G>{value(), value()};
                e[j].point = affine<G>{value(), value()};
            } while (q.x == e[j].point.x);
            const F lambda = (e[j].point.y - q.y) * (e[j].point.x - q.x).inverse_vartime();
            const F x = lambda.square() - q.x - e[j].point.x;
            want[e[j].bucket] = affine<G>{x, lambda * (q.x - x) - q.y};
        }
        std::vector<uint64_t> scratch;
        msm::detail::apply_batch_ifma<G>(buckets.data(), sizeof(affine<G>), &e[0].bucket, &e[0].point, sizeof(entry), n,
                                         scratch);
        for (size_t b = 0; b < n; ++b)
            ASSERT_EQ(std::memcmp(&buckets[b], &want[b], sizeof(affine<G>)), 0) << G::name << " n " << n << " bucket " << b;
    }
}

TEST(MsmHostIfma, BatchAgainstFormulasAtTheEdgesBn254G1) { ifma_batch_against_formulas<bn254::g1>(); }
TEST(MsmHostIfma, BatchAgainstFormulasAtTheEdgesBn254G2) { ifma_batch_against_formulas<bn254::g2>(); }
#endif

TYPED_TEST(MsmHost, ClosedFormLargerN) {
    using G = TypeParam;
    const size_t n = (size_t(1) << 12) + 1;
    auto prog = progression<G>::make(15, 100);
    auto pts = prog.points(n);
    auto sc = random_scalars<G>(n, 16);
    for (auto acc : accumulations)
        for (msm::host_options o : splits<G>()) {
            o.accumulation = acc;
            EXPECT_TRUE(msm::msm_host<G>(pts, sc, o) == prog.expected(sc)) << describe<G>(o);
        }
}

// The witness MSM (zeros dropped, ones summed in batch-affine lanes, Pippenger on the rest in
// place or gathered) on
// witness-shaped scalars, against the naive sum; sizes past the 1024 lanes and a batch.
TYPED_TEST(MsmHost, WitnessShapesAgainstNaive) {
    using G = TypeParam;
    using Fr = typename G::scalar;
    const size_t n = 2600;
    auto pts = random_points<G>(n, 24);
    pts[9] = affine<G>::identity();
    pts[11] = pts[10];
    std::mt19937_64 rng(25);
    // % bits; -1 all zeros; -2 all ones. Up to 50% bits the rest is summed in place (ones
    // skipped by their digits), above that over a compact copy.
    for (int pct : {0, 40, 50, 60, 90, 99, -1, -2}) {
        std::vector<Fr> fr(n);
        std::vector<scalar_int<G>> canon(n);
        for (size_t i = 0; i < n; ++i) {
            if (pct == -1) fr[i] = Fr::zero();
            else if (pct == -2) fr[i] = Fr::one();
            else if (int(rng() % 100) < pct) fr[i] = rng() % 2 ? Fr::one() : Fr::zero();
            else fr[i] = Fr::random(rng);
            canon[i] = fr[i].to_canonical();
        }
        const jacobian<G> got = groth16::msm_witness_host<G>(pts, fr);
        EXPECT_TRUE(got == naive_msm<G>(pts, canon)) << G::name << " bits " << pct;
    }
}

// ---- endomorphism splits (msm/scalar_split.hpp) ----

template <class G, unsigned P>
struct split_case {
    using group = G;
    static constexpr unsigned parts = P;
};
template <class C>
class ScalarSplit : public ::testing::Test {};
using SplitCases = ::testing::Types<split_case<bn_g1, 2>, split_case<bls_g1, 2>, split_case<bn_g2, 2>,
                                    split_case<bls_g2, 2>, split_case<bls_g2, 4>>;
TYPED_TEST_SUITE(ScalarSplit, SplitCases);

// lambda_j in Fr, the factor by which Q_j = image(P, j) is meant to multiply P, from the config's
// constants alone: glv_lambda^j (lattice) or (+-eigenvalue_abs as the eigenvalue of +-endo)^(stride j).
template <class G, unsigned P>
typename G::scalar split_eigenvalue(unsigned j) {
    using Fr = typename G::scalar;
    using S = msm::endomorphism_split<G, P>;
    Fr base{}, acc = Fr::one();
    unsigned power = j;
    if constexpr (msm::has_glv_lattice<G>) {
        base = Fr::from_canonical(G::glv_lambda);
    } else {
        scalar_int<G> e{};
        for (size_t i = 0; i < G::eigenvalue_abs.limbs; ++i) e.limb[i] = G::eigenvalue_abs.limb[i];
        base = Fr::from_canonical(e);  // (+-endo) acts as [+e] whatever the sign of the eigenvalue
        power = j * S::stride;
    }
    for (unsigned i = 0; i < power; ++i) acc = acc * base;
    return acc;
}

// 0, 1, 2, r-1, r-2, (r-1)/2, lambda and lambda +- 1, lambda^2, the base and powers of it +- 1,
// values near multiples of r / t and of lambda, and random scalars.
template <class G, unsigned P>
std::vector<scalar_int<G>> split_test_scalars(size_t random_count) {
    using I = scalar_int<G>;
    using Fr = typename G::scalar;
    const I r = Fr::modulus, one = I::from_u64(1);
    std::vector<I> v = {I{}, one, I::from_u64(2), r - one, r - I::from_u64(2), (r - one).shr(1)};
    auto around = [&](const I& x) {
        for (const I& d : {I{}, one}) {
            const I up = x + d, down = x - d;
            if (up < r) v.push_back(up);
            if (!(down > x) && down < r) v.push_back(down);
        }
    };
    for (unsigned j = 1; j < 4; ++j) around(split_eigenvalue<G, P>(j).to_canonical());  // lambda_j +- 1
    if constexpr (!msm::has_glv_lattice<G>) {
        const I E = msm::endomorphism_split<G, P>::E;
        I p = E;
        for (unsigned j = 1; j < P; ++j) {
            around(p);  // E^j +- 1
            around(r - p);
            const Fr next = Fr::from_canonical(p) * Fr::from_canonical(E);
            if (j + 1 < P) p = next.to_canonical();
        }
    }
    std::mt19937_64 rng(31);
    for (int t = 2; t < 40; ++t) {
        // floor(t' r / t) for the t' in [1, t): around r / t, 2r / t, ...
        const Fr inv_t = Fr::from_u64(uint64_t(t)).inverse();
        around((Fr::from_u64(1 + rng() % uint64_t(t - 1)) * inv_t).to_canonical());
        around((split_eigenvalue<G, P>(1) * Fr::from_u64(uint64_t(t))).to_canonical());  // t lambda
    }
    for (size_t i = 0; i < random_count; ++i) v.push_back(random_scalar<G>(rng));
    return v;
}

TYPED_TEST(ScalarSplit, PartsFitAndRecompose) {
    using G = typename TypeParam::group;
    constexpr unsigned P = TypeParam::parts;
    using S = msm::endomorphism_split<G, P>;
    using Fr = typename G::scalar;
    std::vector<Fr> lambda(P);
    for (unsigned j = 0; j < P; ++j) lambda[j] = split_eigenvalue<G, P>(j);
    unsigned widest = 0;
    for (const scalar_int<G>& k : split_test_scalars<G, P>(20000)) {
        const auto part = S::split(k);
        Fr sum = Fr::zero();
        for (unsigned j = 0; j < P; ++j) {
            const unsigned bits = unsigned(part[j].magnitude.num_bits());
            widest = std::max(widest, bits);
            ASSERT_LE(bits, S::part_bits) << G::name << " part " << j;
            const Fr t = Fr::from_canonical(part[j].magnitude) * lambda[j];
            sum = part[j].negative ? sum - t : sum + t;
        }
        ASSERT_TRUE(sum == Fr::from_canonical(k)) << G::name << " parts " << P;
    }
    EXPECT_GE(widest + 2, S::part_bits) << "the bit budget is not far above what the parts use";
}

TYPED_TEST(ScalarSplit, ImagesAndPointsAgainstNaiveMultiplication) {
    using G = typename TypeParam::group;
    constexpr unsigned P = TypeParam::parts;
    using S = msm::endomorphism_split<G, P>;
    auto pts = random_points<G>(3, 32);
    pts.push_back(affine<G>::generator());
    for (const affine<G>& p : pts)
        for (unsigned j = 0; j < P; ++j) {
            EXPECT_TRUE(jacobian<G>::from_affine(S::image(p, j)) == mul_vartime(p, split_eigenvalue<G, P>(j).to_canonical()))
                << G::name << " image " << j;
            EXPECT_TRUE(S::image(p, j).is_on_curve());
        }
    EXPECT_TRUE(S::image(affine<G>::identity(), 1).is_identity());
    // [k]P == sum_j [+-part_j] Q_j by naive multiplications, for edge and a few random scalars
    const auto ks = split_test_scalars<G, P>(8);
    for (size_t i = 0; i < ks.size(); ++i) {
        const affine<G>& p = pts[i % pts.size()];
        const auto part = S::split(ks[i]);
        jacobian<G> sum = jacobian<G>::identity();
        for (unsigned j = 0; j < P; ++j) {
            const jacobian<G> t = mul_vartime(S::image(p, j), part[j].magnitude);
            sum += part[j].negative ? -t : t;
        }
        EXPECT_TRUE(sum == mul_vartime(p, ks[i])) << G::name << " scalar " << i;
    }
}

TEST(ScalarSplit, Bn254G1Constants) {
    using G = bn_g1;
    using Fr = G::scalar;
    const G::field beta = G::beta;
    EXPECT_FALSE(beta.is_one());
    EXPECT_TRUE((beta.square() * beta).is_one());
    const Fr lambda = Fr::from_canonical(G::glv_lambda);
    EXPECT_FALSE(lambda.is_one());
    EXPECT_TRUE((lambda.square() * lambda).is_one());
    // the basis vectors lie in the lattice: a1 - b1 lambda = 0 and a2 + b2 lambda = 0 mod r
    auto fr = [](const bigint<2>& x) { return Fr::from_canonical(msm::detail::resize<4>(x)); };
    EXPECT_TRUE((fr(G::glv_a1) - fr(G::glv_b1) * lambda).is_zero());
    EXPECT_TRUE((fr(G::glv_a2) + fr(G::glv_b2) * lambda).is_zero());
    EXPECT_TRUE(jacobian<G>::from_affine(phi(affine<G>::generator())) == mul_vartime(affine<G>::generator(), G::glv_lambda));
}

TYPED_TEST(MsmHost, RejectsBadArguments) {
    using G = TypeParam;
    auto pts = random_points<G>(3, 17);
    auto sc = random_scalars<G>(2, 18);
    EXPECT_THROW(msm::msm_host<G>(pts, sc), cuzk::invalid_argument);
    sc.push_back(sc[0]);
    EXPECT_THROW(msm::msm_host<G>(pts, sc, {.window_bits = msm::host_max_window_bits + 1}), cuzk::invalid_argument);
    EXPECT_THROW(msm::msm_host<G>(pts, sc, {.split = msm::host_split::on, .split_parts = 3}), cuzk::invalid_argument);
}

}  // namespace

// ---- the bucket passes' plan ----

namespace {
// Each window's passes cover its points x buckets once: rectangles of area n * B, none overlapping.
void expect_cover(const std::vector<msm::detail::bucket_task>& tasks, size_t n, size_t B, unsigned W) {
    for (unsigned w = 0; w < W; ++w) {
        std::vector<msm::detail::bucket_task> mine;
        for (const auto& t : tasks)
            if (t.window == w) mine.push_back(t);
        size_t area = 0;
        for (size_t i = 0; i < mine.size(); ++i) {
            const auto& a = mine[i];
            EXPECT_TRUE(a.lo < a.hi && a.hi <= n && a.blo < a.bhi && a.bhi <= B) << "window " << w;
            area += (a.hi - a.lo) * (a.bhi - a.blo);
            for (size_t j = i + 1; j < mine.size(); ++j) {
                const auto& b = mine[j];
                const bool apart = a.hi <= b.lo || b.hi <= a.lo || a.bhi <= b.blo || b.bhi <= a.blo;
                EXPECT_TRUE(apart) << "window " << w << ": passes " << i << " and " << j << " overlap";
            }
        }
        EXPECT_EQ(area, n * B) << "window " << w;
    }
}
// The largest thread's additions under a dynamic schedule of the passes in order (the next pass
// goes to the thread that is free first), over the average; a pass's additions are its points
// times its share of the buckets.
double imbalance(const std::vector<msm::detail::bucket_task>& tasks, size_t B, size_t threads) {
    std::vector<double> load(threads, 0);
    double total = 0;
    for (const auto& t : tasks) {
        const double work = double(t.hi - t.lo) * double(t.bhi - t.blo) / double(B);
        *std::min_element(load.begin(), load.end()) += work;
        total += work;
    }
    return *std::max_element(load.begin(), load.end()) * double(threads) / total;
}
}  // namespace

TEST(MsmHostPasses, EveryWindowCoveredAndTheThreadsFinishTogether) {
    const size_t n = size_t(1) << 18, B = size_t(1) << 15;
    // 17 windows on 2 threads: one whole window for one thread alone unless the last is cut.
    const auto cut = msm::detail::bucket_tasks(n, 17, 1, B, 2);
    expect_cover(cut, n, B, 17);
    EXPECT_EQ(cut.size(), 18u);
    EXPECT_NEAR(imbalance(cut, B, 2), 1.0, 1e-9);
    // 34 passes on 16 threads: two are cut into 16 ranges each.
    const auto wide = msm::detail::bucket_tasks(n, 17, 2, B, 16);
    expect_cover(wide, n, B, 17);
    EXPECT_EQ(wide.size(), 32u + 2 * 16);
    EXPECT_NEAR(imbalance(wide, B, 16), 1.0, 1e-6);
    // Already even: nothing cut.
    EXPECT_EQ(msm::detail::bucket_tasks(n, 20, 1, B, 2).size(), 20u);
    for (unsigned W : {1u, 5u, 17u, 19u, 52u})
        for (size_t chunks : {size_t(1), size_t(2), size_t(3)})
            for (size_t threads : {size_t(1), size_t(2), size_t(3), size_t(16)})
                for (size_t buckets : {size_t(8), size_t(4096), size_t(5000)}) {
                    const auto t = msm::detail::bucket_tasks(n + 7, W, chunks, buckets, threads);
                    expect_cover(t, n + 7, buckets, W);
                    // Ranges of a few buckets cannot be even; real windows have thousands.
                    if (buckets >= 1024) {
                        EXPECT_LT(imbalance(t, buckets, threads), 1.01)
                            << W << " windows, " << chunks << " chunks, " << threads << " threads, " << buckets;
                    }
                }
}
