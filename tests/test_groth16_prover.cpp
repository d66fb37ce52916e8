// SPDX-License-Identifier: MIT OR Apache-2.0
// The CPU prover against an oracle that knows the toxic waste: with tau, alpha, beta, delta
// and the randomisers r, s known, each proof point has a discrete log the test computes
// directly from the QAP at tau (no NTT, no MSM, no pairing), so the proof must equal
// [a]G1, [b]G2, [c]G1 exactly. Pairing-based verification is tested in test_groth16_verify.
// Also: keys on bellperson's domain (roots of unity from 7, computed here with GMP), density-
// compressed keys against dense ones, and the supraseal-shaped entry with bellperson's proof
// bytes (decoded with the zcash decoder, checked with the pairing verifier). Also the synthetic
// circuits' column densities and PoRep shape, and that their defaults are the earlier circuits.
#include <gmp.h>
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <optional>
#include <random>
#include <type_traits>

#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/curves/bn254.hpp"
#include "cuzk/groth16/density.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/io/supraseal_assignment.hpp"
#include "cuzk/groth16/synthetic_circuit.hpp"
#include "cuzk/groth16/test_setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/bellperson_params.hpp"
#include "gmp_oracle.hpp"
#include "groth16_curves.hpp"

namespace {

using namespace cuzk;
using namespace cuzk::groth16;

// policy.hpp: the CUDA prover takes any type with cuda_policy's four constants, and nothing else.
struct lacks_g2_placement {
    static constexpr backend where = backend::cuda;
    static constexpr lock_granularity locking = lock_granularity::split;
    static constexpr staging stage = staging::prestaged;
};
struct host_policy_with_cuda_members {
    static constexpr backend where = backend::cpu;
    static constexpr lock_granularity locking = lock_granularity::split;
    static constexpr staging stage = staging::prestaged;
    static constexpr bool g2_on_gpu = true;
};
static_assert(cuda_prover_policy<cuda_policy<lock_granularity::none, staging::streamed, false>>);
static_assert(!cuda_prover_policy<cpu_policy>);
static_assert(!cuda_prover_policy<lacks_g2_placement>);
static_assert(!cuda_prover_policy<host_policy_with_cuda_members>);

// A telemetry sink is optional: a policy without one has none (and costs nothing), a policy's own
// sink is taken when it has the hook, and a `telemetry` without the hook is not a policy.
struct stage_counter {
    static void stage(const stage_times::stage&) {}
};
struct callers_policy_with_sink {
    static constexpr backend where = backend::cuda;
    static constexpr lock_granularity locking = lock_granularity::split;
    static constexpr staging stage = staging::prestaged;
    static constexpr bool g2_on_gpu = true;
    using telemetry = stage_counter;
};
struct callers_policy_with_a_sink_lacking_the_hook : callers_policy_with_sink {
    struct telemetry {};
};
static_assert(cuda_prover_policy<callers_policy_with_sink> && has_telemetry<callers_policy_with_sink>);
static_assert(std::is_same_v<policy_telemetry<callers_policy_with_sink>, stage_counter>);
static_assert(!cuda_prover_policy<callers_policy_with_a_sink_lacking_the_hook>);
static_assert(!has_telemetry<cuda_policy<>> && std::is_same_v<policy_telemetry<cuda_policy<>>, no_telemetry>);
static_assert(!has_telemetry<lacks_g2_placement> && !has_telemetry<cpu_policy>);
using shipped_with_sink = cuda_policy<lock_granularity::device, staging::streamed, false, stage_counter>;
static_assert(cuda_prover_policy<shipped_with_sink> && has_telemetry<shipped_with_sink>);

template <class C>
class ProverTest : public ::testing::Test {};
TYPED_TEST_SUITE(ProverTest, test::groth16_curves);

/// The QAP of cs at tau: u_i, v_i, w_i for every variable, by the definition
/// u_i = sum_j A[j][i] L_j(tau), with L_j evaluated directly (O(n) per j is fine for small n).
template <class Fr>
struct qap_at {
    std::vector<Fr> u, v, w;
    /// omega: the key's primitive n-th root of unity (cuzk's default domain when not given).
    qap_at(const r1cs<Fr>& cs, const Fr& tau, const Fr* omega_in = nullptr)
        : u(cs.num_variables), v(cs.num_variables), w(cs.num_variables) {
        const size_t n = cs.domain_size(), m = cs.num_constraints();
        const Fr omega = omega_in ? *omega_in : ntt::domain<Fr>::root_of_unity(size_t(std::countr_zero(n)));
        auto lagrange = [&](size_t j) {  // prod_{k != j} (tau - w^k) / (w^j - w^k)
            Fr num = Fr::one(), den = Fr::one(), wj = omega.pow_vartime(uint64_t(j));
            for (size_t k = 0; k < n; ++k) {
                if (k == j) continue;
                Fr wk = omega.pow_vartime(uint64_t(k));
                num *= tau - wk;
                den *= wj - wk;
            }
            return num * den.inverse();
        };
        for (size_t j = 0; j < m; ++j) {
            Fr l = lagrange(j);
            auto add = [&](const sparse_matrix<Fr>& mat, std::vector<Fr>& acc) {
                auto cols = mat.columns(j);
                auto vals = mat.values(j);
                for (size_t k = 0; k < cols.size(); ++k) acc[cols[k]] += vals[k] * l;
            };
            add(cs.a, u);
            add(cs.b, v);
            add(cs.c, w);
        }
        for (size_t k = 0; k <= cs.num_public; ++k) u[k] += lagrange(m + k);
    }
};

/// g^((r-1)/n) by GMP: a primitive n-th root of unity from generator g, computed without cuzk.
template <class Fr>
Fr gmp_root_of_unity(unsigned long g, size_t n) {
    test::mpz p(Fr::modulus), e, w, base(g);
    mpz_sub_ui(e.get(), p.get(), 1);
    mpz_fdiv_q_ui(e.get(), e.get(), (unsigned long)n);
    mpz_powm(w.get(), base.get(), e.get(), p.get());
    return Fr::from_canonical(w.template to_bigint<Fr::limbs>());
}

template <class C>
void check_proof_discrete_logs(const circuit<typename C::fr>& ckt, uint64_t setup_seed, uint64_t prover_seed,
                               ntt::domain_roots roots = ntt::domain_roots::snarkjs) {
    using Fr = typename C::fr;
    using G1 = typename C::g1;
    using G2 = typename C::g2;
    const toxic_waste<Fr> tw = toxic_waste_from_seed<Fr>(setup_seed);
    auto pk = std::make_shared<const proving_key<C>>(setup_from_toxic_waste<C>(ckt.system, tw, roots));
    EXPECT_EQ(pk->roots, roots);
    prover<C> p(pk);
    std::mt19937_64 rng(prover_seed);
    stage_times times;
    proof<C> pi = p.prove(ckt.system, ckt.assignment, rng, &times);
    EXPECT_GT(times.stages.size(), 5u);

    // The randomisers the prover drew from the same generator.
    std::mt19937_64 replay(prover_seed);
    Fr r, s;
    do r = Fr::random(replay); while (r.is_zero());
    do s = Fr::random(replay); while (s.is_zero());

    // bellperson's roots: 7^((r-1)/n) from GMP; the default ones: cuzk's (checked against GMP in
    // test_ntt_host)
    const Fr omega_bp = gmp_root_of_unity<Fr>(7, ckt.system.domain_size());
    qap_at<Fr> q(ckt.system, tw.tau, roots == ntt::domain_roots::bellperson ? &omega_bp : nullptr);
    const auto& z = ckt.assignment;
    Fr at = Fr::zero(), bt = Fr::zero(), ct = Fr::zero(), lsum = Fr::zero();
    for (size_t i = 0; i < z.size(); ++i) {
        at += z[i] * q.u[i];
        bt += z[i] * q.v[i];
        ct += z[i] * q.w[i];
        if (i > ckt.system.num_public) lsum += z[i] * (tw.beta * q.u[i] + tw.alpha * q.v[i] + q.w[i]);
    }
    const Fr a = tw.alpha + at + r * tw.delta;
    const Fr b = tw.beta + bt + s * tw.delta;
    // h(tau) Z(tau) = a(tau) b(tau) - c(tau) by the QAP identity
    const Fr c = (lsum + at * bt - ct) * tw.delta.inverse() + s * a + r * b - r * s * tw.delta;
    EXPECT_EQ(pi.a, to_affine(mul_vartime(affine<G1>::generator(), a)));
    EXPECT_EQ(pi.b, to_affine(mul_vartime(affine<G2>::generator(), b)));
    EXPECT_EQ(pi.c, to_affine(mul_vartime(affine<G1>::generator(), c)));
    EXPECT_TRUE(verify(pk->vk, ckt.public_inputs(), pi));
}

TYPED_TEST(ProverTest, ProofPointsHaveTheExpectedDiscreteLogs) {
    using Fr = typename TypeParam::fr;
    for (double share : {0.0, 0.9}) {
        for (unsigned k : {4u, 6u}) {
            SCOPED_TRACE(testing::Message() << "log n " << k << " bit share " << share);
            auto ckt = synthetic_circuit<Fr>({.log_domain = k, .num_public = 3, .bit_share = share, .seed = k});
            check_proof_discrete_logs<TypeParam>(ckt, 100 + k, 200 + k);
        }
    }
}

/// x^3 + x + 5 = 35 with a domain of 8 (3 constraints, 2 public rows, 3 empty rows).
template <class Fr>
circuit<Fr> cubic_circuit() {
    circuit_builder<Fr> cb;
    auto x = cb.add_witness(Fr::from_u64(3));
    auto y = cb.add_public(Fr::from_u64(35));
    auto x2 = cb.add_witness(Fr::from_u64(9));
    auto x3 = cb.add_witness(Fr::from_u64(27));
    cb.enforce(x, x, x2);
    cb.enforce(x2, x, x3);
    cb.enforce(linear_combination<Fr>(x3) + x + Fr::from_u64(5) * circuit_builder<Fr>::one(), cb.one(), y);
    return std::move(cb).build();
}

TYPED_TEST(ProverTest, BuilderCircuitWithUnusedRows) {
    using Fr = typename TypeParam::fr;
    check_proof_discrete_logs<TypeParam>(cubic_circuit<Fr>(), 7, 8);
}

TYPED_TEST(ProverTest, RejectsBadInput) {
    using Fr = typename TypeParam::fr;
    auto ckt = synthetic_circuit<Fr>({.log_domain = 5, .num_public = 2, .bit_share = 0.5, .seed = 1});
    auto pk = std::make_shared<const proving_key<TypeParam>>(test_setup_insecure<TypeParam>(ckt.system, 1));
    prover<TypeParam> p(pk);
    std::mt19937_64 rng(1);
    // A violated constraint is named.
    auto z = ckt.assignment;
    z.back() += Fr::one();  // the last variable is the output of the last constraint
    try {
        p.prove(ckt.system, z, rng);
        ADD_FAILURE() << "no error";
    } catch (const invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("constraint " + std::to_string(ckt.system.num_constraints() - 1)),
                  std::string::npos)
            << e.what();
    }
    // Wrong length.
    z = ckt.assignment;
    z.push_back(Fr::one());
    EXPECT_THROW(p.prove(ckt.system, z, rng), invalid_argument);
    // A key for another circuit.
    auto other = synthetic_circuit<Fr>({.log_domain = 6, .num_public = 2, .bit_share = 0.5, .seed = 1});
    EXPECT_THROW(p.prove(other.system, other.assignment, rng), invalid_argument);
    EXPECT_THROW(prover<TypeParam>(pk, std::make_shared<const r1cs<Fr>>(other.system)), invalid_argument);
    // prove(z) needs the circuit at construction.
    EXPECT_THROW(p.prove(ckt.assignment, rng), invalid_argument);
}

TYPED_TEST(ProverTest, ProverHoldingTheCircuitProvesTheSameProof) {
    using Fr = typename TypeParam::fr;
    auto ckt = synthetic_circuit<Fr>({.log_domain = 5, .num_public = 2, .bit_share = 0.5, .seed = 3});
    auto pk = std::make_shared<const proving_key<TypeParam>>(test_setup_insecure<TypeParam>(ckt.system, 3));
    prover<TypeParam> plain(pk), holding(pk, std::make_shared<const r1cs<Fr>>(ckt.system));
    std::mt19937_64 r1(9), r2(9);
    auto pi = holding.prove(ckt.assignment, r1);
    EXPECT_EQ(pi, plain.prove(ckt.system, ckt.assignment, r2));
    EXPECT_TRUE(verify(pk->vk, ckt.public_inputs(), pi));
}

TYPED_TEST(ProverTest, TwoProofsOfOneWitnessDiffer) {
    using Fr = typename TypeParam::fr;
    auto ckt = synthetic_circuit<Fr>({.log_domain = 4, .num_public = 1, .bit_share = 0.5, .seed = 2});
    auto pk = std::make_shared<const proving_key<TypeParam>>(test_setup_insecure<TypeParam>(ckt.system, 2));
    prover<TypeParam> p(pk);
    // Default randomness: the OS CSPRNG.
    EXPECT_NE(p.prove(ckt.system, ckt.assignment), p.prove(ckt.system, ckt.assignment));
}

// ---- bellperson's domain ------------------------------------------------------------------------


using bls = bls12_381::curve;
using bfr = bls12_381::fr;

TEST(BellpersonDomain, ProofPointsHaveTheExpectedDiscreteLogs) {
    for (unsigned k : {3u, 6u}) {
        SCOPED_TRACE(testing::Message() << "log n " << k);
        auto ckt = synthetic_circuit<bfr>({.log_domain = k, .num_public = 2, .bit_share = 0.9, .seed = k});
        check_proof_discrete_logs<bls>(ckt, 300 + k, 400 + k, ntt::domain_roots::bellperson);
    }
    check_proof_discrete_logs<bls>(cubic_circuit<bfr>(), 9, 10, ntt::domain_roots::bellperson);
}

TEST(BellpersonDomain, ProvingOnTheOtherDomainFailsToVerify) {
    // A key assigns row j to w^j of its own domain; a prover on the other roots puts a, b, c at
    // other points. From 8 points on the roots differ and the proof is rejected. At 4 points the
    // two 4-point domains coincide (test_ntt_host), so a key with monomial H (bellperson's files)
    // proves the same proof on either; cuzk's setup puts H on the odd coset of the 8-point
    // domain, where the roots differ again.
    auto check = [](const circuit<bfr>& ckt, bool differ_lagrange, bool differ_monomial) {
        for (auto made_on : {ntt::domain_roots::bellperson, ntt::domain_roots::snarkjs}) {
            for (bool monomial : {false, true}) {
                SCOPED_TRACE(testing::Message() << to_string(made_on) << (monomial ? " monomial" : " lagrange"));
                auto pk = test_setup_insecure<bls>(ckt.system, 17, made_on);
                if (monomial) io::to_monomial_h(pk);
                auto wrong = pk;
                wrong.roots = made_on == ntt::domain_roots::bellperson ? ntt::domain_roots::snarkjs
                                                                       : ntt::domain_roots::bellperson;
                auto right_pk = std::make_shared<const proving_key<bls>>(std::move(pk));
                auto wrong_pk = std::make_shared<const proving_key<bls>>(std::move(wrong));
                std::mt19937_64 r1(3), r2(3);
                const auto good = prover<bls>(right_pk).prove(ckt.system, ckt.assignment, r1);
                const auto bad = prover<bls>(wrong_pk).prove(ckt.system, ckt.assignment, r2);
                const bool differ = monomial ? differ_monomial : differ_lagrange;
                EXPECT_TRUE(verify(right_pk->vk, ckt.public_inputs(), good));
                EXPECT_EQ(verify_verdict(right_pk->vk, ckt.public_inputs(), bad),
                          differ ? verdict::pairing_check_failed : verdict::ok);
                EXPECT_EQ(good == bad, !differ);
            }
        }
    };
    check(cubic_circuit<bfr>(), true, true);  // 8 points
    check(synthetic_circuit<bfr>({.log_domain = 6, .num_public = 3, .bit_share = 0.8, .seed = 5}), true, true);
    circuit_builder<bfr> cb;  // x * x = y: 1 constraint + 2 input rows, 4 points
    auto x = cb.add_witness(bfr::from_u64(6));
    auto y = cb.add_public(bfr::from_u64(36));
    cb.enforce(x, x, y);
    const auto small = std::move(cb).build();
    ASSERT_EQ(small.system.domain_size(), 4u);
    check(small, true, false);
}

// ---- density-compressed keys ----------------------------------------------------------------------

TYPED_TEST(ProverTest, DensityCompressedKeyProvesTheDenseKeysProof) {
    using C = TypeParam;
    using Fr = typename C::fr;
    for (double share : {0.0, 0.8}) {
        SCOPED_TRACE(testing::Message() << "bit share " << share);
        auto ckt = synthetic_circuit<Fr>({.log_domain = 6, .num_public = 3, .bit_share = share, .seed = 21});
        const proving_key<C> dense = test_setup_insecure<C>(ckt.system, 21);
        const auto [a_d, b_d] = r1cs_densities(ckt.system);
        // Oracle for the maps: the dense key's identities are exactly the empty columns.
        const size_t nv = ckt.system.num_variables;
        ASSERT_EQ(a_d.size(), nv);
        for (size_t i = 0; i < nv; ++i) {
            EXPECT_EQ(a_d.test(i), !dense.a[i].is_identity()) << "A " << i;
            EXPECT_EQ(b_d.test(i), !dense.b_g1[i].is_identity()) << "B " << i;
            EXPECT_EQ(b_d.test(i), !dense.b_g2[i].is_identity()) << "B G2 " << i;
        }
        EXPECT_LT(b_d.count(), nv);  // the synthetic circuit leaves B columns empty
        auto compressed = std::make_shared<const proving_key<C>>(to_density_compressed(dense, a_d, b_d));
        EXPECT_FALSE(compressed->is_dense());
        EXPECT_EQ(compressed->num_variables(), nv);
        EXPECT_EQ(compressed->a.size(), a_d.count());
        EXPECT_EQ(compressed->b_g1.size(), b_d.count());
        EXPECT_EQ(compressed->b_g2.size(), b_d.count());
        for (const auto& q : compressed->b_g1) EXPECT_FALSE(q.is_identity());
        auto dense_pk = std::make_shared<const proving_key<C>>(dense);
        // Same randomness, same proof; both verify.
        std::mt19937_64 r1(8), r2(8), r3(8);
        const auto want = prover<C>(dense_pk).prove(ckt.system, ckt.assignment, r1);
        const auto got = prover<C>(compressed).prove(ckt.system, ckt.assignment, r2);
        EXPECT_EQ(got, want);
        EXPECT_TRUE(verify(compressed->vk, ckt.public_inputs(), got));
        // prove_from_abc on the compressed key (the key's maps drive the MSMs)
        std::vector<Fr> abc(3 * ckt.system.domain_size());
        std::span<Fr> all(abc);
        const size_t n = ckt.system.domain_size();
        ASSERT_FALSE(ckt.system.evaluate(ckt.assignment, all.first(n), all.subspan(n, n), all.subspan(2 * n, n)));
        EXPECT_EQ(prover<C>(compressed).prove_from_abc(ckt.assignment, abc, r3), want);
        // and back: the dense key again
        const auto back = to_dense(*compressed);
        EXPECT_TRUE(back.is_dense());
        EXPECT_EQ(back.a, dense.a);
        EXPECT_EQ(back.b_g1, dense.b_g1);
        EXPECT_EQ(back.b_g2, dense.b_g2);
    }
}

TYPED_TEST(ProverTest, DensityErrors) {
    using C = TypeParam;
    using Fr = typename C::fr;
    auto ckt = synthetic_circuit<Fr>({.log_domain = 5, .num_public = 2, .bit_share = 0.8, .seed = 4});
    const proving_key<C> dense = test_setup_insecure<C>(ckt.system, 4);
    const auto [a_d, b_d] = r1cs_densities(ckt.system);
    const size_t nv = ckt.system.num_variables;
    // a map of the wrong length
    EXPECT_THROW((void)to_density_compressed(dense, density_map(nv - 1), b_d), invalid_argument);
    EXPECT_THROW((void)to_density_compressed(dense, a_d, density_map(nv + 1)), invalid_argument);
    // a map dropping a variable whose point is not the identity
    auto short_b = b_d;
    short_b = density_map(nv);
    try {
        (void)to_density_compressed(dense, a_d, short_b);
        ADD_FAILURE() << "accepted";
    } catch (const invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("not the identity"), std::string::npos) << e.what();
    }
    // a key whose map is not the circuit's: mark one more B variable (its point is the identity)
    size_t extra = nv;
    for (size_t i = 0; i < nv && extra == nv; ++i)
        if (!b_d.test(i)) extra = i;
    ASSERT_LT(extra, nv);
    auto more = b_d;
    more.set(extra);
    auto odd = std::make_shared<const proving_key<C>>(to_density_compressed(dense, a_d, more));
    std::mt19937_64 rng(1);
    try {
        prover<C>(odd).prove(ckt.system, ckt.assignment, rng);
        ADD_FAILURE() << "accepted";
    } catch (const invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("B density differs from the circuit's at variable " + std::to_string(extra)),
                  std::string::npos)
            << e.what();
    }
    EXPECT_THROW(prover<C>(odd, std::make_shared<const r1cs<Fr>>(ckt.system)), invalid_argument);
    // vectors that disagree with their maps
    auto broken = to_density_compressed(dense, a_d, b_d);
    broken.b_g2.pop_back();
    EXPECT_THROW(prover<C>(std::make_shared<const proving_key<C>>(broken)), invalid_argument);
    broken = to_density_compressed(dense, a_d, b_d);
    broken.a_density = density_map(nv + 1);
    EXPECT_THROW(prover<C>(std::make_shared<const proving_key<C>>(broken)), invalid_argument);
    // compressing twice
    EXPECT_THROW((void)to_density_compressed(to_density_compressed(dense, a_d, b_d), a_d, b_d), invalid_argument);
    // select_present on a map of another length
    std::vector<Fr> store;
    EXPECT_THROW((void)select_present<Fr>(std::span<const Fr>(ckt.assignment), density_map(nv + 1), store, "A"),
                 invalid_argument);
}

TEST(DensityMap, WordsAreLeastSignificantBitFirst) {
    // bit i = bit (i % 64) of word i / 64: bits 0, 3, 64 and 69 of two words
    const uint64_t words[2] = {0x9, 0x21 | (uint64_t(1) << 63)};
    const auto d = density_map::from_words(words, 70);
    EXPECT_EQ(d.size(), 70u);
    EXPECT_EQ(d.count(), 4u);  // bit 127 lies past the 70 bits and is ignored
    for (size_t i = 0; i < 70; ++i) EXPECT_EQ(d.test(i), i == 0 || i == 3 || i == 64 || i == 69) << i;
    EXPECT_THROW((void)density_map::from_words(std::span<const uint64_t>(words, 1), 65), invalid_argument);
    const auto c = density_map::concat(density_map::full(3), d);
    EXPECT_EQ(c.size(), 73u);
    EXPECT_EQ(c.count(), 7u);
    EXPECT_TRUE(c.test(2) && c.test(3) && !c.test(4) && c.test(6) && c.test(67) && c.test(72));
    std::vector<bool> bools(70, false);
    bools[0] = bools[3] = bools[64] = bools[69] = true;
    EXPECT_EQ(density_map::from_bools(bools), d);
}

// ---- synthetic circuits: column densities and the PoRep shape ---------------------------------------

/// FNV-1a over everything a circuit holds: counts, the three matrices, the assignment.
template <class F>
uint64_t fingerprint(const circuit<F>& ckt) {
    uint64_t h = 0xcbf29ce484222325ull;
    auto mix = [&](const void* p, size_t len) {
        for (size_t i = 0; i < len; ++i) h = (h ^ static_cast<const uint8_t*>(p)[i]) * 0x100000001b3ull;
    };
    auto mix_field = [&](const F& x) {
        std::array<uint8_t, F::byte_size> b;
        x.to_bytes_le(b);
        mix(b.data(), b.size());
    };
    mix(&ckt.system.num_public, sizeof(size_t));
    mix(&ckt.system.num_variables, sizeof(size_t));
    for (const auto* m : {&ckt.system.a, &ckt.system.b, &ckt.system.c}) {
        for (uint64_t s : m->row_starts()) mix(&s, sizeof s);
        for (uint32_t c : m->all_columns()) mix(&c, sizeof c);
        for (const auto& v : m->all_values()) mix_field(v);
    }
    for (const auto& v : ckt.assignment) mix_field(v);
    return h;
}

TEST(SyntheticCircuit, DefaultsReproduceTheEarlierGenerator) {
    // Recorded from synthetic_circuit.hpp as it was before column densities existed:
    // options, num_variables, A and B density counts, fingerprint. Benchmarks and keys made from
    // the default options stay the same circuits.
    struct recorded {
        synthetic_options opt;
        size_t variables, a_count, b_count;
        uint64_t bls_fp, bn_fp;
    };
    const recorded cases[] = {
        {{.log_domain = 6, .num_public = 3, .bit_share = 0.0, .seed = 21}, 68, 42, 33, 0xee346427159f8723ull,
         0xb87d036a110ab069ull},
        {{.log_domain = 6, .num_public = 3, .bit_share = 0.8, .seed = 21}, 68, 36, 32, 0x8a7587b3c4a6a058ull,
         0x023c6454c7e7d550ull},
        {{.log_domain = 10, .num_public = 4, .bit_share = 0.9, .seed = 7}, 1028, 539, 520, 0x779c8f9a4d4c157cull,
         0x5233e14acb0ab021ull},
    };
    EXPECT_FALSE(synthetic_options{}.a_density);
    EXPECT_FALSE(synthetic_options{}.b_density);
    for (const auto& r : cases) {
        SCOPED_TRACE(testing::Message() << "log n " << r.opt.log_domain << " bit share " << r.opt.bit_share);
        const auto ckt = synthetic_circuit<bfr>(r.opt);
        EXPECT_EQ(ckt.system.num_variables, r.variables);
        const auto [a, b] = r1cs_densities(ckt.system);
        EXPECT_EQ(a.count(), r.a_count);
        EXPECT_EQ(b.count(), r.b_count);
        EXPECT_EQ(fingerprint(ckt), r.bls_fp);
        EXPECT_EQ(fingerprint(synthetic_circuit<bn254::fr>(r.opt)), r.bn_fp);
    }
}

/// What a density-shaped circuit must be: 2^k rows, satisfied, and its aux columns and values as
/// asked. Tolerances: each aux variable is marked in A (B) with probability a (b) and is a bit with
/// probability bit_share, so at 2^14 one standard deviation is at most 0.004; 0.015 is over 3.5 of
/// them, plus the few variables of the last rows that get no term.
template <class F>
void check_density_shape(const circuit<F>& ckt, const synthetic_options& opt) {
    const auto& cs = ckt.system;
    const size_t n = size_t(1) << opt.log_domain;
    EXPECT_EQ(cs.domain_rows(), n);
    EXPECT_EQ(cs.domain_size(), n);
    EXPECT_NO_THROW(cs.validate());
    EXPECT_EQ(cs.first_unsatisfied(ckt.assignment), std::nullopt);
    std::vector<F> a(n), b(n), c(n);
    EXPECT_EQ(cs.evaluate(ckt.assignment, a, b, c), std::nullopt);
    const auto [ad, bd] = r1cs_densities(cs);
    const size_t first_aux = cs.num_public + 1, aux = cs.num_aux();
    size_t in_a = 0, in_b = 0, bits = 0, ones = 0;
    for (size_t i = first_aux; i < cs.num_variables; ++i) {
        in_a += ad.test(i);
        in_b += bd.test(i);
        const bool one = ckt.assignment[i].is_one();
        bits += one || ckt.assignment[i].is_zero();
        ones += one;
    }
    constexpr double tolerance = 0.015;
    EXPECT_NEAR(double(in_a) / double(aux), opt.a_density.value_or(1.0), tolerance);
    EXPECT_NEAR(double(in_b) / double(aux), opt.b_density.value_or(1.0), tolerance);
    EXPECT_NEAR(double(bits) / double(aux), opt.bit_share, tolerance);
    if (bits > 1000) {
        EXPECT_NEAR(double(ones) / double(bits), 0.5, 0.05);  // XOR keeps them half ones
    }
    // one B term a row (as PoRep's B: 130M non-zeros for 130.3M constraints)
    EXPECT_EQ(cs.b.entries(), cs.num_constraints());
}

TEST(SyntheticCircuit, PorepShapeHasFilecoinsDensities) {
    for (uint64_t seed : {1u, 2u}) {
        const synthetic_options opt = porep_shape(14, seed);
        SCOPED_TRACE(testing::Message() << "seed " << seed);
        EXPECT_EQ(opt.a_density, 0.997);
        EXPECT_EQ(opt.b_density, 0.254);
        EXPECT_EQ(opt.bit_share, porep_bit_share);
        EXPECT_EQ(opt.num_public, 327u);
        const auto ckt = synthetic_circuit<bfr>(opt);
        check_density_shape(ckt, opt);
        EXPECT_EQ(ckt.system.num_public, 327u);
        // The compressed key's B is about a quarter of the variables (the inputs are few).
        const auto [ad, bd] = r1cs_densities(ckt.system);
        EXPECT_NEAR(double(bd.count()) / double(ckt.system.num_variables), 0.254, 0.03);
        EXPECT_GT(ad.count(), ckt.system.num_variables * 99 / 100);
    }
    EXPECT_EQ(porep_shape(10, 1).num_public, 64u);  // n / 16 on small domains
    EXPECT_EQ(porep_shape(20, 1).num_public, 327u);
    EXPECT_THROW((void)synthetic_circuit<bfr>(porep_shape(31, 1)), invalid_argument);
}

TEST(SyntheticCircuit, OtherDensities) {
    const synthetic_options cases[] = {
        {.log_domain = 14, .num_public = 4, .bit_share = 0.5, .seed = 3, .a_density = 0.6, .b_density = 0.4},
        {.log_domain = 14, .num_public = 4, .bit_share = 0.9, .seed = 4, .a_density = 0.8},  // B: 1
        {.log_domain = 14, .num_public = 4, .bit_share = 0.0, .seed = 5, .b_density = 0.1},  // A: 1
        {.log_domain = 14, .num_public = 4, .bit_share = 1.0, .seed = 6, .a_density = 1.0, .b_density = 1.0},
    };
    for (const auto& opt : cases) {
        SCOPED_TRACE(testing::Message() << "bit share " << opt.bit_share << " A " << opt.a_density.value_or(-1) << " B "
                                        << opt.b_density.value_or(-1));
        check_density_shape(synthetic_circuit<bfr>(opt), opt);
    }
    // Small domains and BN254 are satisfied too.
    for (unsigned k : {3u, 5u, 8u}) {
        const auto ckt = synthetic_circuit<bn254::fr>(porep_shape(k, k));
        EXPECT_EQ(ckt.system.domain_rows(), size_t(1) << k);
        EXPECT_EQ(ckt.system.first_unsatisfied(ckt.assignment), std::nullopt) << k;
    }
    // Same options, same circuit.
    EXPECT_EQ(fingerprint(synthetic_circuit<bfr>(porep_shape(9, 3))),
              fingerprint(synthetic_circuit<bfr>(porep_shape(9, 3))));
    EXPECT_NE(fingerprint(synthetic_circuit<bfr>(porep_shape(9, 3))),
              fingerprint(synthetic_circuit<bfr>(porep_shape(9, 4))));
    for (double bad : {0.0, -0.1, 1.5, std::nan("")}) {
        EXPECT_THROW((void)synthetic_circuit<bfr>({.log_domain = 6, .a_density = bad}), invalid_argument) << bad;
        EXPECT_THROW((void)synthetic_circuit<bfr>({.log_domain = 6, .b_density = bad}), invalid_argument) << bad;
    }
}

TYPED_TEST(ProverTest, PorepShapedCircuitProvesWithACompressedKey) {
    using C = TypeParam;
    using Fr = typename C::fr;
    const auto ckt = synthetic_circuit<Fr>(porep_shape(10, 11));
    const proving_key<C> dense = test_setup_insecure<C>(ckt.system, 11);
    const auto [a_d, b_d] = r1cs_densities(ckt.system);
    auto compressed = std::make_shared<const proving_key<C>>(to_density_compressed(dense, a_d, b_d));
    const size_t nv = ckt.system.num_variables;
    EXPECT_EQ(compressed->b_g1.size(), b_d.count());
    EXPECT_LT(compressed->b_g2.size(), nv / 3);  // about a quarter: PoRep's B-aux 25.4 %
    EXPECT_GT(compressed->a.size(), nv * 98 / 100);
    std::mt19937_64 r1(5), r2(5);
    const auto want = prover<C>(std::make_shared<const proving_key<C>>(dense)).prove(ckt.system, ckt.assignment, r1);
    const auto got = prover<C>(compressed).prove(ckt.system, ckt.assignment, r2);
    EXPECT_EQ(got, want);
    EXPECT_TRUE(verify(compressed->vk, ckt.public_inputs(), got));
}

// ---- the supraseal-shaped entry -------------------------------------------------------------------

/// LSB-first 64-bit words of bits [begin, end) of `d` (packed here by hand, not with density_map).
std::vector<uint64_t> pack_words(const density_map& d, size_t begin, size_t end) {
    std::vector<uint64_t> w((end - begin + 63) / 64 + 1, ~uint64_t(0));  // garbage past the end
    for (size_t i = 0; i < (end - begin + 63) / 64; ++i) w[i] = 0;
    for (size_t i = begin; i < end; ++i)
        if (d.test(i)) w[(i - begin) / 64] |= uint64_t(1) << ((i - begin) % 64);
    if ((end - begin) % 64) w[(end - begin) / 64] |= ~uint64_t(0) << ((end - begin) % 64);  // junk high bits
    return w;
}

/// Everything bellperson's synthesis would hand over for `ckt`: a, b, c on the content rows only
/// (constraints, then the input rows), the assignments split, the three density bitmaps.
struct supraseal_fixture {
    circuit<bfr> ckt;
    std::vector<bfr> a, b, c;
    std::vector<uint64_t> a_aux, b_inp, b_aux;

    explicit supraseal_fixture(circuit<bfr> x) : ckt(std::move(x)) {
        const auto& cs = ckt.system;
        const size_t n = cs.domain_size(), rows = cs.domain_rows();
        a.resize(n), b.resize(n), c.resize(n);
        if (cs.evaluate(ckt.assignment, a, b, c)) throw std::runtime_error("unsatisfied");
        for (size_t j = rows; j < n; ++j)
            if (!a[j].is_zero() || !b[j].is_zero() || !c[j].is_zero()) throw std::runtime_error("padding not zero");
        a.resize(rows), b.resize(rows), c.resize(rows);
        const auto [ad, bd] = r1cs_densities(cs);
        const size_t ni = cs.num_public + 1, nv = cs.num_variables;
        a_aux = pack_words(ad, ni, nv);
        b_inp = pack_words(bd, 0, ni);
        b_aux = pack_words(bd, ni, nv);
    }
    supraseal_assignment<bfr> input() const {
        const size_t ni = ckt.system.num_public + 1, na = ckt.system.num_aux();
        supraseal_assignment<bfr> in;
        in.a_aux_density = a_aux;
        in.a_aux_bit_len = na;
        in.b_inp_density = b_inp;
        in.b_inp_bit_len = ni;
        in.b_aux_density = b_aux;
        in.b_aux_bit_len = na;
        in.a = a, in.b = b, in.c = c;
        in.inputs = std::span<const bfr>(ckt.assignment).first(ni);
        in.aux = std::span<const bfr>(ckt.assignment).subspan(ni);
        return in;
    }
};

void check_supraseal_bytes(const supraseal_fixture& f) {
    const auto& cs = f.ckt.system;
    const auto dense = test_setup_insecure<bls>(cs, 31, ntt::domain_roots::bellperson);
    const auto [ad, bd] = r1cs_densities(cs);
    auto compressed = std::make_shared<const proving_key<bls>>(to_density_compressed(dense, ad, bd));
    auto dense_pk = std::make_shared<const proving_key<bls>>(dense);
    prover<bls> p(compressed);

    std::mt19937_64 rng(77), replay(77), again(77);
    const io::bellperson_proof_bytes bytes = prove_supraseal_shaped(p, f.input(), rng);
    static_assert(sizeof(bytes) == 192);
    // zcash-compressed A (48) | B (96) | C (48): the compression flag on each
    EXPECT_TRUE(bytes[0] & 0x80);
    EXPECT_TRUE(bytes[48] & 0x80);
    EXPECT_TRUE(bytes[144] & 0x80);
    const auto pi = io::from_bellperson_bytes(bytes);
    EXPECT_EQ(pi.a, zcash::deserialize_compressed<bls12_381::g1>(std::span<const uint8_t>(bytes).first(48)));
    EXPECT_EQ(pi.b, zcash::deserialize_compressed<bls12_381::g2>(std::span<const uint8_t>(bytes).subspan(48, 96)));
    EXPECT_EQ(pi.c, zcash::deserialize_compressed<bls12_381::g1>(std::span<const uint8_t>(bytes).subspan(144, 48)));
    EXPECT_TRUE(verify(compressed->vk, f.ckt.public_inputs(), pi));
    EXPECT_EQ(io::to_bellperson_bytes(pi), bytes);
    // The same proof as the r1cs path with the same randomness, on the compressed and the dense key.
    EXPECT_EQ(pi, p.prove(cs, f.ckt.assignment, replay));
    EXPECT_EQ(prove_supraseal_shaped(prover<bls>(dense_pk), f.input(), again), bytes);
    // r and s given directly, as bellperson's supraseal path passes them
    std::mt19937_64 draw(77);
    bfr r, s;
    draw_randomisers(r, s, draw);
    EXPECT_EQ(prove_supraseal_shaped(p, f.input(), r, s), bytes);
    // Other randomisers: another valid proof.
    const auto other = prove_supraseal_shaped(p, f.input(), r + bfr::one(), s);
    EXPECT_NE(other, bytes);
    EXPECT_TRUE(verify(compressed->vk, f.ckt.public_inputs(), io::from_bellperson_bytes(other)));
}

TEST(SuprasealShaped, BellpersonBytesRoundTripAndVerify) {
    // A full domain (128 content rows), and one with 3 zero-padded rows (5 of 8).
    check_supraseal_bytes(supraseal_fixture(
        synthetic_circuit<bfr>({.log_domain = 7, .num_public = 4, .bit_share = 0.9, .seed = 31})));
    const supraseal_fixture padded(cubic_circuit<bfr>());
    ASSERT_EQ(padded.a.size(), 5u);
    ASSERT_EQ(padded.ckt.system.domain_size(), 8u);
    check_supraseal_bytes(padded);
}

TEST(SuprasealShaped, RejectsBadInput) {
    supraseal_fixture f(synthetic_circuit<bfr>({.log_domain = 5, .num_public = 2, .bit_share = 0.8, .seed = 3}));
    const auto& cs = f.ckt.system;
    const auto dense = test_setup_insecure<bls>(cs, 3, ntt::domain_roots::bellperson);
    const auto [ad, bd] = r1cs_densities(cs);
    prover<bls> p(std::make_shared<const proving_key<bls>>(to_density_compressed(dense, ad, bd)));
    const bfr r = bfr::from_u64(5), s = bfr::from_u64(6);
    ASSERT_NO_THROW((void)prove_supraseal_shaped(p, f.input(), r, s));
    auto expect_error = [&](supraseal_assignment<bfr> in, const std::string& needle) {
        try {
            (void)prove_supraseal_shaped(p, in, r, s);
            ADD_FAILURE() << "accepted: " << needle;
        } catch (const invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
        }
    };
    auto in = f.input();
    in.a_aux_bit_len += 1;
    expect_error(in, "A aux density has");
    in = f.input();
    in.b_inp_bit_len -= 1;
    expect_error(in, "B input density has");
    in = f.input();
    in.b_aux_density = in.b_aux_density.first(0);
    expect_error(in, "64-bit words");
    in = f.input();
    in.aux = in.aux.first(in.aux.size() - 1);
    in.a_aux_bit_len = in.b_aux_bit_len = in.aux.size();
    expect_error(in, "aux assignment has");
    in = f.input();
    in.inputs = in.inputs.first(in.inputs.size() - 1);
    expect_error(in, "input assignment has");
    std::vector<bfr> not_one(f.input().inputs.begin(), f.input().inputs.end());
    not_one[0] = bfr::from_u64(2);
    in = f.input();
    in.inputs = not_one;
    expect_error(in, "constant 1");
    in = f.input();
    in.c = in.c.first(in.c.size() - 1);
    expect_error(in, "different lengths");
    std::vector<bfr> too_long(cs.domain_size() + 1, bfr::zero());
    in = f.input();
    in.a = in.b = in.c = too_long;
    expect_error(in, "more than the key's domain");
    // a density that is not the key's (another circuit)
    auto words = f.b_aux;
    words[0] ^= 1;
    in = f.input();
    in.b_aux_density = words;
    expect_error(in, "B density differs from the key's");
    // the decoder: wrong length, identity, a cleared compression flag
    const auto bytes = prove_supraseal_shaped(p, f.input(), r, s);
    EXPECT_THROW((void)io::from_bellperson_bytes(std::span<const uint8_t>(bytes).first(191)), decode_error);
    auto ident = bytes;
    std::fill(ident.begin(), ident.begin() + 48, uint8_t(0));
    ident[0] = 0xc0;  // compressed infinity
    EXPECT_THROW((void)io::from_bellperson_bytes(ident), decode_error);
    auto flag = bytes;
    flag[48] &= 0x7f;
    EXPECT_THROW((void)io::from_bellperson_bytes(flag), decode_error);
}

}  // namespace
