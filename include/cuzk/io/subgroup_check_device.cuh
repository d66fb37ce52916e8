// SPDX-License-Identifier: MIT OR Apache-2.0
// The .params reader's subgroup check on a GPU: gpu_subgroup_check() makes the
// io::subgroup_batch_check that bellperson_read_options::subgroup_batch takes, running
// ec/subgroup_device.cuh's streamed check (the exact per-point tests of ec/subgroup.hpp, one
// thread a point) on one device.
//
//   io::bellperson_read_options opt{.check_subgroup = true, .subgroup_batch = io::gpu_subgroup_check()};
//   auto params = io::read_bellperson_params(path, opt);
//
// Why: on the host the test costs about a scalar multiplication a point (53 us a G1 point and
// 70 us a G2 point on one core), an hour for a 44 GiB PoRep file on 16 cores; the GPU runs
// tens of thousands of them at once, and the reader decodes the next section while the GPU
// checks the last one.
//
// This header also declares the subgroup launchers of the shipped groups extern where the
// precompiled cuzk::instances library is linked (src/instances/subgroup.cu holds them).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <span>
#include <type_traits>

#include "cuzk/ec/subgroup_device.cuh"
#include "cuzk/gpu/cuda_error.hpp"
#include "cuzk/gpu/stream.hpp"
#include "cuzk/io/bellperson_params.hpp"

#if defined(CUZK_PRECOMPILED)
#include "cuzk/instances.hpp"
CUZK_FOR_EACH_INSTANCE_GROUP(CUZK_SUBGROUP_INSTANCES, extern)
#endif

namespace cuzk::io {

/// A subgroup_batch_check on CUDA device `device` (-1: the calling thread's current device when
/// this is called). The reader calls it from threads of its own, so each call selects the device
/// on its thread; calls are serialised (one section on the GPU at a time: they would only share
/// it). The calls share one subgroup_staging, made at the first call and freed with the last copy
/// of the functions: cfg.lanes slots of cfg.chunk_points G2 points (G1 chunks hold twice as many
/// points), by default 3 x 192 MiB of page-locked memory and as much device memory.
inline subgroup_batch_check gpu_subgroup_check(int device = -1, subgroup_stream_config cfg = {}) {
    if (device < 0) CUZK_CUDA_CHECK(cudaGetDevice(&device));
    struct shared {
        std::mutex m;
        std::unique_ptr<subgroup_staging> staging;
    };
    auto st = std::make_shared<shared>();
    auto run = [device, cfg, st](auto pts) -> uint64_t {
        using P = std::remove_cv_t<typename decltype(pts)::element_type>;
        std::lock_guard lock(st->m);
        CUZK_CUDA_CHECK(cudaSetDevice(device));
        if (!st->staging) {
            const size_t slot = std::max<size_t>(1, cfg.chunk_points) * sizeof(affine<bls12_381::g2>);
            st->staging = std::make_unique<subgroup_staging>(slot, cfg.lanes);
        }
        const gpu::stream s;
        return first_not_in_subgroup_device<typename P::group>(pts, s, *st->staging);
    };
    subgroup_batch_check c;
    c.g1 = [run](std::span<const affine<bls12_381::g1>> pts) { return run(pts); };
    c.g2 = [run](std::span<const affine<bls12_381::g2>> pts) { return run(pts); };
    return c;
}

}  // namespace cuzk::io
