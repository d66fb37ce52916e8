// SPDX-License-Identifier: MIT OR Apache-2.0
// Device point arithmetic against the host, bit for bit, for BLS12-381 and BN254 G1 and G2.
//
// Per group: 2^18 random index positions, each running six operations (Jacobian add, mixed
// add and double; XYZZ add, mixed add and double), so 1.5M cases per group and 6.3M in all,
// plus 2^11 constant-time and 2^11 wNAF scalar multiplications. One index in 16 of each kind is
// an exceptional case: P + P through the add path (different Z), P + (-P), identity on the
// left, on the right, on both sides, and the affine identity. The host code is the oracle here
// (it is itself checked against the textbook affine group law in test_ec_group). Skips
// when no CUDA device is present. The kernels (tests/ec_device_kernels.hpp) are compiled once, in
// a library that bench_ec_device links too.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/curves/bn254.hpp"
#include "cuzk/ec/batch_normalize.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/ec/xyzz.hpp"
#include "cuzk/gpu/cuda_error.hpp"
#include "cuzk/gpu/device_buffer.hpp"
#include "cuzk/gpu/stream.hpp"
#include "ec_device_kernels.hpp"
#include "gpu_test.hpp"

namespace {

using namespace cuzk;

/// The six point operations at one index, as one-step chains of the shared kernels
/// (ec_device_kernels.hpp): out[i] = first[i] + second[i], or first[i].dbl().
using ec_kernels::chain_shape;
using ec_kernels::op;

template <class G, op O>
using acc_t = typename ec_kernels::op_types<G, O>::acc;
template <class G, op O>
using addend_t = typename ec_kernels::op_types<G, O>::addend;

/// Host reference: the same chain function the kernel runs, for every index.
template <class G, op O>
std::vector<acc_t<G, O>> host_op(const std::vector<acc_t<G, O>>& first, const addend_t<G, O>* second) {
    std::vector<acc_t<G, O>> out(first.size());
    const chain_shape one;
#pragma omp parallel for
    for (long i = 0; i < long(first.size()); ++i)
        out[size_t(i)] = ec_kernels::chain<G, O>(size_t(i), one, first.data(), second);
    return out;
}

template <class G, op O>
void launch_op(size_t n, const acc_t<G, O>* first, const addend_t<G, O>* second, acc_t<G, O>* out, cudaStream_t s) {
    ec_kernels::launch_chain<G, O>(1024, 128, s, n, chain_shape{}, first, second, out);
}

template <class F, class Rng>
F nonzero(Rng& rng) {
    for (;;) {
        F z = F::random(rng);
        if (!z.is_zero()) return z;
    }
}

/// The same point with Z multiplied by a random non-zero t (identity stays with Z = 0).
template <class G, class Rng>
jacobian<G> rescale(const jacobian<G>& p, Rng& rng) {
    using F = typename G::field;
    F t = nonzero<F>(rng), t2 = t.square();
    return jacobian<G>{p.x * t2, p.y * t2 * t, p.z * t};
}

template <class T>
gpu::device_buffer<T> upload(const std::vector<T>& h, cudaStream_t s) {
    gpu::device_buffer<T> d(h.size(), s);
    d.upload(h.data(), s);
    return d;
}

template <class T>
void expect_bitwise_equal(const std::vector<T>& host, const gpu::device_buffer<T>& dev, cudaStream_t s,
                          const char* what) {
    std::vector<T> got(host.size());
    dev.download(got.data(), s);
    CUZK_CUDA_CHECK(cudaStreamSynchronize(s));
    size_t bad = 0, first = host.size();
    for (size_t i = 0; i < host.size(); ++i) {
        if (std::memcmp(&host[i], &got[i], sizeof(T)) != 0) {
            if (bad++ == 0) first = i;
        }
    }
    EXPECT_EQ(bad, 0u) << what << ": " << bad << " of " << host.size() << " differ, first at index " << first
                       << " (case " << first % 16 << ")";
}

template <class G>
class ec_device : public ::testing::Test {};
using groups = ::testing::Types<bls12_381::g1, bls12_381::g2, bn254::g1, bn254::g2>;
TYPED_TEST_SUITE(ec_device, groups);

TYPED_TEST(ec_device, point_ops_match_host_bit_for_bit) {
    using G = TypeParam;
    using J = jacobian<G>;
    using X = xyzz<G>;
    using A = affine<G>;
    SKIP_WITHOUT_GPU();
    constexpr size_t n = size_t(1) << 18;
    std::mt19937_64 rng(41);
    // 64 random subgroup points; two random walks over them give inputs with unrelated Z
    std::vector<J> base;
    for (int i = 0; i < 64; ++i) base.push_back(mul_vartime(J::generator(), G::scalar::random(rng)));
    std::vector<J> a(n), b(n);
    J wa = base[0], wb = base[1];
    for (size_t i = 0; i < n; ++i) {
        wa += base[i % 64];
        wb += base[(i * 7 + 3) % 64];
        a[i] = wa;
        b[i] = wb;
    }
    auto a_aff = batch_normalize(std::span<const J>(a));
    auto b_aff = batch_normalize(std::span<const J>(b));
    std::vector<A> q(n);
    for (size_t i = 0; i < n; ++i) {
        q[i] = b_aff[i];
        switch (i % 16) {
            case 0: b[i] = rescale(a[i], rng); q[i] = a_aff[i]; break;      // P + P via add
            case 1: b[i] = rescale(-a[i], rng); q[i] = -a_aff[i]; break;    // P + (-P)
            case 2: a[i] = J::identity(); break;                             // O + Q
            case 3: b[i] = J::identity(); q[i] = A::identity(); break;      // P + O
            case 4: a[i] = J::identity(); b[i] = J::identity(); q[i] = A::identity(); break;
            case 5: q[i] = A::identity(); break;                             // affine identity
            default: break;
        }
    }
    std::vector<X> xa(n), xb(n);
    for (size_t i = 0; i < n; ++i) {
        xa[i] = to_xyzz(a[i]);
        xb[i] = to_xyzz(b[i]);
    }
    // host reference
    const auto h_jadd = host_op<G, op::jacobian_add>(a, b.data());
    const auto h_jmadd = host_op<G, op::jacobian_mixed_add>(a, q.data());
    const auto h_jdbl = host_op<G, op::jacobian_double>(a, nullptr);
    const auto h_xadd = host_op<G, op::xyzz_add>(xa, xb.data());
    const auto h_xmadd = host_op<G, op::xyzz_mixed_add>(xa, q.data());
    const auto h_xdbl = host_op<G, op::xyzz_double>(xa, nullptr);
    // device
    gpu::stream s;
    auto da = upload(a, s), db = upload(b, s);
    auto dq = upload(q, s);
    auto dxa = upload(xa, s), dxb = upload(xb, s);
    gpu::device_buffer<J> d_jadd(n, s), d_jmadd(n, s), d_jdbl(n, s);
    gpu::device_buffer<X> d_xadd(n, s), d_xmadd(n, s), d_xdbl(n, s);
    launch_op<G, op::jacobian_add>(n, da.data(), db.data(), d_jadd.data(), s);
    launch_op<G, op::jacobian_mixed_add>(n, da.data(), dq.data(), d_jmadd.data(), s);
    launch_op<G, op::jacobian_double>(n, da.data(), nullptr, d_jdbl.data(), s);
    launch_op<G, op::xyzz_add>(n, dxa.data(), dxb.data(), d_xadd.data(), s);
    launch_op<G, op::xyzz_mixed_add>(n, dxa.data(), dq.data(), d_xmadd.data(), s);
    launch_op<G, op::xyzz_double>(n, dxa.data(), nullptr, d_xdbl.data(), s);
    expect_bitwise_equal(h_jadd, d_jadd, s, "jacobian add");
    expect_bitwise_equal(h_jmadd, d_jmadd, s, "jacobian mixed add");
    expect_bitwise_equal(h_jdbl, d_jdbl, s, "jacobian double");
    expect_bitwise_equal(h_xadd, d_xadd, s, "xyzz add");
    expect_bitwise_equal(h_xmadd, d_xmadd, s, "xyzz mixed add");
    expect_bitwise_equal(h_xdbl, d_xdbl, s, "xyzz double");
    // sanity: the exceptional cases really produced what they should
    EXPECT_TRUE(h_jadd[1].is_identity());
    EXPECT_TRUE(h_xmadd[1].is_identity());
    EXPECT_TRUE(h_jadd[0] == h_jdbl[0]);
    EXPECT_TRUE(h_xmadd[16] == h_xdbl[16]);
}

TYPED_TEST(ec_device, scalar_mul_matches_host_bit_for_bit) {
    using G = TypeParam;
    using J = jacobian<G>;
    using S = typename G::scalar;
    SKIP_WITHOUT_GPU();
    constexpr size_t n = size_t(1) << 11;
    std::mt19937_64 rng(42);
    std::vector<J> p(n);
    std::vector<S> k(n);
    J w = mul_vartime(J::generator(), S::random(rng));
    for (size_t i = 0; i < n; ++i) {
        w = w.dbl() + J::generator();
        p[i] = rescale(w, rng);
        k[i] = S::random(rng);
        switch (i % 16) {
            case 0: k[i] = S::zero(); break;
            case 1: k[i] = S::one(); break;
            case 2: k[i] = -S::one(); break;
            case 3: p[i] = J::identity(); break;
            default: break;
        }
    }
    std::vector<J> h_ct(n), h_vt(n);
#pragma omp parallel for
    for (long i = 0; i < long(n); ++i) {
        h_ct[i] = mul(p[i], k[i]);
        h_vt[i] = mul_vartime(p[i], k[i]);
    }
    gpu::stream s;
    auto dp = upload(p, s);
    auto dk = upload(k, s);
    gpu::device_buffer<J> d_ct(n, s), d_vt(n, s);
    ec_kernels::launch_mul<G, true>(n / 64, 64, s, n, ~size_t(0), dp.data(), dk.data(), d_ct.data());
    ec_kernels::launch_mul<G, false>(n / 64, 64, s, n, ~size_t(0), dp.data(), dk.data(), d_vt.data());
    expect_bitwise_equal(h_ct, d_ct, s, "constant-time mul");
    expect_bitwise_equal(h_vt, d_vt, s, "wNAF mul");
    for (size_t i = 0; i < n; i += 97) EXPECT_TRUE(h_ct[i] == h_vt[i]) << i;
}

}  // namespace
