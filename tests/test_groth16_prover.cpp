// The CPU prover against an oracle that knows the toxic waste: with tau, alpha, beta, delta
// and the randomisers r, s known, each proof point has a discrete log the test computes
// directly from the QAP at tau (no NTT, no MSM, no pairing), so the proof must equal
// [a]G1, [b]G2, [c]G1 exactly. Pairing-based verification is tested in test_groth16_verify.
#include <gtest/gtest.h>

#include <random>

#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/curves/bn254.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/synthetic_circuit.hpp"
#include "cuzk/groth16/test_setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "groth16_curves.hpp"

namespace {

using namespace cuzk;
using namespace cuzk::groth16;

template <class C>
class ProverTest : public ::testing::Test {};
TYPED_TEST_SUITE(ProverTest, test::groth16_curves);

/// The QAP of cs at tau: u_i, v_i, w_i for every variable, by the definition
/// u_i = sum_j A[j][i] L_j(tau), with L_j evaluated directly (O(n) per j is fine for small n).
template <class Fr>
struct qap_at {
    std::vector<Fr> u, v, w;
    qap_at(const r1cs<Fr>& cs, const Fr& tau) : u(cs.num_variables), v(cs.num_variables), w(cs.num_variables) {
        const size_t n = cs.domain_size(), m = cs.num_constraints();
        const Fr omega = ntt::domain<Fr>::root_of_unity(size_t(std::countr_zero(n)));
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

template <class C>
void check_proof_discrete_logs(const circuit<typename C::fr>& ckt, uint64_t setup_seed, uint64_t prover_seed) {
    using Fr = typename C::fr;
    using G1 = typename C::g1;
    using G2 = typename C::g2;
    const toxic_waste<Fr> tw = toxic_waste_from_seed<Fr>(setup_seed);
    auto pk = std::make_shared<const proving_key<C>>(setup_from_toxic_waste<C>(ckt.system, tw));
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

    qap_at<Fr> q(ckt.system, tw.tau);
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

TYPED_TEST(ProverTest, BuilderCircuitWithUnusedRows) {
    using Fr = typename TypeParam::fr;
    // x^3 + x + 5 = 35: 3 constraints + 2 public rows in a domain of 8 (3 empty rows).
    circuit_builder<Fr> cb;
    auto x = cb.add_witness(Fr::from_u64(3));
    auto y = cb.add_public(Fr::from_u64(35));
    auto x2 = cb.add_witness(Fr::from_u64(9));
    auto x3 = cb.add_witness(Fr::from_u64(27));
    cb.enforce(x, x, x2);
    cb.enforce(x2, x, x3);
    cb.enforce(linear_combination<Fr>(x3) + x + Fr::from_u64(5) * circuit_builder<Fr>::one(), cb.one(), y);
    check_proof_discrete_logs<TypeParam>(std::move(cb).build(), 7, 8);
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

}  // namespace
