// SPDX-License-Identifier: MIT OR Apache-2.0
// The front door for both snarkjs curves, compiled once here (zkey_prover.hpp declares them
// extern, so the shells that include it compile none of the proving path).
#include "cuzk/service/zkey_prover.hpp"

namespace cuzk::service {

template class zkey_prover<io::bn128>;
template class zkey_prover<io::bls12381>;

}  // namespace cuzk::service
