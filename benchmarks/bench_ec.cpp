// SPDX-License-Identifier: MIT OR Apache-2.0
// Host point arithmetic per curve group (one thread): Jacobian add / mixed add / double, XYZZ
// add / mixed add / double, scalar multiplication (constant-time, wNAF, endomorphism), the subgroup test
// and batch normalisation. Each op runs as a dependency chain (acc <- op(acc, ...)), so the
// time per iteration is the latency a sequential caller sees; items_per_second = ops/s.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/curves/bn254.hpp"
#include "cuzk/ec/batch_normalize.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/ec/subgroup.hpp"
#include "cuzk/ec/xyzz.hpp"

namespace {

using namespace cuzk;

template <class G>
struct inputs {
    jacobian<G> p, q;
    affine<G> a;
    typename G::scalar k;
    inputs() {
        std::mt19937_64 rng(1);
        p = mul_vartime(jacobian<G>::generator(), G::scalar::random(rng));
        q = mul_vartime(jacobian<G>::generator(), G::scalar::random(rng));
        a = to_affine(mul_vartime(jacobian<G>::generator(), G::scalar::random(rng)));
        k = G::scalar::random(rng);
    }
};

template <class G>
void BM_jacobian_add(benchmark::State& state) {
    inputs<G> in;
    for (auto _ : state) {
        in.p = in.p + in.q;
        benchmark::DoNotOptimize(in.p);
    }
    state.SetItemsProcessed(state.iterations());
}
template <class G>
void BM_jacobian_mixed_add(benchmark::State& state) {
    inputs<G> in;
    for (auto _ : state) {
        in.p = in.p + in.a;
        benchmark::DoNotOptimize(in.p);
    }
    state.SetItemsProcessed(state.iterations());
}
template <class G>
void BM_jacobian_double(benchmark::State& state) {
    inputs<G> in;
    for (auto _ : state) {
        in.p = in.p.dbl();
        benchmark::DoNotOptimize(in.p);
    }
    state.SetItemsProcessed(state.iterations());
}
template <class G>
void BM_xyzz_add(benchmark::State& state) {
    inputs<G> in;
    xyzz<G> p = to_xyzz(in.p), q = to_xyzz(in.q);
    for (auto _ : state) {
        p = p + q;
        benchmark::DoNotOptimize(p);
    }
    state.SetItemsProcessed(state.iterations());
}
template <class G>
void BM_xyzz_mixed_add(benchmark::State& state) {
    inputs<G> in;
    xyzz<G> p = to_xyzz(in.p);
    for (auto _ : state) {
        p = p + in.a;
        benchmark::DoNotOptimize(p);
    }
    state.SetItemsProcessed(state.iterations());
}
template <class G>
void BM_xyzz_double(benchmark::State& state) {
    inputs<G> in;
    xyzz<G> p = to_xyzz(in.p);
    for (auto _ : state) {
        p = p.dbl();
        benchmark::DoNotOptimize(p);
    }
    state.SetItemsProcessed(state.iterations());
}
template <class G>
void BM_mul_constant_time(benchmark::State& state) {
    inputs<G> in;
    for (auto _ : state) {
        in.p = mul(in.p, in.k);
        benchmark::DoNotOptimize(in.p);
    }
    state.SetItemsProcessed(state.iterations());
}
template <class G>
void BM_mul_vartime(benchmark::State& state) {
    inputs<G> in;
    for (auto _ : state) {
        in.p = mul_vartime(in.p, in.k);
        benchmark::DoNotOptimize(in.p);
    }
    state.SetItemsProcessed(state.iterations());
}
template <class G>
void BM_mul_subgroup_vartime(benchmark::State& state) {
    inputs<G> in;
    for (auto _ : state) {
        in.p = mul_subgroup_vartime(in.p, in.k);
        benchmark::DoNotOptimize(in.p);
    }
    state.SetItemsProcessed(state.iterations());
}
template <class G>
void BM_is_in_subgroup(benchmark::State& state) {
    inputs<G> in;
    for (auto _ : state) benchmark::DoNotOptimize(is_in_subgroup(in.p));
    state.SetItemsProcessed(state.iterations());
}
template <class G>
void BM_is_in_subgroup_by_order(benchmark::State& state) {
    inputs<G> in;
    for (auto _ : state) benchmark::DoNotOptimize(is_in_subgroup_by_order(in.p));
    state.SetItemsProcessed(state.iterations());
}
template <class G>
void BM_batch_normalize_1024(benchmark::State& state) {
    inputs<G> in;
    std::vector<jacobian<G>> pts(1024);
    for (auto& p : pts) p = in.p = in.p + in.q;
    for (auto _ : state) benchmark::DoNotOptimize(batch_normalize(std::span<const jacobian<G>>(pts)));
    state.SetItemsProcessed(state.iterations() * 1024);
}

#define CUZK_EC_BENCH(G, label)                                                       \
    BENCHMARK(BM_jacobian_add<G>)->Name("jacobian_add/" label);                    \
    BENCHMARK(BM_jacobian_mixed_add<G>)->Name("jacobian_mixed_add/" label);        \
    BENCHMARK(BM_jacobian_double<G>)->Name("jacobian_double/" label);              \
    BENCHMARK(BM_xyzz_add<G>)->Name("xyzz_add/" label);                            \
    BENCHMARK(BM_xyzz_mixed_add<G>)->Name("xyzz_mixed_add/" label);                \
    BENCHMARK(BM_xyzz_double<G>)->Name("xyzz_double/" label);                      \
    BENCHMARK(BM_mul_constant_time<G>)->Name("mul_constant_time/" label);          \
    BENCHMARK(BM_mul_vartime<G>)->Name("mul_vartime/" label);                      \
    BENCHMARK(BM_mul_subgroup_vartime<G>)->Name("mul_subgroup_vartime/" label);    \
    BENCHMARK(BM_is_in_subgroup<G>)->Name("is_in_subgroup/" label);                \
    BENCHMARK(BM_is_in_subgroup_by_order<G>)->Name("is_in_subgroup_by_order/" label); \
    BENCHMARK(BM_batch_normalize_1024<G>)->Name("batch_normalize_1024/" label)

CUZK_EC_BENCH(bls12_381::g1, "bls12_381_g1");
CUZK_EC_BENCH(bls12_381::g2, "bls12_381_g2");
CUZK_EC_BENCH(bn254::g1, "bn254_g1");
CUZK_EC_BENCH(bn254::g2, "bn254_g2");

}  // namespace

BENCHMARK_MAIN();
