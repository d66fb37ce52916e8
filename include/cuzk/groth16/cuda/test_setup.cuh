// SPDX-License-Identifier: MIT OR Apache-2.0
// The INSECURE test setup with its group multiplications on the GPU: fast enough for 2^24
// constraints (the host version takes minutes there). Same keys, bit for bit, as
// setup_from_toxic_waste.
#pragma once

#include <cuda_runtime.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/ec/batch_normalize.hpp"
#include "cuzk/gpu/device_buffer.hpp"
#include "cuzk/gpu/stream.hpp"
#include "cuzk/groth16/density.hpp"
#include "cuzk/groth16/test_setup.hpp"

namespace cuzk::groth16 {

namespace detail {

/// out[i] = scalars[i] * base, from the fixed-base table of fixed_base_table<G>.
template <class G>
__global__ void fixed_base_mul_kernel(affine<G>* out, const typename G::scalar* scalars, size_t n,
                                      const affine<G>* table) {
    using table_t = fixed_base_table<G>;
    size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const auto s = scalars[i].to_canonical();
    xyzz<G> acc = xyzz<G>::identity();
    for (unsigned j = 0; j < table_t::windows; ++j) {
        unsigned d = s.bits_at(size_t(j) * table_t::window, table_t::window);
        if (d != 0) acc += table[size_t(j) * table_t::digits + d - 1];
    }
    // The binary-GCD inverse: 85 multiplications' worth instead of Fermat's ~560, about half of
    // this kernel's work before (the key's points are public; the toxic waste of this insecure
    // test setup is not secret either).
    out[i] = acc.is_identity() ? affine<G>::identity()
                               : cuzk::detail::from_inverse(acc, cuzk::detail::normaliser(acc).inverse_vartime());
}

/// scalars[i] * base for all i on the GPU, in chunks that bound device memory.
template <class G>
void fixed_base_mul_cuda(const fixed_base_table<G>& table, const std::vector<typename G::scalar>& scalars,
                         std::vector<affine<G>>& out, cudaStream_t st) {
    using Fr = typename G::scalar;
    out.resize(scalars.size());
    if (scalars.empty()) return;
    gpu::device_buffer<affine<G>> d_table(table.points().size(), st);
    d_table.upload(table.points().data(), st);
    const size_t chunk = std::min<size_t>(scalars.size(), size_t(1) << 22);
    gpu::device_buffer<Fr> d_s(chunk, st);
    gpu::device_buffer<affine<G>> d_out(chunk, st);
    for (size_t lo = 0; lo < scalars.size(); lo += chunk) {
        const size_t count = std::min(chunk, scalars.size() - lo);
        CUZK_CUDA_CHECK(cudaMemcpyAsync(d_s.data(), scalars.data() + lo, count * sizeof(Fr), cudaMemcpyHostToDevice, st));
        const unsigned threads = 128;
        fixed_base_mul_kernel<G><<<unsigned((count + threads - 1) / threads), threads, 0, st>>>(d_out.data(), d_s.data(),
                                                                                                count, d_table.data());
        CUZK_CUDA_CHECK_LAUNCH("fixed_base_mul_kernel");
        gpu::download_blocking(out.data() + lo, d_out.data(), count * sizeof(affine<G>), st);
    }
    gpu::wait(st);
}

/// Keeps the scalars of the variables `d` marks (a density-compressed key's vector); throws if a
/// dropped one is not zero (its point would not be the identity: the map is not this circuit's).
template <class Fr>
void keep_marked(std::vector<Fr>& s, const density_map& d, const char* what) {
    if (d.size() != s.size())
        throw invalid_argument(std::string("setup: the ") + what + " density map covers " + std::to_string(d.size()) +
                               " variables, the circuit has " + std::to_string(s.size()));
    size_t k = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        if (d.test(i)) s[k++] = s[i];
        else if (!s[i].is_zero())
            throw invalid_argument(std::string("setup: the ") + what + " density map drops variable " +
                                   std::to_string(i) + ", whose column is not empty");
    }
    s.resize(k);
    s.shrink_to_fit();
}

}  // namespace detail

/// setup_from_toxic_waste with the point multiplications on the current CUDA device. With density
/// maps the key comes out density-compressed (to_density_compressed's result) without the dense
/// key in between: at 2^27 the dense B_G2 alone is 26 GB of host memory.
template <class Curve>
proving_key<Curve> setup_from_toxic_waste_cuda(const r1cs<typename Curve::fr>& cs,
                                               const toxic_waste<typename Curve::fr>& tw,
                                               std::optional<std::pair<density_map, density_map>> densities = {}) {
    using G1 = typename Curve::g1;
    using G2 = typename Curve::g2;
    auto s = compute_setup_scalars(cs, tw);
    proving_key<Curve> pk;
    const detail::fixed_base_table<G1> g1(affine<G1>::generator());
    const detail::fixed_base_table<G2> g2(affine<G2>::generator());
    pk.vk.alpha_g1 = to_affine(g1.mul_vartime(tw.alpha));
    pk.vk.beta_g2 = to_affine(g2.mul_vartime(tw.beta));
    pk.vk.gamma_g2 = to_affine(g2.mul_vartime(tw.gamma));
    pk.vk.delta_g2 = to_affine(g2.mul_vartime(tw.delta));
    pk.beta_g1 = to_affine(g1.mul_vartime(tw.beta));
    pk.delta_g1 = to_affine(g1.mul_vartime(tw.delta));
    if (densities) {
        detail::keep_marked(s.a, densities->first, "A");
        detail::keep_marked(s.b, densities->second, "B");
        pk.a_density = std::move(densities->first);
        pk.b_density = std::move(densities->second);
    }
    gpu::stream st;
    auto release = [](std::vector<typename Curve::fr>& v) { std::vector<typename Curve::fr>().swap(v); };
    detail::fixed_base_mul_cuda(g1, s.ic, pk.vk.ic, st);
    detail::fixed_base_mul_cuda(g1, s.a, pk.a.owned(), st);
    release(s.a);
    detail::fixed_base_mul_cuda(g1, s.b, pk.b_g1.owned(), st);
    detail::fixed_base_mul_cuda(g2, s.b, pk.b_g2.owned(), st);
    release(s.b);
    detail::fixed_base_mul_cuda(g1, s.l, pk.l.owned(), st);
    release(s.l);
    detail::fixed_base_mul_cuda(g1, s.h, pk.h.owned(), st);
    pk.h_convention = h_basis::lagrange_odd_coset;
    return pk;
}

/// test_setup_insecure on the GPU (density-compressed with `densities`, as above).
template <class Curve>
proving_key<Curve> test_setup_insecure_cuda(const r1cs<typename Curve::fr>& cs, uint64_t seed,
                                            std::optional<std::pair<density_map, density_map>> densities = {}) {
    return setup_from_toxic_waste_cuda<Curve>(cs, toxic_waste_from_seed<typename Curve::fr>(seed),
                                              std::move(densities));
}

}  // namespace cuzk::groth16

/// Explicit instantiation (prefix empty) or extern declaration (prefix `extern`) of the setup's
/// batch multiplication for group G: see cuzk/instances.hpp.
#define CUZK_TEST_SETUP_INSTANCES(prefix, G)                                                                \
    prefix template void cuzk::groth16::detail::fixed_base_mul_cuda<G>(                                     \
        const ::cuzk::groth16::detail::fixed_base_table<G>&, const std::vector<G::scalar>&,                 \
        std::vector<::cuzk::affine<G>>&, cudaStream_t);

#if defined(CUZK_PRECOMPILED)
#include "cuzk/instances.hpp"
CUZK_FOR_EACH_INSTANCE_GROUP(CUZK_TEST_SETUP_INSTANCES, extern)
#endif
