// SPDX-License-Identifier: MIT OR Apache-2.0
// libFuzzer target: the C API's buffer entry points (include/cuzk/c/cuzk_prover.h), which take a
// zkey and a witness from the caller's memory. The input is split at a 4-byte little-endian
// length: zkey bytes, then witness bytes. Every call must return a status code (never crash,
// leak or throw); a proof it returns must be accepted by its own key (the library verifies
// before returning, so CUZK_PROVER_OK with a proof that fails to verify would be a bug there).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "cuzk/c/cuzk_prover.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 4) return 0;
    uint32_t zkey_size = 0;
    std::memcpy(&zkey_size, data, 4);
    data += 4;
    size -= 4;
    if (zkey_size > size) zkey_size = uint32_t(size);
    const uint8_t* zkey = data;
    const uint8_t* wtns = data + zkey_size;
    const size_t wtns_size = size - zkey_size;

    char err[256];
    unsigned long long public_size = 0;
    (void)cuzk_groth16_public_size_for_zkey_buf(zkey, zkey_size, &public_size, err, sizeof err);

    std::vector<char> proof(16384), pub(16384);
    unsigned long long proof_len = proof.size(), pub_len = pub.size();
    const int rc = cuzk_groth16_prover(zkey, zkey_size, wtns, wtns_size, proof.data(), &proof_len, pub.data(), &pub_len,
                                       err, sizeof err);
    if (rc == CUZK_PROVER_OK && (proof_len == 0 || std::strlen(proof.data()) + 1 > proof.size())) std::abort();
    return 0;
}
