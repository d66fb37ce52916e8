// libcuzk_prover: the C entry points of include/cuzk/c/cuzk_prover.h over cuzk's Groth16 prover.
//
// A resident prover holds the zkey as a groth16::proving_key (points moved out of the reader, no
// second copy) plus the zkey's coefficients by row (io::abc_rows, built once at load), and proves
// a witness in four steps:
//   1. read the .wtns bytes (curve and length checked against the key),
//   2. a | b | c on the domain from the coefficients (io::abc_rows::evaluate, in parallel by rows:
//      snarkjs keys hold no C matrix, so nothing here can check the constraints),
//   3. the proof on the CPU (groth16::prover<Curve>) or the GPU (gpu_prover, gpu_cuda.cu),
//   4. the proof checked against the key's verifying key (groth16::verify_verdict): this is
//      where a witness that does not satisfy the circuit is caught,
// then proof.json and public.json as snarkjs writes them (io/snarkjs_json.hpp).
// Every entry point catches everything and returns a code plus a message.
#include <algorithm>
#include <climits>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "cuzk/c/cuzk_prover.h"

#if defined(_OPENMP)
#include <omp.h>
#endif

#include "cuzk/core/error.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/binfile.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/io/snarkjs_json.hpp"
#include "cuzk/io/wtns.hpp"
#include "cuzk/io/zkey.hpp"
#include "cuzk/io/zkey_groth16.hpp"
#include "engine.hpp"
#include "verify.hpp"

#ifndef CUZK_PROVER_VERSION_STRING
#error "CUZK_PROVER_VERSION_STRING must be defined by the build (src/c_api/CMakeLists.txt)"
#endif
#ifndef CUZK_PROVER_CUDA_ARCH
#define CUZK_PROVER_CUDA_ARCH "none"
#endif

namespace cuzk::c_api {
namespace {

// ---- messages and codes ---------------------------------------------------------------------

/// Copies msg into the caller's buffer, NUL-terminated and truncated to fit (nothing if none).
void put_message(char* buf, unsigned long long max, std::string_view msg) {
    if (!buf || max == 0) return;
    const size_t n = size_t(std::min<unsigned long long>(msg.size(), max - 1));
    std::memcpy(buf, msg.data(), n);
    buf[n] = '\0';
}

/// Runs body (which returns a code and may write a message on its own) and turns every exception
/// into a code and a message: nothing escapes into C.
template <class Body>
int guarded(char* err, unsigned long long err_max, Body&& body) noexcept {
    try {
        put_message(err, err_max, "");
        return body();
    } catch (const failure& e) {
        put_message(err, err_max, e.what());
        return e.code();
    } catch (const std::bad_alloc&) {
        put_message(err, err_max, "out of host memory");
        return CUZK_PROVER_ERROR_OUT_OF_MEMORY;
    } catch (const cuzk::invalid_argument& e) {
        put_message(err, err_max, e.what());
        return CUZK_PROVER_ERROR_INVALID_ARGUMENT;
    } catch (const std::exception& e) {
        put_message(err, err_max, e.what());
        return CUZK_PROVER_ERROR;
    } catch (...) {
        put_message(err, err_max, "unknown error");
        return CUZK_PROVER_ERROR;
    }
}

[[noreturn]] void null_argument(const char* name) {
    throw failure(CUZK_PROVER_ERROR_INVALID_ARGUMENT, std::string(name) + " is NULL");
}

/// Runs a reader of `what` and gives its errors the reader's code: decode_error -> bad_input,
/// any other cuzk::error (open or read failure) -> CUZK_PROVER_ERROR_IO.
template <class Read>
auto reading(int bad_input, Read&& read) {
    try {
        return read();
    } catch (const decode_error& e) {
        throw failure(bad_input, e.what());
    } catch (const failure&) {
        throw;
    } catch (const cuzk::invalid_argument& e) {
        throw failure(bad_input, e.what());
    } catch (const cuzk::error& e) {
        throw failure(CUZK_PROVER_ERROR_IO, e.what());
    }
}

// ---- curves and sizes -----------------------------------------------------------------------

template <class IoCurve>
constexpr unsigned curve_id() {
    return std::is_same_v<IoCurve, io::bn128> ? CUZK_PROVER_CURVE_BN254 : CUZK_PROVER_CURVE_BLS12_381;
}

/// True when n8 bytes of a prime in a file header are F's modulus.
template <class F>
bool is_modulus(std::span<const uint8_t> prime) {
    if (prime.size() != io::n8_of<F>) return false;
    for (size_t i = 0; i < prime.size(); ++i)
        if (prime[i] != uint8_t(F::modulus.limb[i / 8] >> (8 * (i % 8)))) return false;
    return true;
}

/// The curve of a zkey (CUZK_PROVER_CURVE_*) from the base-field prime of its header; throws
/// decode_error for a malformed file or another prime.
unsigned zkey_curve(const io::binfile& f) {
    auto r = f.reader(2);
    const uint32_t n8q = r.u32();
    if (n8q != 32 && n8q != 48)
        throw r.fail("base field of " + std::to_string(n8q) + " bytes is neither BN254's nor BLS12-381's");
    const std::vector<uint8_t> q = r.bytes(n8q);
    if (is_modulus<bn254::fq>(q)) return CUZK_PROVER_CURVE_BN254;
    if (is_modulus<bls12_381::fp>(q)) return CUZK_PROVER_CURVE_BLS12_381;
    throw r.fail("base field prime is neither BN254's nor BLS12-381's");
}

/// The curve a .wtns is for (CUZK_PROVER_CURVE_*), or 0 when its header names neither curve's
/// scalar field (io::wtns::read then says what is wrong).
unsigned wtns_curve(std::span<const uint8_t> bytes) {
    try {
        io::binfile f(std::make_shared<io::memory_source>(bytes, "wtns buffer"), "wtns", 2);
        auto r = f.reader(1);
        const uint32_t n8 = r.u32();
        if (n8 != 32) return 0;  // both curves' r have 32 bytes
        const std::vector<uint8_t> p = r.bytes(n8);
        if (is_modulus<bn254::fr>(p)) return CUZK_PROVER_CURVE_BN254;
        if (is_modulus<bls12_381::fr>(p)) return CUZK_PROVER_CURVE_BLS12_381;
    } catch (const decode_error&) {
    }
    return 0;
}

const char* curve_label(unsigned id) { return id == CUZK_PROVER_CURVE_BN254 ? "BN254" : "BLS12-381"; }
const char* curve_snarkjs_name(unsigned id) { return id == CUZK_PROVER_CURVE_BN254 ? "bn128" : "bls12381"; }

/// Decimal digits of the largest value below F's modulus.
template <class F>
size_t max_digits() {
    return io::to_decimal(F::modulus).size();
}

/// Bytes (with the NUL) that hold any proof.json of the curve: the writer's layout
/// (io::proof_to_json) with every coordinate at its widest.
template <class IoCurve>
unsigned long long proof_json_bound() {
    using io::json::value;
    auto s = [](std::string t) { return value::make_string(std::move(t)); };
    const std::string q(max_digits<typename IoCurve::fq>(), '9');
    auto g1 = [&] { return value::make_array({s(q), s(q), s("1")}); };
    auto fq2 = [&] { return value::make_array({s(q), s(q)}); };
    value root = value::make_object();
    root.add("pi_a", g1());
    root.add("pi_b", value::make_array({fq2(), fq2(), value::make_array({s("1"), s("0")})}));
    root.add("pi_c", g1());
    root.add("protocol", s("groth16"));
    root.add("curve", s(std::string(IoCurve::snarkjs_name)));
    return io::json::write(root).size() + 1;
}

/// Bytes (with the NUL) that hold any public.json with n_public signals: the length of what
/// io::json::write makes of n strings of max_digits digits ("[]", or "[\n \"d..d\",\n ...\n]":
/// per signal a newline, an indent, the quoted digits and a comma but the last), counted and not
/// built, since a hostile header may claim 2^32 - 1 signals.
template <class IoCurve>
unsigned long long public_json_bound(size_t n_public) {
    const unsigned long long digits = max_digits<typename IoCurve::fr>();
    const unsigned long long text = n_public == 0 ? 2 : n_public * (digits + 5) + 2;
    return text + 1;
}

unsigned long long public_json_bound(unsigned curve, size_t n_public) {
    return curve == CUZK_PROVER_CURVE_BN254 ? public_json_bound<io::bn128>(n_public)
                                            : public_json_bound<io::bls12381>(n_public);
}

/// nPublic from a zkey's header (sections 1 and 2 only, as rapidsnark's size queries).
template <class IoCurve>
uint32_t zkey_n_public(const io::binfile& f) {
    {
        auto r = f.reader(1);
        if (const uint32_t protocol = r.u32(); protocol != 1)
            throw r.fail("protocol " + std::to_string(protocol) + " is not supported, only 1 (Groth16)");
    }
    auto r = f.reader(2);
    io::read_field_header<typename IoCurve::fq>(r, "base field (q)");
    io::read_field_header<typename IoCurve::fr>(r, "scalar field (r)");
    (void)r.u32();  // nVars
    return r.u32();
}

unsigned long long public_size_of(std::shared_ptr<const io::byte_source> src) {
    return reading(CUZK_PROVER_ERROR_INVALID_ZKEY, [&] {
        io::binfile f(std::move(src), "zkey", 1, &io::zkey<io::bn128>::section_name);
        const unsigned curve = zkey_curve(f);
        const uint32_t np = curve == CUZK_PROVER_CURVE_BN254 ? zkey_n_public<io::bn128>(f)
                                                             : zkey_n_public<io::bls12381>(f);
        return public_json_bound(curve, np);
    });
}

// ---- options ----------------------------------------------------------------------------------

cuzk_prover_options default_options() {
    cuzk_prover_options o{};
    o.struct_size = sizeof(cuzk_prover_options);
    o.backend = CUZK_PROVER_BACKEND_AUTO;
    o.verify = 1;
    o.threads = 0;
    o.gpu_device = 0;
    o.vram_budget_bytes = 0;
    o.max_concurrent_proofs = 0;
    return o;
}

cuzk_prover_options checked_options(const cuzk_prover_options* o) {
    if (!o) return default_options();
    auto bad = [](const std::string& what) { return failure(CUZK_PROVER_ERROR_INVALID_ARGUMENT, "options: " + what); };
    if (o->struct_size != sizeof(cuzk_prover_options))
        throw bad("struct_size is " + std::to_string(o->struct_size) + ", expected " +
                  std::to_string(sizeof(cuzk_prover_options)) + " (initialise with cuzk_prover_options_init)");
    if (o->backend != CUZK_PROVER_BACKEND_AUTO && o->backend != CUZK_PROVER_BACKEND_CPU &&
        o->backend != CUZK_PROVER_BACKEND_GPU)
        throw bad("backend " + std::to_string(o->backend) + " is none of CUZK_PROVER_BACKEND_AUTO, _CPU, _GPU");
    if (o->verify != 0 && o->verify != 1) throw bad("verify must be 0 or 1, not " + std::to_string(o->verify));
    if (o->gpu_device < 0) throw bad("gpu_device must not be negative");
    return *o;
}

// ---- per-proof scopes -----------------------------------------------------------------------

/// The OpenMP thread count of the calling thread for one proof, restored afterwards (the count
/// is per thread, so concurrent proofs on other threads are unaffected).
class thread_count_scope {
public:
    explicit thread_count_scope(unsigned threads) {
#if defined(_OPENMP)
        if (threads > 0) {
            saved_ = omp_get_max_threads();
            omp_set_num_threads(int(std::min<unsigned>(threads, INT_MAX)));
        }
#else
        (void)threads;
#endif
    }
    ~thread_count_scope() {
#if defined(_OPENMP)
        if (saved_ > 0) omp_set_num_threads(saved_);
#endif
    }
    thread_count_scope(const thread_count_scope&) = delete;
    thread_count_scope& operator=(const thread_count_scope&) = delete;

private:
    int saved_ = 0;
};

/// At most `limit` proofs at once (0: no limit); the others wait their turn.
class proof_slots {
public:
    explicit proof_slots(unsigned limit) : limit_(limit) {}

    class slot {
    public:
        explicit slot(proof_slots& s) : s_(s) {
            if (!s_.limit_) return;
            std::unique_lock lock(s_.m_);
            s_.cv_.wait(lock, [&] { return s_.in_flight_ < s_.limit_; });
            ++s_.in_flight_;
        }
        ~slot() {
            if (!s_.limit_) return;
            {
                std::lock_guard lock(s_.m_);
                --s_.in_flight_;
            }
            s_.cv_.notify_one();
        }
        slot(const slot&) = delete;
        slot& operator=(const slot&) = delete;

    private:
        proof_slots& s_;
    };

private:
    unsigned limit_;
    unsigned in_flight_ = 0;
    std::mutex m_;
    std::condition_variable cv_;
};

// ---- the resident prover ------------------------------------------------------------------

/// proof.json and public.json of one proof.
struct proof_texts {
    std::string proof, pub;
};

/// A resident prover of either curve, behind the opaque C handle.
class resident_base {
public:
    virtual ~resident_base() = default;
    virtual proof_texts prove(std::span<const uint8_t> wtns, random_source& rng) = 0;
    virtual void info(cuzk_prover_info& out) const = 0;
    virtual verify_outcome verify(std::string_view proof_json, std::string_view public_json) const = 0;
};

template <class IoCurve>
class resident final : public resident_base {
public:
    using curve = io::groth16_curve_t<IoCurve>;
    using fr = typename curve::fr;

    resident(io::zkey<IoCurve>&& z, const cuzk_prover_options& o)
        : opt_(o),
          n_vars_(z.n_vars),
          n_public_(z.n_public),
          domain_size_(z.domain_size),
          rows_(reading(CUZK_PROVER_ERROR_INVALID_ZKEY,
                        [&] { return io::abc_rows<fr>(z.coeffs, z.domain_size, z.n_vars); })),
          pk_(std::make_shared<const groth16::proving_key<curve>>(io::to_proving_key(std::move(z)))),
          cpu_(pk_),
          slots_(o.max_concurrent_proofs) {
        std::vector<io::zkey_coefficient<fr>>().swap(z.coeffs);  // rows_ holds them now
        const gpu_settings gs{o.gpu_device, size_t(o.vram_budget_bytes), size_t(o.max_concurrent_proofs)};
        if (o.backend == CUZK_PROVER_BACKEND_GPU) {
            gpu_ = make_gpu_prover<curve>(pk_, gs);
        } else if (o.backend == CUZK_PROVER_BACKEND_AUTO && gpu_backend_compiled()) {
            if (gpu_device_count() > 0) {
                try {
                    gpu_ = make_gpu_prover<curve>(pk_, gs);
                } catch (const std::exception& e) {
                    note_ = std::string("GPU not used, proving on the CPU: ") + e.what();
                }
            } else {
                note_ = "no CUDA device is present: proving on the CPU";
            }
        }
        if (gpu_ && note_.empty()) note_ = gpu_->note();
    }

    proof_texts prove(std::span<const uint8_t> bytes, random_source& rng) override {
        proof_slots::slot slot(slots_);  // first: the witness's memory counts too
        thread_count_scope threads(opt_.threads);
        constexpr unsigned mine = curve_id<IoCurve>();
        if (const unsigned other = wtns_curve(bytes); other != 0 && other != mine)
            throw failure(CUZK_PROVER_ERROR_CURVE_MISMATCH, std::string("the witness is for ") + curve_label(other) +
                                                                " (its field prime), the key for " + curve_label(mine));
        const io::wtns<IoCurve> w = reading(CUZK_PROVER_ERROR_INVALID_WITNESS, [&] {
            return io::wtns<IoCurve>::read(std::make_shared<io::memory_source>(bytes, "wtns buffer"));
        });
        if (w.values.size() != n_vars_)
            throw failure(CUZK_PROVER_INVALID_WITNESS_LENGTH,
                          "Invalid witness length. Circuit: " + std::to_string(n_vars_) +
                              ", witness: " + std::to_string(w.values.size()));
        std::vector<fr> abc = rows_.evaluate(w.values);
        const groth16::proof<curve> pi = gpu_ ? gpu_->prove_from_abc(w.values, std::move(abc), rng)
                                              : cpu_.prove_from_abc(w.values, std::move(abc), rng);
        const std::span<const fr> publics(w.values.data() + 1, n_public_);
        if (opt_.verify) {
            // The zkey holds no C matrix, so the witness cannot be checked before proving; the
            // pairing check of the result is the check (a few ms next to the proof).
            const groth16::verdict v = groth16::verify_verdict(pk_->vk, publics, pi);
            if (v != groth16::verdict::ok)
                throw failure(CUZK_PROVER_ERROR_VERIFY_FAILED,
                              std::string("the proof does not verify against the key's verifying key (") +
                                  groth16::to_string(v) +
                                  "): the witness does not satisfy the circuit; no proof was written");
        }
        return {io::proof_to_json<IoCurve>(io::from_groth16<IoCurve>(pi)), io::public_to_json<IoCurve>(publics)};
    }

    verify_outcome verify(std::string_view proof_json, std::string_view public_json) const override {
        return verify_texts<IoCurve>(pk_->vk, proof_json, public_json);
    }

    void info(cuzk_prover_info& out) const override {
        using g1 = affine<typename curve::g1>;
        using g2 = affine<typename curve::g2>;
        const auto& pk = *pk_;
        out.curve = curve_id<IoCurve>();
        out.curve_name = curve_snarkjs_name(out.curve);
        out.backend = gpu_ ? CUZK_PROVER_BACKEND_GPU : CUZK_PROVER_BACKEND_CPU;
        out.verify = opt_.verify;
        out.threads = opt_.threads;
        out.max_concurrent_proofs = opt_.max_concurrent_proofs;
        out.n_vars = n_vars_;
        out.n_public = n_public_;
        out.domain_size = domain_size_;
        out.proof_size = proof_json_bound<IoCurve>();
        out.public_size = public_json_bound<IoCurve>(n_public_);
        out.host_key_bytes = (pk.a.size() + pk.b_g1.size() + pk.l.size() + pk.h.size() + pk.vk.ic.size()) * sizeof(g1) +
                             pk.b_g2.size() * sizeof(g2) + rows_.bytes();
        // The witness, a | b | c, and the largest split-off MSM input (msm_witness_host copies
        // the points and scalars that are neither 0 nor 1; B2's are the widest).
        const size_t nv = n_vars_;
        out.host_proof_bytes = (nv + 3 * size_t(domain_size_)) * sizeof(fr) +
                               (gpu_ ? 0 : nv * (std::max(sizeof(g1), sizeof(g2)) + sizeof(fr)));
        out.gpu_device = gpu_ ? opt_.gpu_device : -1;
        out.key_resident_on_gpu = gpu_ && gpu_->key_resident();
        out.vram_budget_bytes = gpu_ ? gpu_->vram_budget_bytes() : 0;
        out.device_key_bytes = gpu_ ? gpu_->device_key_bytes() : 0;
        out.device_proof_bytes = gpu_ ? gpu_->device_proof_bytes() : 0;
        out.note = note_.c_str();
    }

private:
    cuzk_prover_options opt_;
    uint32_t n_vars_, n_public_, domain_size_;
    io::abc_rows<fr> rows_;
    std::shared_ptr<const groth16::proving_key<curve>> pk_;
    groth16::prover<curve> cpu_;
    std::unique_ptr<gpu_prover<curve>> gpu_;
    std::string note_;
    proof_slots slots_;
};

/// Reads a zkey (curve from its header) into a resident prover.
std::unique_ptr<resident_base> load(std::shared_ptr<const io::byte_source> src, const cuzk_prover_options& o) {
    const unsigned curve = reading(CUZK_PROVER_ERROR_INVALID_ZKEY, [&] {
        return zkey_curve(io::binfile(src, "zkey", 1, &io::zkey<io::bn128>::section_name));
    });
    auto make = [&]<class IoCurve>() -> std::unique_ptr<resident_base> {
        auto z = reading(CUZK_PROVER_ERROR_INVALID_ZKEY, [&] { return io::zkey<IoCurve>::read(src); });
        return std::make_unique<resident<IoCurve>>(std::move(z), o);
    };
    return curve == CUZK_PROVER_CURVE_BN254 ? make.template operator()<io::bn128>()
                                            : make.template operator()<io::bls12381>();
}

std::shared_ptr<const io::byte_source> zkey_buffer_source(const void* p, unsigned long long n, const char* name) {
    if (!p) null_argument(name);
    return std::make_shared<io::memory_source>(std::span<const uint8_t>(static_cast<const uint8_t*>(p), size_t(n)),
                                               "zkey buffer");
}

std::shared_ptr<const io::byte_source> zkey_file_source(const char* path) {
    if (!path) null_argument("zkey_file_path");
    return reading(CUZK_PROVER_ERROR_INVALID_ZKEY, [&] { return std::make_shared<io::file_source>(path); });
}

/// Copies the texts into the caller's buffers under rapidsnark's rules (see the header).
int write_outputs(const proof_texts& t, char* proof_buffer, unsigned long long* proof_size, char* public_buffer,
                  unsigned long long* public_size, char* err, unsigned long long err_max) {
    const unsigned long long need_proof = t.proof.size() + 1, need_public = t.pub.size() + 1;
    if (*proof_size < need_proof || *public_size < need_public) {
        char msg[256];
        std::snprintf(msg, sizeof msg,
                      "buffer too small: proof needs %llu bytes (given %llu), public needs %llu bytes (given %llu)",
                      need_proof, *proof_size, need_public, *public_size);
        *proof_size = need_proof;
        *public_size = need_public;
        put_message(err, err_max, msg);
        return CUZK_PROVER_ERROR_SHORT_BUFFER;
    }
    std::memcpy(proof_buffer, t.proof.c_str(), need_proof);
    std::memcpy(public_buffer, t.pub.c_str(), need_public);
    *proof_size = t.proof.size();
    *public_size = t.pub.size();
    return CUZK_PROVER_OK;
}

void check_outputs(const char* proof_buffer, const unsigned long long* proof_size, const char* public_buffer,
                   const unsigned long long* public_size) {
    if (!proof_buffer) null_argument("proof_buffer");
    if (!proof_size) null_argument("proof_size");
    if (!public_buffer) null_argument("public_buffer");
    if (!public_size) null_argument("public_size");
}

}  // namespace
}  // namespace cuzk::c_api

/// The opaque handle of the C interface.
struct cuzk_prover {
    std::unique_ptr<cuzk::c_api::resident_base> impl;
};

cuzk::c_api::verify_outcome cuzk::c_api::verify_with_prover_key(const cuzk_prover* prover, std::string_view proof_json,
                                                                 std::string_view public_json) {
    if (!prover->impl) throw cuzk::invalid_argument("prover is not initialised");
    return prover->impl->verify(proof_json, public_json);
}

using namespace cuzk::c_api;

namespace {

int create(cuzk_prover** prover, std::shared_ptr<const cuzk::io::byte_source> (*open)(const void*, unsigned long long),
           const void* a, unsigned long long b, const cuzk_prover_options* options, char* err,
           unsigned long long err_max) {
    if (prover) *prover = nullptr;
    return guarded(err, err_max, [&] {
        if (!prover) null_argument("prover");
        const cuzk_prover_options o = checked_options(options);
        auto h = std::make_unique<cuzk_prover>();
        h->impl = load(open(a, b), o);
        *prover = h.release();
        return CUZK_PROVER_OK;
    });
}

std::shared_ptr<const cuzk::io::byte_source> open_buffer(const void* p, unsigned long long n) {
    return zkey_buffer_source(p, n, "zkey_buffer");
}
std::shared_ptr<const cuzk::io::byte_source> open_file(const void* path, unsigned long long) {
    return zkey_file_source(static_cast<const char*>(path));
}

int prove(cuzk_prover* prover, const void* wtns, unsigned long long wtns_size, cuzk_random_fn random, void* random_ctx,
          char* proof_buffer, unsigned long long* proof_size, char* public_buffer, unsigned long long* public_size,
          char* err, unsigned long long err_max) {
    return guarded(err, err_max, [&] {
        if (!prover || !prover->impl) null_argument("prover");
        if (!wtns) null_argument("wtns_buffer");
        check_outputs(proof_buffer, proof_size, public_buffer, public_size);
        random_source rng(random, random_ctx);
        const proof_texts t = prover->impl->prove(
            std::span<const uint8_t>(static_cast<const uint8_t*>(wtns), size_t(wtns_size)), rng);
        return write_outputs(t, proof_buffer, proof_size, public_buffer, public_size, err, err_max);
    });
}

/// The one-shot calls: a prover with the default options for one proof.
int one_shot(std::shared_ptr<const cuzk::io::byte_source> (*open)(const void*, unsigned long long), const void* a,
             unsigned long long b, const void* wtns, unsigned long long wtns_size, char* proof_buffer,
             unsigned long long* proof_size, char* public_buffer, unsigned long long* public_size, char* err,
             unsigned long long err_max) {
    // The arguments are checked before the key is read, so that a NULL costs no zkey read.
    const int rc = guarded(err, err_max, [&] {
        if (!wtns) null_argument("wtns_buffer");
        check_outputs(proof_buffer, proof_size, public_buffer, public_size);
        return CUZK_PROVER_OK;
    });
    if (rc != CUZK_PROVER_OK) return rc;
    cuzk_prover* p = nullptr;
    if (int c = create(&p, open, a, b, nullptr, err, err_max); c != CUZK_PROVER_OK) return c;
    const int c = prove(p, wtns, wtns_size, nullptr, nullptr, proof_buffer, proof_size, public_buffer, public_size, err,
                        err_max);
    cuzk_groth16_prover_destroy(p);
    return c;
}

}  // namespace

extern "C" {

CUZK_PROVER_API const char* cuzk_prover_error_name(int code) {
    switch (code) {
        case CUZK_PROVER_OK: return "CUZK_PROVER_OK";
        case CUZK_PROVER_ERROR: return "CUZK_PROVER_ERROR";
        case CUZK_PROVER_ERROR_SHORT_BUFFER: return "CUZK_PROVER_ERROR_SHORT_BUFFER";
        case CUZK_PROVER_INVALID_WITNESS_LENGTH: return "CUZK_PROVER_INVALID_WITNESS_LENGTH";
        case CUZK_PROVER_ERROR_INVALID_ARGUMENT: return "CUZK_PROVER_ERROR_INVALID_ARGUMENT";
        case CUZK_PROVER_ERROR_INVALID_ZKEY: return "CUZK_PROVER_ERROR_INVALID_ZKEY";
        case CUZK_PROVER_ERROR_INVALID_WITNESS: return "CUZK_PROVER_ERROR_INVALID_WITNESS";
        case CUZK_PROVER_ERROR_CURVE_MISMATCH: return "CUZK_PROVER_ERROR_CURVE_MISMATCH";
        case CUZK_PROVER_ERROR_VERIFY_FAILED: return "CUZK_PROVER_ERROR_VERIFY_FAILED";
        case CUZK_PROVER_ERROR_NO_GPU: return "CUZK_PROVER_ERROR_NO_GPU";
        case CUZK_PROVER_ERROR_IO: return "CUZK_PROVER_ERROR_IO";
        case CUZK_PROVER_ERROR_GPU: return "CUZK_PROVER_ERROR_GPU";
        case CUZK_PROVER_ERROR_OUT_OF_MEMORY: return "CUZK_PROVER_ERROR_OUT_OF_MEMORY";
        case CUZK_PROVER_ERROR_RANDOMNESS: return "CUZK_PROVER_ERROR_RANDOMNESS";
    }
    return "unknown";
}

CUZK_PROVER_API const char* cuzk_prover_error_string(int code) {
    switch (code) {
        case CUZK_PROVER_OK: return "success";
        case CUZK_PROVER_ERROR: return "error";
        case CUZK_PROVER_ERROR_SHORT_BUFFER: return "an output buffer is too small";
        case CUZK_PROVER_INVALID_WITNESS_LENGTH: return "the witness length differs from the key's";
        case CUZK_PROVER_ERROR_INVALID_ARGUMENT: return "invalid argument";
        case CUZK_PROVER_ERROR_INVALID_ZKEY: return "invalid zkey";
        case CUZK_PROVER_ERROR_INVALID_WITNESS: return "invalid witness file";
        case CUZK_PROVER_ERROR_CURVE_MISMATCH: return "the witness is for another curve than the key";
        case CUZK_PROVER_ERROR_VERIFY_FAILED:
            return "the proof does not verify: the witness does not satisfy the circuit";
        case CUZK_PROVER_ERROR_NO_GPU: return "no GPU backend or no GPU";
        case CUZK_PROVER_ERROR_IO: return "a file cannot be read";
        case CUZK_PROVER_ERROR_GPU: return "a CUDA call failed";
        case CUZK_PROVER_ERROR_OUT_OF_MEMORY: return "out of memory";
        case CUZK_PROVER_ERROR_RANDOMNESS: return "the randomness source failed";
    }
    return "unknown error code";
}

CUZK_PROVER_API const char* cuzk_prover_version(void) { return CUZK_PROVER_VERSION_STRING; }

CUZK_PROVER_API int cuzk_prover_abi_version(void) { return CUZK_PROVER_ABI_VERSION; }

CUZK_PROVER_API int cuzk_prover_get_capabilities(cuzk_prover_capabilities* caps) {
    if (!caps || caps->struct_size != sizeof(cuzk_prover_capabilities)) return CUZK_PROVER_ERROR_INVALID_ARGUMENT;
#if defined(_OPENMP)
    const int openmp = 1, threads = omp_get_max_threads();
#else
    const int openmp = 0, threads = 1;
#endif
#if defined(CUZK_PRECOMPILED)
    const int instances = 1;
#else
    const int instances = 0;
#endif
    static const std::string options = std::string("cuda=") + (gpu_backend_compiled() ? "on" : "off") +
                                       " cuda_arch=" + CUZK_PROVER_CUDA_ARCH + " openmp=" + (openmp ? "on" : "off") +
                                       " x86_adx=" + (CUZK_HOST_ADX ? "on" : "off") +
                                       " instances=" + (instances ? "on" : "off");
    caps->curves = CUZK_PROVER_CURVE_BN254 | CUZK_PROVER_CURVE_BLS12_381;
    caps->gpu_backend = gpu_backend_compiled();
    caps->gpu_count = gpu_device_count();
    caps->openmp = openmp;
    caps->max_threads = threads;
    caps->x86_adx = CUZK_HOST_ADX;
    caps->precompiled_instances = instances;
    caps->build_options = options.c_str();
    return CUZK_PROVER_OK;
}

CUZK_PROVER_API int cuzk_groth16_public_size_for_zkey_buf(const void* zkey_buffer, unsigned long long zkey_size,
                                                          unsigned long long* public_size, char* error_msg,
                                                          unsigned long long error_msg_maxsize) {
    return guarded(error_msg, error_msg_maxsize, [&] {
        if (!public_size) null_argument("public_size");
        *public_size = public_size_of(zkey_buffer_source(zkey_buffer, zkey_size, "zkey_buffer"));
        return CUZK_PROVER_OK;
    });
}

CUZK_PROVER_API int cuzk_groth16_public_size_for_zkey_file(const char* zkey_file_path, unsigned long long* public_size,
                                                           char* error_msg, unsigned long long error_msg_maxsize) {
    return guarded(error_msg, error_msg_maxsize, [&] {
        if (!public_size) null_argument("public_size");
        *public_size = public_size_of(zkey_file_source(zkey_file_path));
        return CUZK_PROVER_OK;
    });
}

CUZK_PROVER_API void cuzk_groth16_proof_size(unsigned long long* proof_size) {
    if (proof_size) *proof_size = std::max(proof_json_bound<cuzk::io::bn128>(), proof_json_bound<cuzk::io::bls12381>());
}

CUZK_PROVER_API int cuzk_groth16_prover(const void* zkey_buffer, unsigned long long zkey_size, const void* wtns_buffer,
                                        unsigned long long wtns_size, char* proof_buffer,
                                        unsigned long long* proof_size, char* public_buffer,
                                        unsigned long long* public_size, char* error_msg,
                                        unsigned long long error_msg_maxsize) {
    return one_shot(open_buffer, zkey_buffer, zkey_size, wtns_buffer, wtns_size, proof_buffer, proof_size,
                    public_buffer, public_size, error_msg, error_msg_maxsize);
}

CUZK_PROVER_API int cuzk_groth16_prover_zkey_file(const char* zkey_file_path, const void* wtns_buffer,
                                                  unsigned long long wtns_size, char* proof_buffer,
                                                  unsigned long long* proof_size, char* public_buffer,
                                                  unsigned long long* public_size, char* error_msg,
                                                  unsigned long long error_msg_maxsize) {
    return one_shot(open_file, zkey_file_path, 0, wtns_buffer, wtns_size, proof_buffer, proof_size, public_buffer,
                    public_size, error_msg, error_msg_maxsize);
}

CUZK_PROVER_API void cuzk_prover_options_init(cuzk_prover_options* options) {
    if (options) *options = default_options();
}

CUZK_PROVER_API int cuzk_groth16_prover_create(cuzk_prover** prover, const void* zkey_buffer,
                                               unsigned long long zkey_size, char* error_msg,
                                               unsigned long long error_msg_maxsize) {
    return create(prover, open_buffer, zkey_buffer, zkey_size, nullptr, error_msg, error_msg_maxsize);
}

CUZK_PROVER_API int cuzk_groth16_prover_create_zkey_file(cuzk_prover** prover, const char* zkey_file_path,
                                                         char* error_msg, unsigned long long error_msg_maxsize) {
    return create(prover, open_file, zkey_file_path, 0, nullptr, error_msg, error_msg_maxsize);
}

CUZK_PROVER_API int cuzk_groth16_prover_create_with_options(cuzk_prover** prover, const void* zkey_buffer,
                                                            unsigned long long zkey_size,
                                                            const cuzk_prover_options* options, char* error_msg,
                                                            unsigned long long error_msg_maxsize) {
    return create(prover, open_buffer, zkey_buffer, zkey_size, options, error_msg, error_msg_maxsize);
}

CUZK_PROVER_API int cuzk_groth16_prover_create_zkey_file_with_options(cuzk_prover** prover, const char* zkey_file_path,
                                                                      const cuzk_prover_options* options,
                                                                      char* error_msg,
                                                                      unsigned long long error_msg_maxsize) {
    return create(prover, open_file, zkey_file_path, 0, options, error_msg, error_msg_maxsize);
}

CUZK_PROVER_API int cuzk_groth16_prover_prove(cuzk_prover* prover, const void* wtns_buffer,
                                              unsigned long long wtns_size, char* proof_buffer,
                                              unsigned long long* proof_size, char* public_buffer,
                                              unsigned long long* public_size, char* error_msg,
                                              unsigned long long error_msg_maxsize) {
    return prove(prover, wtns_buffer, wtns_size, nullptr, nullptr, proof_buffer, proof_size, public_buffer, public_size,
                 error_msg, error_msg_maxsize);
}

CUZK_PROVER_API int cuzk_groth16_prover_prove_with_random(cuzk_prover* prover, const void* wtns_buffer,
                                                          unsigned long long wtns_size, cuzk_random_fn random,
                                                          void* random_ctx, char* proof_buffer,
                                                          unsigned long long* proof_size, char* public_buffer,
                                                          unsigned long long* public_size, char* error_msg,
                                                          unsigned long long error_msg_maxsize) {
    return prove(prover, wtns_buffer, wtns_size, random, random_ctx, proof_buffer, proof_size, public_buffer,
                 public_size, error_msg, error_msg_maxsize);
}

CUZK_PROVER_API void cuzk_groth16_prover_destroy(cuzk_prover* prover) { delete prover; }

CUZK_PROVER_API int cuzk_groth16_prover_get_info(const cuzk_prover* prover, cuzk_prover_info* info, char* error_msg,
                                                 unsigned long long error_msg_maxsize) {
    return guarded(error_msg, error_msg_maxsize, [&] {
        if (!prover || !prover->impl) null_argument("prover");
        if (!info) null_argument("info");
        if (info->struct_size != sizeof(cuzk_prover_info))
            throw failure(CUZK_PROVER_ERROR_INVALID_ARGUMENT, "info->struct_size is " +
                                                                  std::to_string(info->struct_size) + ", expected " +
                                                                  std::to_string(sizeof(cuzk_prover_info)));
        prover->impl->info(*info);
        return CUZK_PROVER_OK;
    });
}

}  // extern "C"
