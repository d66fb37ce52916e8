// SPDX-License-Identifier: MIT OR Apache-2.0
// MSMs over bases that stay in host memory: the bases go up to the GPU a chunk at a time through
// two device buffers, each chunk's upload overlapping the previous chunk's MSM, and the chunk sums
// are added on the host. Device memory is two chunks of bases (plus what the caller's per-chunk
// MSM needs), whatever n: for keys larger than the VRAM at hand (a Filecoin 2^27 partition's G1
// vectors are 12.9 GB each against a 16 GB card: docs/FILECOIN.md).
//
//   size_t bytes = msm::streamed_bases_bytes<G>(chunk);                   // two chunk buffers
//   gpu::device_buffer<char> buffers(bytes, stream);
//   jacobian<G> r = msm::msm_streamed_bases<G>(host_points, n, chunk, buffers.data(), bytes, stream,
//       [&](const affine<G>* d_points, size_t first, size_t count) {     // one chunk's MSM
//           return msm::msm_witness_device<G>(d_points, d_scalars + first, count, ws, ws_bytes, stream);
//       });
//
// Any device MSM serves as the per-chunk call (plain, witness, other options), since a sum over
// the whole range is the sum of the chunks' sums. Host points should be page-locked
// (cudaHostRegister, as the prover's streamed staging does): from pageable memory each copy is
// staged by the driver and overlaps nothing; the result is the same.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <type_traits>

#include "cuzk/core/error.hpp"
#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/gpu/cuda_error.hpp"
#include "cuzk/gpu/event.hpp"
#include "cuzk/gpu/stream.hpp"

namespace cuzk::msm {

namespace detail {
/// One chunk buffer's bytes, rounded up so that the second buffer starts 256-byte aligned.
template <class G>
constexpr size_t streamed_slot_bytes(size_t chunk) {
    return (chunk * sizeof(affine<G>) + 255) / 256 * 256;
}
}  // namespace detail

/// Device bytes msm_streamed_bases needs for its two chunk buffers of `chunk` points.
template <class G>
constexpr size_t streamed_bases_bytes(size_t chunk) {
    return 2 * detail::streamed_slot_bytes<G>(chunk);
}

/// sum over the chunks [first, first + count) of [0, n) of chunk_msm(d_points, first, count), where
/// d_points holds host_points[first, first + count) on the device when chunk_msm runs (enqueued on
/// `stream`, which has waited for that chunk's upload). chunk_msm must return jacobian<G> and do
/// its device work on `stream`; the buffer it reads is overwritten only after the work it enqueued
/// there. `buffers` (at least streamed_bases_bytes<G>(chunk) bytes of device memory, 256-byte
/// aligned, allocated before the call on `stream` or earlier) stays in use until the call
/// returns or throws. Throws invalid_argument for a zero chunk, a null pointer or a short buffer,
/// cuda_error for a failed copy, and whatever chunk_msm throws; on any error the uploads already
/// queued finish before it propagates.
template <class G, class ChunkMsm>
jacobian<G> msm_streamed_bases(const affine<G>* host_points, size_t n, size_t chunk, void* buffers, size_t buffer_bytes,
                               cudaStream_t stream, ChunkMsm&& chunk_msm) {
    static_assert(
        std::is_same_v<std::invoke_result_t<ChunkMsm&, const affine<G>*, size_t, size_t>, jacobian<G>>,
        "msm_streamed_bases: chunk_msm(const affine<G>*, size_t first, size_t count) must return jacobian<G>");
    if (n == 0) return jacobian<G>::identity();
    if (chunk == 0) throw invalid_argument("msm_streamed_bases: the chunk must hold at least one point");
    if (host_points == nullptr || buffers == nullptr) throw invalid_argument("msm_streamed_bases: null pointer");
    chunk = std::min(chunk, n);
    if (buffer_bytes < streamed_bases_bytes<G>(chunk))
        throw invalid_argument("msm_streamed_bases: buffers of " + std::to_string(buffer_bytes) + " bytes, need " +
                               std::to_string(streamed_bases_bytes<G>(chunk)));
    affine<G>* slot[2] = {
        static_cast<affine<G>*>(buffers),
        reinterpret_cast<affine<G>*>(static_cast<char*>(buffers) + detail::streamed_slot_bytes<G>(chunk))};
    gpu::stream copy;
    gpu::event start(false), ready[2] = {gpu::event(false), gpu::event(false)},
                             consumed[2] = {gpu::event(false), gpu::event(false)};
    gpu::wait_on_unwind uploads_finish(copy);  // declared after `copy`: runs before it is destroyed
    // Each upload waits for the work that last read its slot (or, for the first two, for
    // whatever `stream` had queued, e.g. the buffers' allocation).
    start.record(stream);
    auto upload = [&](size_t k) {
        const size_t first = k * chunk, count = std::min(chunk, n - first);
        CUZK_CUDA_CHECK(cudaStreamWaitEvent(copy, k < 2 ? start.get() : consumed[k % 2].get(), 0));
        CUZK_CUDA_CHECK(
            cudaMemcpyAsync(slot[k % 2], host_points + first, count * sizeof(affine<G>), cudaMemcpyHostToDevice, copy));
        ready[k % 2].record(copy);
    };
    const size_t chunks = (n + chunk - 1) / chunk;
    jacobian<G> sum = jacobian<G>::identity();
    upload(0);
    for (size_t k = 0; k < chunks; ++k) {
        if (k + 1 < chunks) upload(k + 1);  // goes up while chunk k's MSM runs
        CUZK_CUDA_CHECK(cudaStreamWaitEvent(stream, ready[k % 2], 0));
        const size_t first = k * chunk;
        sum += chunk_msm(static_cast<const affine<G>*>(slot[k % 2]), first, std::min(chunk, n - first));
        consumed[k % 2].record(stream);
    }
    copy.synchronize();
    return sum;
}

}  // namespace cuzk::msm
