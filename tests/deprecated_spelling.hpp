// SPDX-License-Identifier: MIT OR Apache-2.0
// Included first by the GPU tests that name their configurations in the deprecated policy
// spelling (prover<C, cuda_policy<Lock, Stage, G2OnGpu>>: a cuda_prover whose options take the
// policy's values, groth16/cuda/policy_prover.cuh), which must keep compiling for one release:
// its deprecation warnings are silenced for the rest of the translation unit (the host compiler's
// and nvcc's front end's, 1215/1444: "declared deprecated").
#pragma once

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#ifdef __NVCC__
#pragma nv_diag_suppress 1215
#pragma nv_diag_suppress 1444
#endif
