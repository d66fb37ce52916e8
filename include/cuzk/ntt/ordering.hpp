// SPDX-License-Identifier: MIT OR Apache-2.0
// How NTT inputs and outputs are ordered, and whether a transform works on the coset.
// Shared by the host (ntt_host.hpp) and device (ntt_device.cuh) transforms.
#pragma once

namespace cuzk::ntt {

/// Input and output order of a transform: first letter the input, second the output;
/// n = natural, r = bit-reversed (element i stored at position bit_reverse(i, log n)).
///
/// The cheap pairs need no permutation pass: forward nr (DIF) and inverse rn (DIT), or
/// forward rn (DIT) and inverse nr (DIF). nn and rr add one bit-reversal pass.
enum class ordering { nn, nr, rn, rr };

/// Whether the evaluations live on H (none) or on the coset g·H (shifted).
/// forward(shifted): coefficients -> values at g·w^i. inverse(shifted): values at g·w^i ->
/// coefficients.
enum class coset { none, shifted };

/// True if the input of `o` is in bit-reversed order.
constexpr bool input_bit_reversed(ordering o) { return o == ordering::rn || o == ordering::rr; }
/// True if the output of `o` is in bit-reversed order.
constexpr bool output_bit_reversed(ordering o) { return o == ordering::nr || o == ordering::rr; }

}  // namespace cuzk::ntt
