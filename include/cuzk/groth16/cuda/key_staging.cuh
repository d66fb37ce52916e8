// SPDX-License-Identifier: MIT OR Apache-2.0
// What the CUDA prover keeps on the GPU across proofs, each with its share of the budget or the
// reason it is not there (resident_part: the key of device_key.cuh, the circuit); and what it
// keeps of a key beside its device copy: shifted-base
// tables of a resident key's vectors (msm/fixed_bases.cuh) with their share of the budget, the
// host ranges it page-locked for streamed and chunked staging, and a compressed key's present
// variables on the device with the gather that picks their scalars out of z.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cuzk/gpu/cuda_error.hpp"
#include "cuzk/gpu/device_buffer.hpp"
#include "cuzk/gpu/stream.hpp"
#include "cuzk/gpu/vram_budget.hpp"
#include "cuzk/groth16/cuda/device_key.cuh"
#include "cuzk/groth16/density.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/msm/fixed_bases.cuh"

namespace cuzk::groth16::detail {

/// A part kept on the GPU across proofs with the budget it holds, or why it is not there. The
/// reservation comes first: it is given back after the part is freed.
template <class T>
struct resident_part {
    gpu::vram_budget::reservation reservation;
    std::unique_ptr<T> value;
    std::string why_not;  ///< empty when resident (or never asked for)

    /// Reserves `bytes` with `headroom` left beside them and makes the part with make(); when
    /// they do not fit, records `why` instead.
    template <class Make>
    void stage(gpu::vram_budget& budget, size_t bytes, size_t headroom, std::string why, Make&& make) {
        if (auto r = budget.try_reserve_resident(bytes, headroom)) {
            reservation = std::move(*r);
            value = make();
        } else {
            why_not = std::move(why);
        }
    }
};

/// Shifted-base tables for a resident key's vectors (empty pointers: not built), the budget they
/// hold and what was built. The reservations come first: they are given back after the tables
/// are freed.
template <class Curve>
struct key_tables {
    using G1 = typename Curve::g1;
    using G2 = typename Curve::g2;
    gpu::vram_budget::reservation g1_reservation, g2_reservation;
    std::unique_ptr<msm::fixed_bases<G1>> a, b_g1, l, h;
    std::unique_ptr<msm::fixed_bases<G2>> b_g2;
    std::string note;  ///< which tables were built, or why not

    /// The G1 vectors' tables if they fit beside one proof (per_proof_bytes), then B2's (when the
    /// G2 MSM runs on the GPU) if it fits too (called under the memory lock, on the setup stream).
    void build(const proving_key<Curve>& key, const device_key<Curve>& resident, gpu::vram_budget& budget,
               size_t per_proof_bytes, const gpu::stream& st, bool g2_on_gpu) {
        using T1 = msm::fixed_bases<G1>;
        using T2 = msm::fixed_bases<G2>;
        const size_t g1_bytes = T1::bytes_for(key.a.size()) + T1::bytes_for(key.b_g1.size()) +
                                T1::bytes_for(key.l.size()) + T1::bytes_for(key.h.size());
        auto gb = [](size_t b) {
            char text[32];
            std::snprintf(text, sizeof text, "%.1f GB", double(b) / 1e9);
            return std::string(text);
        };
        if (auto r = budget.try_reserve_resident(g1_bytes, per_proof_bytes)) {
            g1_reservation = std::move(*r);
            a = std::make_unique<T1>(resident.a.data(), key.a.size(), st);
            b_g1 = std::make_unique<T1>(resident.b_g1.data(), key.b_g1.size(), st);
            if (!key.l.empty()) l = std::make_unique<T1>(resident.l.data(), key.l.size(), st);
            h = std::make_unique<T1>(resident.h.data(), key.h.size(), st);
            note = "G1 tables resident (" + gb(g1_bytes) + ")";
        } else {
            note = "G1 tables (" + gb(g1_bytes) + ") do not fit the budget beside one proof: none built";
            return;
        }
        if (g2_on_gpu) {
            const size_t g2_bytes = T2::bytes_for(key.b_g2.size());
            if (auto r = budget.try_reserve_resident(g2_bytes, per_proof_bytes)) {
                g2_reservation = std::move(*r);
                b_g2 = std::make_unique<T2>(resident.b_g2.data(), key.b_g2.size(), st);
                note += ", G2 table resident (" + gb(g2_bytes) + ")";
            } else {
                note += ", G2 table (" + gb(g2_bytes) + ") does not fit: plain G2 MSM";
            }
        }
    }
};

/// Host ranges a prover page-locked, unregistered when destroyed: also when the constructor
/// throws after registering some (no ~prover runs then).
struct host_registrations {
    std::vector<void*> ranges;
    host_registrations() = default;
    host_registrations(const host_registrations&) = delete;
    host_registrations& operator=(const host_registrations&) = delete;
    ~host_registrations() {
        for (void* p : ranges) cudaHostUnregister(p);
    }

    /// Page-locks a key vector for the copy engine. Memory that is already registered (another
    /// streamed prover over the same key, or the caller) stays as it is and is not ours to
    /// unregister: that owner must outlive this prover.
    template <class T>
    void pin(const key_points<T>& v) {
        if (v.empty()) return;
        void* p = const_cast<T*>(v.data());
        cudaPointerAttributes attr{};
        CUZK_CUDA_CHECK(cudaPointerGetAttributes(&attr, p));
        if (attr.type == cudaMemoryTypeHost) return;  // already page-locked by someone else
        CUZK_CUDA_CHECK(cudaHostRegister(p, v.size() * sizeof(T), cudaHostRegisterDefault));
        ranges.push_back(p);
    }
};

/// out[i] = in[index[i]] (the scalars of a density-compressed MSM).
template <class T>
__global__ void gather_kernel(T* out, const T* in, const uint32_t* index, size_t n) {
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[index[i]];
}

/// The indices of the variables a density map marks present, on the device (empty for a
/// dense key: the MSMs then read z itself).
inline gpu::device_buffer<uint32_t> present_indices(const density_map& d, const gpu::stream& st) {
    if (d.empty()) return {};
    if (d.size() > size_t(UINT32_MAX)) throw invalid_argument("prover (CUDA): more than 2^32 variables");
    std::vector<uint32_t> idx;
    idx.reserve(d.count());
    for (size_t i = 0; i < d.size(); ++i)
        if (d.test(i)) idx.push_back(uint32_t(i));
    gpu::device_buffer<uint32_t> out(idx.size(), st);
    if (!idx.empty()) out.upload(idx.data(), st);
    st.synchronize();  // idx is a local
    return out;
}

/// z at the given indices (a compressed key's MSM scalars) into `out`, gathered on the
/// device; nothing when `index` is empty (dense: the MSMs read z itself).
template <class Fr>
void gather_present(const gpu::device_buffer<uint32_t>& index, const Fr* z, Fr* out, cudaStream_t st) {
    if (index.size() == 0) return;
    const unsigned block = 256;
    gather_kernel<Fr><<<unsigned((index.size() + block - 1) / block), block, 0, st>>>(out, z, index.data(), index.size());
    CUZK_CUDA_CHECK_LAUNCH("gather_kernel");
}

}  // namespace cuzk::groth16::detail
