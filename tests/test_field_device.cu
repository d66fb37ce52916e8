// SPDX-License-Identifier: MIT OR Apache-2.0
// Device field arithmetic against the host, bit for bit, for all four prime fields.
//
// Every op (add, sub, neg, dbl, mul, square) runs on >= 2^20 random pairs plus every pair of
// edge values; inverse and pow run on fewer elements (each is hundreds of multiplications).
// The host implementation is the oracle here (it is itself checked against GMP in
// test_field_gmp); GMP additionally confirms that the edge/random inputs really drive the
// Montgomery multiply into its final conditional subtraction, and checks a sample of device
// products directly. Skips when no CUDA device is present.
#include <gmp.h>
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/curves/bn254.hpp"
#include "cuzk/gpu/cuda_error.hpp"
#include "gpu_test.hpp"

namespace {

using namespace cuzk;

template <class F>
__global__ void elementwise_ops(size_t n, const F* a, const F* b, F* add, F* sub, F* neg, F* dbl, F* mul, F* sqr) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
        const F x = a[i], y = b[i];
        add[i] = x + y;
        sub[i] = x - y;
        neg[i] = -x;
        dbl[i] = x.dbl();
        mul[i] = x * y;
        sqr[i] = x.square();
    }
}

/// Every multiplication strategy of the device leaf primitives, not only the one
/// mont_mul picks, so that a benchmark of any of them is a benchmark of correct code.
template <class F>
__global__ void mul_variants(size_t n, const F* a, const F* b, F* out) {
    using P = typename F::params;
    using device_arith::detail::mul_algo;
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
        device_arith::detail::mont_mul_with<P, mul_algo::cios>(out[2 * i + 0].mont, a[i].mont, b[i].mont);
        device_arith::detail::mont_mul_with<P, mul_algo::karatsuba>(out[2 * i + 1].mont, a[i].mont, b[i].mont);
    }
}

template <class F>
__global__ void slow_ops(size_t n, const F* a, const F* b, F* inv, F* inv_vt, F* pw) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
        inv[i] = a[i].inverse();
        inv_vt[i] = a[i].inverse_vartime();
        pw[i] = a[i].pow_vartime(b[i].mont);  // exponent: b's Montgomery limbs as an integer
    }
}

template <class T>
struct device_array {
    T* ptr = nullptr;
    explicit device_array(size_t n) { CUZK_CUDA_CHECK(cudaMalloc(&ptr, n * sizeof(T) + 1)); }
    ~device_array() { cudaFree(ptr); }
    device_array(const device_array&) = delete;
    device_array& operator=(const device_array&) = delete;
};

template <class F>
std::vector<F> download(const device_array<F>& d, size_t n) {
    std::vector<F> h(n);
    CUZK_CUDA_CHECK(cudaMemcpy(h.data(), d.ptr, n * sizeof(F), cudaMemcpyDeviceToHost));
    return h;
}

template <class F>
std::string hex(const F& x) {
    std::string s = "0x";
    char buf[17];
    for (size_t i = F::limbs; i-- > 0;) {
        std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(x.mont.limb[i]));
        s += buf;
    }
    return s;
}

/// Edge values as raw Montgomery representations (all < p): 0, 1, 2, p-1, p-2, (p±1)/2,
/// Montgomery one and minus one, R^2 mod p, and 2^k - 1, 2^k around the 32-bit word boundaries.
template <class F>
std::vector<F> edge_values() {
    using I = typename F::integer;
    const I p = F::modulus;
    const I one = I::from_u64(1);
    std::vector<I> raw = {I{},
                          one,
                          I::from_u64(2),
                          p - one,
                          p - I::from_u64(2),
                          p.shr(1),
                          p.shr(1) + one,
                          mont_params<typename F::config>::r1,
                          p - mont_params<typename F::config>::r1,
                          mont_params<typename F::config>::r2};
    for (size_t k = 32; k < F::modulus_bits; k += 32) {
        I pow2 = one.shl(k);
        raw.push_back(pow2);
        raw.push_back(pow2 - one);
    }
    raw.push_back(one.shl(F::modulus_bits - 1) - one);  // all ones below the top bit of p
    std::vector<F> out;
    for (const I& v : raw) {
        EXPECT_LT(v, p);
        out.push_back(F::from_montgomery_unchecked(v));
    }
    return out;
}

// ---- GMP helpers: the final-subtraction check ---------------------------------------------

template <size_t N>
void to_mpz(mpz_t out, const bigint<N>& x) {
    mpz_import(out, N, -1, sizeof(uint64_t), 0, 0, x.limb);
}

/// Montgomery product by GMP: returns true when (a*b + M p) / R (before the final
/// subtraction) is >= p, and writes the reduced result to `res`.
template <class F>
bool gmp_mont_mul(const F& a, const F& b, typename F::integer& res) {
    mpz_t x, y, p, r, t, m;
    mpz_inits(x, y, p, r, t, m, nullptr);
    to_mpz(x, a.mont);
    to_mpz(y, b.mont);
    to_mpz(p, F::modulus);
    mpz_set_ui(r, 1);
    mpz_mul_2exp(r, r, 64 * F::limbs);
    mpz_mul(t, x, y);
    // M = t * (-p^-1) mod R
    mpz_invert(m, p, r);
    mpz_sub(m, r, m);
    mpz_mul(m, m, t);
    mpz_fdiv_r_2exp(m, m, 64 * F::limbs);
    mpz_addmul(t, m, p);
    mpz_fdiv_q_2exp(t, t, 64 * F::limbs);
    const bool hit = mpz_cmp(t, p) >= 0;
    if (hit) mpz_sub(t, t, p);
    res = typename F::integer{};
    mpz_export(res.limb, nullptr, -1, sizeof(uint64_t), 0, 0, t);
    mpz_clears(x, y, p, r, t, m, nullptr);
    return hit;
}

template <class F>
class FieldDevice : public ::testing::Test {};

using Fields = ::testing::Types<bls12_381::fp, bls12_381::fr, bn254::fq, bn254::fr>;
TYPED_TEST_SUITE(FieldDevice, Fields);

constexpr size_t random_count = size_t(1) << 20;
constexpr size_t slow_count = 4096;

TYPED_TEST(FieldDevice, EveryOpMatchesHostBitForBit) {
    using F = TypeParam;
    SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(0xc0ffee + F::modulus_bits);
    // random pairs, then every pair of edge values
    std::vector<F> a, b;
    const std::vector<F> edges = edge_values<F>();
    a.reserve(random_count + edges.size() * edges.size());
    b.reserve(a.capacity());
    for (const F& x : edges)
        for (const F& y : edges) {
            a.push_back(x);
            b.push_back(y);
        }
    const size_t edge_pairs = a.size();
    for (size_t i = 0; i < random_count; ++i) {
        a.push_back(F::random(rng));
        b.push_back(F::random(rng));
    }
    const size_t n = a.size();

    device_array<F> da(n), db(n), dadd(n), dsub(n), dneg(n), ddbl(n), dmul(n), dsqr(n), dinv(slow_count),
        dinv_vt(slow_count), dpow(slow_count);
    CUZK_CUDA_CHECK(cudaMemcpy(da.ptr, a.data(), n * sizeof(F), cudaMemcpyHostToDevice));
    CUZK_CUDA_CHECK(cudaMemcpy(db.ptr, b.data(), n * sizeof(F), cudaMemcpyHostToDevice));
    elementwise_ops<F><<<528, 256>>>(n, da.ptr, db.ptr, dadd.ptr, dsub.ptr, dneg.ptr, ddbl.ptr, dmul.ptr, dsqr.ptr);
    CUZK_CUDA_CHECK_LAUNCH("elementwise_ops");
    slow_ops<F><<<(slow_count + 127) / 128, 128>>>(slow_count, da.ptr, db.ptr, dinv.ptr, dinv_vt.ptr, dpow.ptr);
    CUZK_CUDA_CHECK_LAUNCH("slow_ops");
    CUZK_CUDA_CHECK(cudaDeviceSynchronize());

    const auto add = download(dadd, n), sub = download(dsub, n), neg = download(dneg, n), dbl = download(ddbl, n),
               mul = download(dmul, n), sqr = download(dsqr, n), inv = download(dinv, slow_count),
               inv_vt = download(dinv_vt, slow_count), pw = download(dpow, slow_count);

    // Host oracle, computed in parallel (the device host has many cores).
    std::vector<F> hadd(n), hsub(n), hneg(n), hdbl(n), hmul(n), hsqr(n), hinv(slow_count), hpow(slow_count);
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; ++i) {
        hadd[i] = a[i] + b[i];
        hsub[i] = a[i] - b[i];
        hneg[i] = -a[i];
        hdbl[i] = a[i].dbl();
        hmul[i] = a[i] * b[i];
        hsqr[i] = a[i].square();
    }
#pragma omp parallel for schedule(dynamic, 64)
    for (size_t i = 0; i < slow_count; ++i) {
        hinv[i] = a[i].inverse();
        hpow[i] = a[i].pow_vartime(b[i].mont);
    }

    auto check = [&](const char* op, const std::vector<F>& dev, const std::vector<F>& host, bool binary) {
        size_t bad = 0;
        for (size_t i = 0; i < host.size(); ++i) {
            if (std::memcmp(&dev[i], &host[i], sizeof(F)) == 0) continue;
            if (++bad <= 3)
                ADD_FAILURE() << F::config::name << " " << op << " mismatch at " << i
                              << (i < edge_pairs ? " (edge pair)" : "") << ": a=" << hex(a[i])
                              << (binary ? " b=" + hex(b[i]) : std::string()) << " device=" << hex(dev[i])
                              << " host=" << hex(host[i]);
        }
        EXPECT_EQ(bad, 0u) << op << ": " << bad << " of " << host.size() << " differ";
    };
    check("add", add, hadd, true);
    check("sub", sub, hsub, true);
    check("neg", neg, hneg, false);
    check("dbl", dbl, hdbl, false);
    check("mul", mul, hmul, true);
    check("square", sqr, hsqr, false);
    check("inverse", inv, hinv, false);
    check("inverse_vartime", inv_vt, hinv, false);  // the same value as Fermat's
    check("pow_vartime", pw, hpow, true);

    // Every multiplication strategy agrees with the host too.
    {
        device_array<F> dvar(2 * n);
        mul_variants<F><<<528, 256>>>(n, da.ptr, db.ptr, dvar.ptr);
        CUZK_CUDA_CHECK_LAUNCH("mul_variants");
        const auto var = download(dvar, 2 * n);
        const char* names[2] = {"mul (cios)", "mul (karatsuba)"};
        for (size_t v = 0; v < 2; ++v) {
            std::vector<F> got(n);
            for (size_t i = 0; i < n; ++i) got[i] = var[2 * i + v];
            check(names[v], got, hmul, true);
        }
    }

    // Results are fully reduced.
    for (size_t i = 0; i < n; i += 97) ASSERT_LT(mul[i].mont, F::modulus);

    // GMP, independently: device products of the edge pairs and a random sample equal the
    // Montgomery product, and some of those inputs do need the final subtraction.
    size_t hits = 0, edge_hits = 0;
    for (size_t i = 0; i < edge_pairs + 20000; ++i) {
        typename F::integer expect{};
        const bool hit = gmp_mont_mul(a[i], b[i], expect);
        hits += hit;
        edge_hits += hit && i < edge_pairs;
        ASSERT_EQ(mul[i].mont, expect) << F::config::name << " GMP mul mismatch at " << i;
        typename F::integer expect_sqr{};
        gmp_mont_mul(a[i], a[i], expect_sqr);
        ASSERT_EQ(sqr[i].mont, expect_sqr) << F::config::name << " GMP square mismatch at " << i;
    }
    EXPECT_GT(edge_hits, 0u) << "no edge pair exercised the final subtraction of mont_mul";
    EXPECT_GT(hits, 0u);
    // add with (p+1)/2 + (p+1)/2 = p + 1 also needs its final subtraction: covered by the edge pairs.
    ::testing::Test::RecordProperty("final_subtraction_hits", std::to_string(hits));
}

// Inverse is a real inverse on the device too (not only equal to the host's).
TYPED_TEST(FieldDevice, InverseTimesSelfIsOne) {
    using F = TypeParam;
    SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(7);
    std::vector<F> a(1024), b(1024, F::one());
    for (auto& x : a) x = F::random(rng);
    a[0] = F::zero();
    a[1] = F::one();
    a[2] = -F::one();
    device_array<F> da(a.size()), db(a.size()), dinv(a.size()), dinv_vt(a.size()), dpow(a.size());
    CUZK_CUDA_CHECK(cudaMemcpy(da.ptr, a.data(), a.size() * sizeof(F), cudaMemcpyHostToDevice));
    CUZK_CUDA_CHECK(cudaMemcpy(db.ptr, b.data(), b.size() * sizeof(F), cudaMemcpyHostToDevice));
    slow_ops<F><<<8, 128>>>(a.size(), da.ptr, db.ptr, dinv.ptr, dinv_vt.ptr, dpow.ptr);
    CUZK_CUDA_CHECK_LAUNCH("slow_ops");
    const auto inv = download(dinv, a.size()), inv_vt = download(dinv_vt, a.size());
    EXPECT_TRUE(inv[0].is_zero()) << "inverse(0) must be 0";
    EXPECT_TRUE(inv_vt[0].is_zero()) << "inverse_vartime(0) must be 0";
    for (size_t i = 1; i < a.size(); ++i) {
        EXPECT_TRUE((inv[i] * a[i]).is_one()) << F::config::name << " at " << i;
        EXPECT_TRUE((inv_vt[i] * a[i]).is_one()) << F::config::name << " vartime at " << i;
    }
}

}  // namespace
