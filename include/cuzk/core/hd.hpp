// SPDX-License-Identifier: MIT OR Apache-2.0
// Execution-space markers: the one place cuzk spells __host__ / __device__.
#pragma once

#if defined(__CUDACC__)
/// Marks a function callable on host and device, always inlined.
#define CUZK_HD __host__ __device__ __forceinline__
/// Marks a device-only helper, always inlined.
#define CUZK_DEVICE __device__ __forceinline__
/// Like CUZK_HD, but a call on the device: for large bodies (an Fp2 product is ~40 inlined
/// 381-bit products' worth of code per point addition) whose inlining makes nvcc take many
/// minutes per kernel. The call costs a few percent at most against the body's thousands of IMADs.
#define CUZK_HD_OUTLINE __host__ __device__ __noinline__
#else
#define CUZK_HD inline
#define CUZK_DEVICE inline
#define CUZK_HD_OUTLINE inline
#endif

/// True while nvcc compiles device code (only leaf primitives branch on it).
#if defined(__CUDA_ARCH__)
#define CUZK_DEVICE_CODE 1
#else
#define CUZK_DEVICE_CODE 0
#endif

/// Asks the compiler to unroll the next loop fully (loops over limbs).
#if defined(__CUDA_ARCH__) || defined(__clang__)
#define CUZK_UNROLL _Pragma("unroll")
#elif defined(__CUDACC__)
// nvcc's host pass: cudafe++ does not know GCC's pragma (warning 1675, once per use in every CUDA
// TU) but hands it on to gcc, which applies it.
#define CUZK_UNROLL _Pragma("nv_diag_suppress 1675") _Pragma("GCC unroll 16") _Pragma("nv_diag_default 1675")
#elif defined(__GNUC__)
#define CUZK_UNROLL _Pragma("GCC unroll 16")
#else
#define CUZK_UNROLL
#endif
