// SPDX-License-Identifier: MIT OR Apache-2.0
// libFuzzer target: the C API's options and the edge values of create and prove
// (include/cuzk/c/cuzk_prover.h). Each input is a recipe (recipe.hpp) for one caller:
// - a cuzk_prover_options with every field an edge value or raw bytes, placed in a heap block of
//   exactly the bytes its struct_size says the caller owns (at least the struct_size field
//   itself): ASan reports any read past what a caller built against another version owns;
// - the key (good, truncated, one byte flipped, NULL), an error buffer of 0..300 bytes, then a
//   prove with the witness (good, truncated, flipped), output buffers of edge capacities and a
//   randomness source (the OS, input bytes, a failing one).
// What must hold, from the header's contract rather than from the code: create returns OK,
// CUZK_PROVER_ERROR_INVALID_ARGUMENT or CUZK_PROVER_ERROR_NO_GPU exactly as the documented option
// ranges say (this build has no GPU backend; AUTO means the CPU); an error message is
// NUL-terminated within its buffer, which is never written past; a short output buffer is left
// untouched and the sizes needed are returned; a proof that is returned verifies against the
// prover's own key; a good witness with room for the outputs proves against the good key.
// The key and witness are fuzz_seeds' C API seed (a provable 8-row BN254 circuit): the file
// named by CUZK_FUZZ_C_API_SEED (4-byte little-endian zkey length, zkey, witness).
// This build has no OpenMP: the threads option is checked, not used.
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <vector>

#include "cuzk/c/cuzk_prover.h"
#include "recipe.hpp"

namespace {

std::vector<uint8_t> zkey_bytes, wtns_bytes;

[[noreturn]] void bug(const char* what) {
    std::fprintf(stderr, "fuzz_c_api_options: %s\n", what);
    std::abort();
}

/// A heap block of exactly n bytes (at least 1, so that it has an address), filled with `fill`:
/// ASan's redzones start right after it.
struct block {
    explicit block(size_t n, uint8_t fill = 0x5a) : size(n), p(static_cast<uint8_t*>(std::malloc(n ? n : 1))) {
        std::memset(p, fill, n ? n : 1);
    }
    ~block() { std::free(p); }
    block(const block&) = delete;
    block& operator=(const block&) = delete;
    bool untouched(uint8_t fill = 0x5a) const {
        for (size_t i = 0; i < size; ++i)
            if (p[i] != fill) return false;
        return true;
    }
    size_t size;
    uint8_t* p;
};

/// The message in an error buffer of `max` bytes: NUL-terminated inside it, or none for max 0.
void check_message(const block& err, unsigned long long max) {
    if (max == 0) {
        if (!err.untouched()) bug("an error buffer of size 0 was written");
        return;
    }
    if (!std::memchr(err.p, 0, size_t(max))) bug("the error message is not NUL-terminated within its buffer");
}

/// What create must return for these options, from the header's ranges alone.
int expected_create(const cuzk_prover_options* o) {
    if (!o) return CUZK_PROVER_OK;
    if (o->struct_size != sizeof(cuzk_prover_options)) return CUZK_PROVER_ERROR_INVALID_ARGUMENT;
    if (o->backend < CUZK_PROVER_BACKEND_AUTO || o->backend > CUZK_PROVER_BACKEND_GPU)
        return CUZK_PROVER_ERROR_INVALID_ARGUMENT;
    if (o->verify != 0 && o->verify != 1) return CUZK_PROVER_ERROR_INVALID_ARGUMENT;
    if (o->threads > CUZK_PROVER_MAX_THREADS) return CUZK_PROVER_ERROR_INVALID_ARGUMENT;
    if (o->gpu_device < 0) return CUZK_PROVER_ERROR_INVALID_ARGUMENT;
    if (o->backend == CUZK_PROVER_BACKEND_GPU) return CUZK_PROVER_ERROR_NO_GPU;
    return CUZK_PROVER_OK;
}

struct random_source {
    std::vector<uint8_t> bytes;  // cycled; empty: all zero
    bool fail = false;
    size_t at = 0;
};

extern "C" int fuzz_random(void* ctx, unsigned char* out, size_t len) {
    auto* r = static_cast<random_source*>(ctx);
    if (r->fail) return 1;
    for (size_t i = 0; i < len; ++i) out[i] = r->bytes.empty() ? 0 : r->bytes[r->at++ % r->bytes.size()];
    return 0;
}

/// A copy of `good` cut short or with one byte flipped, as the recipe says; `intact` tells.
std::vector<uint8_t> variant(fuzz::recipe& in, const std::vector<uint8_t>& good, bool& intact) {
    std::vector<uint8_t> v = good;
    intact = false;
    switch (in.byte() % 4) {
        case 1: v.resize(in.take<uint32_t>() % (good.size() + 1)); break;
        case 2: v[in.take<uint32_t>() % v.size()] ^= uint8_t(1u << (in.byte() % 8)); break;
        case 3: v.push_back(in.byte()); break;  // bytes after the last section
        default: intact = true;
    }
    return v;
}

/// room: the prover's own bounds on the two texts (get_info's proof_size and public_size).
/// key_intact: the prover's key is the seed's own. A key with a flipped byte that create accepted
/// is a different, well-formed key (a changed coefficient is another circuit), so a good witness
/// may fail against it; what must hold whatever the key is that no unverified proof comes back.
void prove_with(fuzz::recipe& in, cuzk_prover* prover, bool verify_on, bool key_intact, const cuzk_prover_info& room) {
    bool witness_intact = false;
    const std::vector<uint8_t> wtns = variant(in, wtns_bytes, witness_intact);
    const bool intact = witness_intact && key_intact;
    const unsigned long long proof_cap =
        in.pick<unsigned long long>({room.proof_size, 0, 1, room.proof_size - 1, 16384}) % 65536;
    const unsigned long long public_cap =
        in.pick<unsigned long long>({room.public_size, 0, 1, room.public_size - 1, 16384}) % 65536;
    const unsigned long long err_max = in.pick<uint16_t>({256, 0, 1, 2}) % 301;
    block proof{size_t(proof_cap)}, pub{size_t(public_cap)}, err{size_t(err_max)};
    random_source rnd;
    const uint8_t how = in.byte() % 4;  // 0: the OS, 1: input bytes, 2: all zero, 3: a failing source
    if (how == 1) {
        const auto b = in.bytes(64);
        rnd.bytes.assign(b.begin(), b.end());
    }
    rnd.fail = how == 3;
    unsigned long long ps = proof_cap, us = public_cap;
    const int rc = cuzk_groth16_prover_prove_with_random(prover, wtns.data(), wtns.size(), how ? fuzz_random : nullptr,
                                                         &rnd, reinterpret_cast<char*>(proof.p), &ps,
                                                         reinterpret_cast<char*>(pub.p), &us,
                                                         reinterpret_cast<char*>(err.p), err_max);
    check_message(err, err_max);
    if (rc == CUZK_PROVER_ERROR_SHORT_BUFFER) {
        if (!proof.untouched() || !pub.untouched()) bug("a short buffer was written");
        if (ps <= proof_cap && us <= public_cap) bug("SHORT_BUFFER, yet both buffers hold the sizes it asks for");
        return;
    }
    if (rc != CUZK_PROVER_OK) {
        if (!proof.untouched() || !pub.untouched()) bug("an output buffer was written on an error");
        // A good witness fails only for want of room or of randomness.
        if (intact && how < 2 && proof_cap >= room.proof_size && public_cap >= room.public_size &&
            rc != CUZK_PROVER_ERROR_RANDOMNESS)
            bug("a good witness with room for its outputs failed");
        return;
    }
    if (ps >= proof_cap || us >= public_cap || proof.p[ps] != 0 || pub.p[us] != 0 ||
        std::strlen(reinterpret_cast<char*>(proof.p)) != ps || std::strlen(reinterpret_cast<char*>(pub.p)) != us)
        bug("OK, but the sizes are not the texts' lengths inside their buffers");
    if (err_max > 0 && err.p[0] != 0) bug("OK, but the error message is not empty");
    char verr[256];
    const int v = cuzk_groth16_prover_verify(prover, reinterpret_cast<char*>(proof.p), reinterpret_cast<char*>(pub.p),
                                             verr, sizeof verr);
    // Unverified proofs of a changed witness may be invalid; every other returned proof is valid.
    if (v != CUZK_VERIFIER_VALID_PROOF && (verify_on || intact)) bug("a returned proof does not verify");
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    const char* seed = std::getenv("CUZK_FUZZ_C_API_SEED");
    std::ifstream f(seed ? seed : "", std::ios::binary);
    const std::vector<uint8_t> b{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
    uint32_t n = 0;
    if (b.size() >= 4) std::memcpy(&n, b.data(), 4);
    if (b.size() < 4 || n == 0 || n >= b.size() - 4) {
        std::fprintf(stderr,
                     "fuzz_c_api_options: set CUZK_FUZZ_C_API_SEED to fuzz_seeds' c_api/bn128.bin (a key and a "
                     "witness)\n");
        std::exit(2);
    }
    zkey_bytes.assign(b.begin() + 4, b.begin() + 4 + n);
    wtns_bytes.assign(b.begin() + 4 + n, b.end());
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fuzz::recipe in(data, size);
    cuzk_prover_options o;
    cuzk_prover_options_init(&o);
    constexpr unsigned full = sizeof(cuzk_prover_options);
    o.struct_size = in.pick<unsigned>({full, 0, 4, 20, full - 8, full - 1, full + 1, full + 8, UINT_MAX});
    o.backend = in.pick<int>({CUZK_PROVER_BACKEND_CPU, CUZK_PROVER_BACKEND_AUTO, CUZK_PROVER_BACKEND_GPU, -1, 3,
                              INT_MIN, INT_MAX});
    o.verify = in.pick<int>({1, 0, 2, -1});
    o.threads = in.pick<unsigned>({0, 1, 2, CUZK_PROVER_MAX_THREADS, CUZK_PROVER_MAX_THREADS + 1, 100000, INT_MAX,
                                   unsigned(INT_MAX) + 1, UINT_MAX});
    o.gpu_device = in.pick<int>({0, 1, -1, INT_MAX, INT_MIN});
    o.vram_budget_bytes = in.pick<unsigned long long>({0, 1, ~0ull});
    o.max_concurrent_proofs = in.pick<unsigned>({0, 1, UINT_MAX});
    const bool null_options = in.byte() % 8 == 7;

    // The bytes the caller owns: what its struct_size says (a smaller, older struct), never less
    // than the struct_size field, and for a claimed size above ours our struct and some more.
    const size_t owned = o.struct_size < 4 ? 4 : o.struct_size > full + 64 ? full + 64 : o.struct_size;
    block opts{owned, 0};
    std::memcpy(opts.p, &o, owned < full ? owned : full);
    const auto* given = null_options ? nullptr : reinterpret_cast<const cuzk_prover_options*>(opts.p);
    // What a caller's struct of `owned` bytes says: the fields it holds (the rest are not its own).
    cuzk_prover_options seen = o;
    if (owned < full) std::memset(reinterpret_cast<uint8_t*>(&seen) + owned, 0, full - owned);

    bool key_intact = false;
    const std::vector<uint8_t> zkey = variant(in, zkey_bytes, key_intact);
    const bool null_key = in.byte() % 16 == 15;
    const unsigned long long err_max = in.pick<uint16_t>({256, 0, 1, 2, 16}) % 301;
    block err{size_t(err_max)};
    cuzk_prover* prover = reinterpret_cast<cuzk_prover*>(&err);  // create must set it, to NULL on failure
    const int rc = cuzk_groth16_prover_create_with_options(&prover, null_key ? nullptr : zkey.data(), zkey.size(),
                                                           given, reinterpret_cast<char*>(err.p), err_max);
    check_message(err, err_max);
    const int want = expected_create(given ? &seen : nullptr);
    if (rc == CUZK_PROVER_OK) {
        if (!prover) bug("create returned OK and no prover");
    } else if (prover) {
        bug("a failed create left *prover set");
    }
    // Options are checked before the key is read: bad options give their error whatever the key.
    if (want != CUZK_PROVER_OK && rc != want) bug("create's status is not the one the option ranges give");
    if (want == CUZK_PROVER_OK && key_intact && !null_key && rc != CUZK_PROVER_OK)
        bug("valid options and a good key were refused");
    if (want == CUZK_PROVER_OK && null_key && rc != CUZK_PROVER_ERROR_INVALID_ARGUMENT)
        bug("a NULL key was not refused as an invalid argument");
    if (rc != CUZK_PROVER_OK) return 0;

    cuzk_prover_info room{};
    room.struct_size = sizeof room;
    if (cuzk_groth16_prover_get_info(prover, &room, nullptr, 0) != CUZK_PROVER_OK) bug("get_info failed");
    if (err_max > 0 && err.p[0] != 0) bug("create returned OK, but the error message is not empty");
    cuzk_prover_info info{};
    info.struct_size = in.pick<unsigned>({unsigned(sizeof info), 0, unsigned(sizeof info) - 8, UINT_MAX});
    char ierr[64];
    const int irc = cuzk_groth16_prover_get_info(prover, &info, ierr, sizeof ierr);
    if ((irc == CUZK_PROVER_OK) != (info.struct_size == sizeof info)) bug("get_info's struct_size check");
    if (irc == CUZK_PROVER_OK && info.backend != CUZK_PROVER_BACKEND_CPU) bug("a prover without a GPU is not on the CPU");
    const bool verify_on = given == nullptr || seen.verify == 1;
    for (int k = 0, n = 1 + in.byte() % 2; k < n; ++k) prove_with(in, prover, verify_on, key_intact, room);
    cuzk_groth16_prover_destroy(prover);
    return 0;
}
