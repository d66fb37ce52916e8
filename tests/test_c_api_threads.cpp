// SPDX-License-Identifier: MIT OR Apache-2.0
// The C interface (include/cuzk/c/cuzk_prover.h, libcuzk_prover) under concurrency and bad input,
// for both curves, on keys made here (the INSECURE test setup, written as snarkjs files):
// - N threads x M witnesses on one resident prover: every proof verifies with the repo's verifier
//   (groth16/verifier.hpp) for the public inputs of the circuit builder's assignment, and with a
//   deterministic randomness source the proofs equal a serial run's and the C++ prover's
//   (groth16::prover on the r1cs, constraints checked) byte for byte;
// - errors: truncated, wrong-curve and wrong-circuit zkeys and witnesses, too-small output
//   buffers (sizes needed returned), a tampered witness (an error and no proof, and without
//   verification a proof the verifier rejects), a failing randomness source, bad options and
//   NULL pointers: the code and a message, no crash.
// The interop fixtures (snarkjs's own files, verified by snarkjs) are tests/test_c_api.c's.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "cuzk/c/cuzk_prover.h"
#include "cuzk/groth16/circuit.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/test_setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/snarkjs_json.hpp"
#include "cuzk/io/wtns.hpp"
#include "cuzk/io/zkey.hpp"
#include "cuzk/io/zkey_groth16.hpp"

using namespace cuzk;

namespace {

std::vector<uint8_t> file_bytes(const std::filesystem::path& path) {
    std::ifstream f(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

/// splitmix64 bytes: a reproducible randomness source (tests only: it makes proofs linkable).
extern "C" int counter_random(void* ctx, unsigned char* out, size_t len) {
    auto* state = static_cast<uint64_t*>(ctx);
    for (size_t i = 0; i < len; ++i) {
        uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        out[i] = uint8_t(z ^ (z >> 31));
    }
    return 0;
}

extern "C" int failing_random(void*, unsigned char*, size_t) { return 1; }

/// The same stream for the C++ prover: 64-bit words of 8 callback bytes, little-endian (the C
/// interface's documented reading of the callback).
struct counter_rng {
    using result_type = uint64_t;
    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return ~result_type(0); }
    uint64_t state;
    result_type operator()() {
        unsigned char b[8];
        counter_random(&state, b, 8);
        uint64_t v = 0;
        for (int i = 7; i >= 0; --i) v = v << 8 | b[i];
        return v;
    }
};

/// x -> t_1 -> ... -> t_L = y with t_{i+1} = (t_i + k_i) * t_i, k_i = i + 1 + variant: public x and
/// y, one constraint per step. The same r1cs for every x; another variant is another circuit
/// with the same number of variables.
template <class Fr>
groth16::circuit<Fr> chain_circuit(uint64_t x, size_t length, uint64_t variant = 0) {
    std::vector<Fr> t{Fr::from_u64(x)};
    for (size_t i = 0; i < length; ++i) t.push_back((t[i] + Fr::from_u64(i + 1 + variant)) * t[i]);
    groth16::circuit_builder<Fr> cb;
    std::vector<groth16::variable> v;
    v.push_back(cb.add_public(t[0]));
    const groth16::variable y = cb.add_public(t[length]);
    for (size_t i = 1; i < length; ++i) v.push_back(cb.add_witness(t[i]));
    v.push_back(y);
    for (size_t i = 0; i < length; ++i)
        cb.enforce(
            groth16::linear_combination<Fr>(v[i]) + Fr::from_u64(i + 1 + variant) * groth16::circuit_builder<Fr>::one(),
            v[i], v[i + 1]);
    return std::move(cb).build();
}

constexpr size_t chain_length = 200;  // a 256-row domain
constexpr size_t output_size = 1 << 14;

/// One curve's files: a key for chain_circuit, witnesses for several x, and the odd ones out.
template <class IoCurve>
struct curve_files {
    using curve = io::groth16_curve_t<IoCurve>;
    using fr = typename curve::fr;
    using other_io = std::conditional_t<std::is_same_v<IoCurve, io::bn128>, io::bls12381, io::bn128>;

    std::filesystem::path dir;
    std::string zkey_path;
    std::vector<uint8_t> zkey;
    std::shared_ptr<const groth16::proving_key<curve>> pk;
    groth16::r1cs<fr> system;
    std::vector<groth16::circuit<fr>> circuits;  // one per witness
    std::vector<std::vector<uint8_t>> wtns;
    std::vector<uint8_t> other_curve_wtns, other_circuit_wtns, shorter_wtns;
    std::vector<fr> other_circuit_z;

    curve_files() {
        dir = std::filesystem::temp_directory_path() /
              ("cuzk_test_c_api_threads_" + std::to_string(::getpid()) + "_" + std::string(IoCurve::snarkjs_name));
        std::filesystem::create_directories(dir);
        auto base = chain_circuit<fr>(3, chain_length);
        system = base.system;
        pk = std::make_shared<const groth16::proving_key<curve>>(groth16::test_setup_insecure<curve>(system, 11));
        zkey_path = (dir / "chain.zkey").string();
        io::write_zkey(zkey_path, io::to_zkey<IoCurve>(*pk, system));
        zkey = file_bytes(zkey_path);
        for (uint64_t x : {3, 5, 7, 9, 11, 13, 17, 19, 23, 29, 31, 37})
            circuits.push_back(chain_circuit<fr>(x, chain_length));
        for (size_t k = 0; k < circuits.size(); ++k)
            wtns.push_back(write_and_read<IoCurve>(circuits[k].assignment, "w" + std::to_string(k)));
        auto other = chain_circuit<typename other_io::fr>(3, chain_length);
        other_curve_wtns = write_and_read<other_io>(other.assignment, "other_curve");
        auto variant = chain_circuit<fr>(3, chain_length, 5);
        other_circuit_z = variant.assignment;
        other_circuit_wtns = write_and_read<IoCurve>(variant.assignment, "other_circuit");
        shorter_wtns = write_and_read<IoCurve>(chain_circuit<fr>(3, chain_length / 2).assignment, "shorter");
    }
    ~curve_files() { std::filesystem::remove_all(dir); }

    template <class C>
    std::vector<uint8_t> write_and_read(const std::vector<typename C::fr>& z, const std::string& name) {
        const auto path = dir / (name + ".wtns");
        io::write_wtns<C>(path.string(), std::span<const typename C::fr>(z));
        return file_bytes(path);
    }
};

/// The outputs and status of one prove call.
struct result {
    int rc = -1;
    std::string proof, pub, message;
};

result prove(cuzk_prover* p, std::span<const uint8_t> wtns, uint64_t* seed, size_t proof_cap = output_size,
             size_t public_cap = output_size) {
    std::vector<char> proof(output_size, 'X'), pub(output_size, 'X'), err(512, 'E');
    unsigned long long ps = proof_cap, us = public_cap;
    result r;
    r.rc = cuzk_groth16_prover_prove_with_random(p, wtns.data(), wtns.size(), seed ? counter_random : nullptr, seed,
                                                 proof.data(), &ps, pub.data(), &us, err.data(), err.size());
    r.message = err.data();
    if (r.rc == CUZK_PROVER_OK) {
        EXPECT_EQ(ps, std::strlen(proof.data()));
        EXPECT_EQ(us, std::strlen(pub.data()));
        r.proof = proof.data();
        r.pub = pub.data();
    } else {
        EXPECT_EQ(proof[0], 'X') << "proof buffer written on " << cuzk_prover_error_name(r.rc);
        EXPECT_EQ(pub[0], 'X') << "public buffer written on " << cuzk_prover_error_name(r.rc);
        EXPECT_FALSE(r.message.empty()) << cuzk_prover_error_name(r.rc) << " without a message";
    }
    return r;
}

/// A resident prover that is destroyed with the test.
struct handle {
    cuzk_prover* p = nullptr;
    handle() = default;
    handle(const handle&) = delete;
    handle& operator=(const handle&) = delete;
    ~handle() { cuzk_groth16_prover_destroy(p); }
};

cuzk_prover_options cpu_options() {
    cuzk_prover_options o;
    cuzk_prover_options_init(&o);
    o.backend = CUZK_PROVER_BACKEND_CPU;  // CI has no GPU; test_c_api covers AUTO
    return o;
}

/// The concurrency test's backend: the CPU, or the GPU with CUZK_TEST_C_API_BACKEND=gpu
/// (scripts/gpu-suite.sh runs it so on a GPU machine): many threads on one GPU handle must
/// give the serial run's proofs, which are the C++ CPU prover's.
cuzk_prover_options concurrency_options() {
    auto o = cpu_options();
    const char* b = std::getenv("CUZK_TEST_C_API_BACKEND");
    if (b && std::string_view(b) == "gpu") o.backend = CUZK_PROVER_BACKEND_GPU;
    return o;
}

template <class IoCurve>
class CApi : public ::testing::Test {
public:
    using files_type = curve_files<IoCurve>;
    using curve = typename files_type::curve;
    using fr = typename files_type::fr;

    static void SetUpTestSuite() { files_ = new files_type(); }
    static void TearDownTestSuite() {
        delete files_;
        files_ = nullptr;
    }

protected:
    const files_type& f() const { return *files_; }

    void create(handle& h, const cuzk_prover_options& o) {
        char err[512];
        ASSERT_EQ(cuzk_groth16_prover_create_zkey_file_with_options(&h.p, f().zkey_path.c_str(), &o, err, sizeof err),
                  CUZK_PROVER_OK)
            << err;
    }

    /// The repo's verifier accepts the proof for circuit k's public inputs, and public.json holds them.
    void expect_valid(const result& r, size_t k) const {
        ASSERT_EQ(r.rc, CUZK_PROVER_OK) << cuzk_prover_error_name(r.rc) << ": " << r.message;
        const auto& ckt = f().circuits[k];
        const auto pub = io::public_from_json<IoCurve>(r.pub);
        ASSERT_EQ(pub.size(), ckt.system.num_public);
        for (size_t i = 0; i < pub.size(); ++i) EXPECT_EQ(pub[i], ckt.public_inputs()[i]) << "public signal " << i;
        const auto pi = io::to_groth16<IoCurve>(io::proof_from_json<IoCurve>(r.proof));
        EXPECT_TRUE(groth16::verify(f().pk->vk, ckt.public_inputs(), pi)) << "witness " << k;
    }

    static files_type* files_;
};
template <class IoCurve>
curve_files<IoCurve>* CApi<IoCurve>::files_ = nullptr;

using io_curves = ::testing::Types<io::bn128, io::bls12381>;
TYPED_TEST_SUITE(CApi, io_curves);

TYPED_TEST(CApi, ThreadsOnOneHandleMatchSerialAndCppProver) {
    using curve = typename TestFixture::curve;
    const auto& f = this->f();
    constexpr size_t threads = 4, per_thread = 3;
    ASSERT_EQ(f.wtns.size(), threads * per_thread);
    handle h;
    this->create(h, concurrency_options());
    cuzk_prover_info info{};
    info.struct_size = sizeof info;
    ASSERT_EQ(cuzk_groth16_prover_get_info(h.p, &info, nullptr, 0), CUZK_PROVER_OK);
    std::printf("backend %s\n", info.backend == CUZK_PROVER_BACKEND_GPU ? "GPU" : "CPU");
    std::vector<result> concurrent(threads * per_thread);
    std::vector<std::thread> pool;
    for (size_t t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            for (size_t m = 0; m < per_thread; ++m) {
                const size_t k = t + threads * m;  // interleaved, so that neighbours run at once
                uint64_t seed = 1000 + k;
                concurrent[k] = prove(h.p, f.wtns[k], &seed);
            }
        });
    for (auto& t : pool) t.join();

    for (size_t k = 0; k < concurrent.size(); ++k) {
        this->expect_valid(concurrent[k], k);
        uint64_t seed = 1000 + k;
        const result serial = prove(h.p, f.wtns[k], &seed);
        EXPECT_EQ(serial.proof, concurrent[k].proof)
            << "witness " << k << ": a concurrent proof differs from the serial one";
        EXPECT_EQ(serial.pub, concurrent[k].pub);
        // The C++ prover on the r1cs (constraints checked), with the same randomisers.
        const auto& ckt = f.circuits[k];
        ASSERT_FALSE(ckt.system.first_unsatisfied(ckt.assignment).has_value());
        groth16::prover<curve> cpp(f.pk);
        const auto pi = cpp.prove(ckt.system, ckt.assignment, counter_rng{1000 + k});
        EXPECT_EQ(io::proof_to_json<TypeParam>(io::from_groth16<TypeParam>(pi)), concurrent[k].proof)
            << "witness " << k;
    }
}

TYPED_TEST(CApi, ThreadCountAndConcurrencyLimitKeepTheProofs) {
    const auto& f = this->f();
    handle reference, limited;
    this->create(reference, cpu_options());
    auto o = cpu_options();
    o.threads = 1;
    o.max_concurrent_proofs = 1;
    this->create(limited, o);
    std::vector<result> got(6);
    std::vector<std::thread> pool;
    for (size_t k = 0; k < got.size(); ++k)
        pool.emplace_back([&, k] {
            uint64_t seed = 77 + k;
            got[k] = prove(limited.p, f.wtns[k], &seed);
        });
    for (auto& t : pool) t.join();
    for (size_t k = 0; k < got.size(); ++k) {
        this->expect_valid(got[k], k);
        uint64_t seed = 77 + k;
        EXPECT_EQ(prove(reference.p, f.wtns[k], &seed).proof, got[k].proof) << "witness " << k;
    }
    cuzk_prover_info info{};
    info.struct_size = sizeof info;
    ASSERT_EQ(cuzk_groth16_prover_get_info(limited.p, &info, nullptr, 0), CUZK_PROVER_OK);
    EXPECT_EQ(info.threads, 1u);
    EXPECT_EQ(info.max_concurrent_proofs, 1u);
}

TYPED_TEST(CApi, KeptWorkersServeManyThreadsAndOutliveFailedProofs) {
    // On the GPU backend (CUZK_TEST_C_API_BACKEND=gpu) the handle's proofs run on a pool of kept
    // workers (src/c_api/gpu_cuda.cu): with max_concurrent_proofs = 2 at most 2 are made, 6 threads
    // share them, and a proof that fails (a tampered witness: the GPU proves it, the check rejects
    // it) gives its worker back for the next. On the CPU the same calls, the same proofs.
    using fr = typename TestFixture::fr;
    const auto& f = this->f();
    auto z = f.circuits[0].assignment;
    z[z.size() / 2] += fr::one();
    const auto path = f.dir / "tampered_pool.wtns";
    io::write_wtns<TypeParam>(path.string(), std::span<const fr>(z));
    const auto tampered = file_bytes(path);

    handle reference, pooled;
    this->create(reference, cpu_options());
    auto o = concurrency_options();
    o.max_concurrent_proofs = 2;
    this->create(pooled, o);
    constexpr size_t threads = 6, per_thread = 2;
    std::vector<result> got(threads * per_thread), bad(threads);
    std::vector<std::thread> pool;
    for (size_t t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            for (size_t m = 0; m < per_thread; ++m) {
                const size_t k = t + threads * m;
                uint64_t seed = 500 + k;
                got[k] = prove(pooled.p, f.wtns[k % f.wtns.size()], &seed);
                if (m == 0 && t % 2 == 0) bad[t] = prove(pooled.p, tampered, nullptr);
            }
        });
    for (auto& t : pool) t.join();
    for (size_t k = 0; k < got.size(); ++k) {
        this->expect_valid(got[k], k);
        uint64_t seed = 500 + k;
        EXPECT_EQ(prove(reference.p, f.wtns[k % f.wtns.size()], &seed).proof, got[k].proof) << "witness " << k;
    }
    for (size_t t = 0; t < threads; t += 2)
        EXPECT_EQ(bad[t].rc, CUZK_PROVER_ERROR_VERIFY_FAILED)
            << cuzk_prover_error_name(bad[t].rc) << ": " << bad[t].message;
    // After the failures, one more proof on the same handle.
    uint64_t seed = 9;
    const result last = prove(pooled.p, f.wtns[0], &seed);
    this->expect_valid(last, 0);
    seed = 9;
    EXPECT_EQ(prove(reference.p, f.wtns[0], &seed).proof, last.proof);
}

TYPED_TEST(CApi, InfoDescribesTheKey) {
    const auto& f = this->f();
    handle h;
    this->create(h, cpu_options());
    cuzk_prover_info info{};
    info.struct_size = sizeof info;
    ASSERT_EQ(cuzk_groth16_prover_get_info(h.p, &info, nullptr, 0), CUZK_PROVER_OK);
    EXPECT_STREQ(info.curve_name, std::string(TypeParam::snarkjs_name).c_str());
    EXPECT_EQ(info.n_vars, f.system.num_variables);
    EXPECT_EQ(info.n_public, f.system.num_public);
    EXPECT_EQ(info.domain_size, f.system.domain_size());
    EXPECT_EQ(info.backend, CUZK_PROVER_BACKEND_CPU);
    EXPECT_EQ(info.verify, 1);
    EXPECT_EQ(info.gpu_device, -1);
    EXPECT_EQ(info.device_key_bytes, 0u);
    const size_t points = 4 * f.system.num_variables + f.system.domain_size();  // a, b1, l, h, ic (about)
    EXPECT_GE(info.host_key_bytes, points * sizeof(affine<typename TestFixture::curve::g1>));
    // The bounds hold real proofs, and the global bound holds this curve's.
    unsigned long long global = 0, public_file = 0;
    cuzk_groth16_proof_size(&global);
    EXPECT_LE(info.proof_size, global);
    ASSERT_EQ(cuzk_groth16_public_size_for_zkey_file(f.zkey_path.c_str(), &public_file, nullptr, 0), CUZK_PROVER_OK);
    EXPECT_EQ(public_file, info.public_size);
    for (size_t k = 0; k < 4; ++k) {
        const result r = prove(h.p, f.wtns[k], nullptr);
        this->expect_valid(r, k);
        EXPECT_LT(r.proof.size(), info.proof_size);
        EXPECT_LT(r.pub.size(), info.public_size);
    }
}

TYPED_TEST(CApi, ShortBuffersReturnTheSizesNeeded) {
    const auto& f = this->f();
    handle h;
    this->create(h, cpu_options());
    uint64_t seed = 5;
    const result full = prove(h.p, f.wtns[0], &seed);
    this->expect_valid(full, 0);
    for (auto [proof_cap, public_cap] : {std::pair<size_t, size_t>{0, output_size},
                                         {full.proof.size(), output_size},
                                         {output_size, full.pub.size()},
                                         {1, 1}}) {
        std::vector<char> proof(output_size, 'X'), pub(output_size, 'X');
        unsigned long long ps = proof_cap, us = public_cap;
        char err[256];
        seed = 5;
        ASSERT_EQ(cuzk_groth16_prover_prove_with_random(h.p, f.wtns[0].data(), f.wtns[0].size(), counter_random, &seed,
                                                        proof.data(), &ps, pub.data(), &us, err, sizeof err),
                  CUZK_PROVER_ERROR_SHORT_BUFFER)
            << proof_cap << " " << public_cap;
        EXPECT_EQ(ps, full.proof.size() + 1);
        EXPECT_EQ(us, full.pub.size() + 1);
        EXPECT_EQ(proof[0], 'X');
        EXPECT_EQ(pub[0], 'X');
        EXPECT_NE(std::strstr(err, "too small"), nullptr) << err;
        // The sizes returned are enough for the same proof.
        seed = 5;
        const result again = prove(h.p, f.wtns[0], &seed, ps, us);
        EXPECT_EQ(again.proof, full.proof);
    }
}

TYPED_TEST(CApi, TamperedWitnessIsAnErrorAndNoProof) {
    using fr = typename TestFixture::fr;
    const auto& f = this->f();
    auto z = f.circuits[0].assignment;
    z[z.size() / 2] += fr::one();  // a private value
    ASSERT_TRUE(f.system.first_unsatisfied(z).has_value()) << "the tampered witness still satisfies the circuit";
    const auto path = f.dir / "tampered.wtns";
    io::write_wtns<TypeParam>(path.string(), std::span<const fr>(z));
    const auto tampered = file_bytes(path);

    handle h;
    this->create(h, cpu_options());
    const result r = prove(h.p, tampered, nullptr);
    EXPECT_EQ(r.rc, CUZK_PROVER_ERROR_VERIFY_FAILED) << cuzk_prover_error_name(r.rc) << ": " << r.message;
    EXPECT_NE(r.message.find("does not satisfy the circuit"), std::string::npos) << r.message;

    // One-shot: the same.
    std::vector<char> proof(output_size, 'X'), pub(output_size, 'X');
    unsigned long long ps = output_size, us = output_size;
    EXPECT_EQ(cuzk_groth16_prover(f.zkey.data(), f.zkey.size(), tampered.data(), tampered.size(), proof.data(), &ps,
                                  pub.data(), &us, nullptr, 0),
              CUZK_PROVER_ERROR_VERIFY_FAILED);
    EXPECT_EQ(proof[0], 'X');

    // Verification off: a proof comes back, and the verifier rejects it (what the check prevents).
    auto o = cpu_options();
    o.verify = 0;
    handle unchecked;
    this->create(unchecked, o);
    const result u = prove(unchecked.p, tampered, nullptr);
    ASSERT_EQ(u.rc, CUZK_PROVER_OK) << u.message;
    const auto pi = io::to_groth16<TypeParam>(io::proof_from_json<TypeParam>(u.proof));
    EXPECT_FALSE(groth16::verify(f.pk->vk, io::public_from_json<TypeParam>(u.pub), pi));
}

TYPED_TEST(CApi, WrongCircuitAndWrongCurveWitnesses) {
    const auto& f = this->f();
    handle h;
    this->create(h, cpu_options());
    // Same length, another circuit: only the proof's check can tell.
    ASSERT_EQ(f.other_circuit_z.size(), f.system.num_variables);
    ASSERT_TRUE(f.system.first_unsatisfied(f.other_circuit_z).has_value());
    result r = prove(h.p, f.other_circuit_wtns, nullptr);
    EXPECT_EQ(r.rc, CUZK_PROVER_ERROR_VERIFY_FAILED) << r.message;
    r = prove(h.p, f.shorter_wtns, nullptr);
    EXPECT_EQ(r.rc, CUZK_PROVER_INVALID_WITNESS_LENGTH) << r.message;
    EXPECT_NE(r.message.find("Invalid witness length. Circuit: " + std::to_string(f.system.num_variables)),
              std::string::npos)
        << r.message;
    r = prove(h.p, f.other_curve_wtns, nullptr);
    EXPECT_EQ(r.rc, CUZK_PROVER_ERROR_CURVE_MISMATCH) << r.message;
    EXPECT_NE(r.message.find("the witness is for"), std::string::npos) << r.message;
}

TYPED_TEST(CApi, TruncatedAndCorruptBuffers) {
    const auto& f = this->f();
    char err[512];
    for (size_t n : {size_t(0), size_t(4), size_t(11), size_t(12), size_t(100), f.zkey.size() / 2, f.zkey.size() - 1}) {
        cuzk_prover* p = reinterpret_cast<cuzk_prover*>(&err);  // must be reset to NULL
        EXPECT_EQ(cuzk_groth16_prover_create(&p, f.zkey.data(), n, err, sizeof err), CUZK_PROVER_ERROR_INVALID_ZKEY)
            << n << " bytes";
        EXPECT_EQ(p, nullptr);
        EXPECT_GT(std::strlen(err), 0u);
        unsigned long long size = 0;
        EXPECT_EQ(cuzk_groth16_public_size_for_zkey_buf(f.zkey.data(), n, &size, err, sizeof err),
                  CUZK_PROVER_ERROR_INVALID_ZKEY)
            << n << " bytes";
    }
    {  // a wtns for a zkey: the wrong magic
        cuzk_prover* p = nullptr;
        EXPECT_EQ(cuzk_groth16_prover_create(&p, f.wtns[0].data(), f.wtns[0].size(), err, sizeof err),
                  CUZK_PROVER_ERROR_INVALID_ZKEY);
        EXPECT_NE(std::strstr(err, "magic"), nullptr) << err;
    }
    {  // a point off the curve
        auto bad = f.zkey;
        bad[bad.size() - 80 - 10] ^= 0x5a;  // the last H point (section 10 is the last 12 + 68 bytes)
        cuzk_prover* p = nullptr;
        EXPECT_EQ(cuzk_groth16_prover_create(&p, bad.data(), bad.size(), err, sizeof err),
                  CUZK_PROVER_ERROR_INVALID_ZKEY);
        EXPECT_EQ(p, nullptr);
    }
    handle h;
    this->create(h, cpu_options());
    for (size_t n : {size_t(0), size_t(11), size_t(12), size_t(60), f.wtns[0].size() - 1}) {
        const result r = prove(h.p, std::span<const uint8_t>(f.wtns[0]).first(n), nullptr);  // non-NULL for n = 0
        EXPECT_EQ(r.rc, CUZK_PROVER_ERROR_INVALID_WITNESS) << n << " bytes: " << r.message;
    }
    const result z = prove(h.p, f.zkey, nullptr);
    EXPECT_EQ(z.rc, CUZK_PROVER_ERROR_INVALID_WITNESS) << z.message;
    // An unreadable file.
    cuzk_prover* p = nullptr;
    EXPECT_EQ(cuzk_groth16_prover_create_zkey_file(&p, (f.dir / "absent.zkey").c_str(), err, sizeof err),
              CUZK_PROVER_ERROR_IO);
    EXPECT_NE(std::strstr(err, "absent.zkey"), nullptr) << err;
}

namespace {

/// The offset of nPublic in a zkey: section 2 (Groth16 header) holds n8q, q, n8r, r, nVars, nPublic.
size_t zkey_n_public_offset(const std::vector<uint8_t>& z) {
    auto u32 = [&](size_t at) {
        uint32_t v;
        std::memcpy(&v, z.data() + at, 4);
        return v;
    };
    size_t at = 12;  // magic, version, number of sections
    while (at + 12 <= z.size()) {
        uint64_t size;
        std::memcpy(&size, z.data() + at + 4, 8);
        if (u32(at) == 2) {
            const size_t body = at + 12, n8q = u32(body), n8r = u32(body + 4 + n8q);
            return body + 4 + n8q + 4 + n8r + 4;
        }
        at += 12 + size_t(size);
    }
    ADD_FAILURE() << "no section 2";
    return 0;
}

}  // namespace

TYPED_TEST(CApi, PublicSizeBoundIsExactAndCountedNotBuilt) {
    const auto& f = this->f();
    // The bound is the writer's length for num_public signals of the widest decimal (the oracle:
    // io::json::write of such an array).
    auto widest = io::json::value::make_array();
    const size_t digits = io::to_decimal(TypeParam::fr::modulus).size();
    for (size_t i = 0; i < f.system.num_public; ++i)
        widest.items.push_back(io::json::value::make_string(std::string(digits, '9')));
    unsigned long long bound = 0;
    char err[512];
    ASSERT_EQ(cuzk_groth16_public_size_for_zkey_buf(f.zkey.data(), f.zkey.size(), &bound, err, sizeof err),
              CUZK_PROVER_OK)
        << err;
    EXPECT_EQ(bound, io::json::write(widest).size() + 1);
    // A header claiming 2^32 - 1 public signals (found by fuzz_c_api: the bound used to build that
    // array, gigabytes): the header-only query answers at once, and the key itself is refused.
    auto hostile = f.zkey;
    const uint32_t huge = 0xffffffffu;
    std::memcpy(hostile.data() + zkey_n_public_offset(hostile), &huge, 4);
    ASSERT_EQ(cuzk_groth16_public_size_for_zkey_buf(hostile.data(), hostile.size(), &bound, err, sizeof err),
              CUZK_PROVER_OK)
        << err;
    EXPECT_EQ(bound, 0xffffffffull * (digits + 5) + 3);
    cuzk_prover* p = nullptr;
    EXPECT_EQ(cuzk_groth16_prover_create(&p, hostile.data(), hostile.size(), err, sizeof err),
              CUZK_PROVER_ERROR_INVALID_ZKEY);
    EXPECT_EQ(p, nullptr);
}

TYPED_TEST(CApi, RandomnessFailureIsAnError) {
    const auto& f = this->f();
    handle h;
    this->create(h, cpu_options());
    std::vector<char> proof(output_size, 'X'), pub(output_size, 'X');
    unsigned long long ps = output_size, us = output_size;
    char err[256];
    EXPECT_EQ(cuzk_groth16_prover_prove_with_random(h.p, f.wtns[0].data(), f.wtns[0].size(), failing_random, nullptr,
                                                    proof.data(), &ps, pub.data(), &us, err, sizeof err),
              CUZK_PROVER_ERROR_RANDOMNESS);
    EXPECT_EQ(proof[0], 'X');
}

TYPED_TEST(CApi, NullPointersAndBadOptions) {
    const auto& f = this->f();
    char err[256];
    std::vector<char> proof(output_size), pub(output_size);
    unsigned long long ps = output_size, us = output_size;
    const auto& w = f.wtns[0];
    auto names = [&](const char* what) { EXPECT_NE(std::strstr(err, what), nullptr) << err; };

    EXPECT_EQ(cuzk_groth16_prover_create(nullptr, f.zkey.data(), f.zkey.size(), err, sizeof err),
              CUZK_PROVER_ERROR_INVALID_ARGUMENT);
    names("prover");
    cuzk_prover* p = nullptr;
    EXPECT_EQ(cuzk_groth16_prover_create(&p, nullptr, 10, err, sizeof err), CUZK_PROVER_ERROR_INVALID_ARGUMENT);
    names("zkey_buffer");
    EXPECT_EQ(cuzk_groth16_prover_create_zkey_file(&p, nullptr, err, sizeof err), CUZK_PROVER_ERROR_INVALID_ARGUMENT);
    names("zkey_file_path");
    EXPECT_EQ(cuzk_groth16_public_size_for_zkey_buf(f.zkey.data(), f.zkey.size(), nullptr, err, sizeof err),
              CUZK_PROVER_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(cuzk_groth16_prover(f.zkey.data(), f.zkey.size(), nullptr, 0, proof.data(), &ps, pub.data(), &us, err,
                                  sizeof err),
              CUZK_PROVER_ERROR_INVALID_ARGUMENT);
    names("wtns_buffer");
    EXPECT_EQ(cuzk_groth16_prover_zkey_file(f.zkey_path.c_str(), w.data(), w.size(), proof.data(), nullptr, pub.data(),
                                            &us, err, sizeof err),
              CUZK_PROVER_ERROR_INVALID_ARGUMENT);
    names("proof_size");

    handle h;
    this->create(h, cpu_options());
    EXPECT_EQ(
        cuzk_groth16_prover_prove(nullptr, w.data(), w.size(), proof.data(), &ps, pub.data(), &us, err, sizeof err),
        CUZK_PROVER_ERROR_INVALID_ARGUMENT);
    names("prover");
    EXPECT_EQ(cuzk_groth16_prover_prove(h.p, nullptr, w.size(), proof.data(), &ps, pub.data(), &us, err, sizeof err),
              CUZK_PROVER_ERROR_INVALID_ARGUMENT);
    names("wtns_buffer");
    EXPECT_EQ(cuzk_groth16_prover_prove(h.p, w.data(), w.size(), nullptr, &ps, pub.data(), &us, err, sizeof err),
              CUZK_PROVER_ERROR_INVALID_ARGUMENT);
    names("proof_buffer");
    EXPECT_EQ(
        cuzk_groth16_prover_prove(h.p, w.data(), w.size(), proof.data(), nullptr, pub.data(), &us, err, sizeof err),
        CUZK_PROVER_ERROR_INVALID_ARGUMENT);
    names("proof_size");
    EXPECT_EQ(cuzk_groth16_prover_prove(h.p, w.data(), w.size(), proof.data(), &ps, nullptr, &us, err, sizeof err),
              CUZK_PROVER_ERROR_INVALID_ARGUMENT);
    names("public_buffer");
    EXPECT_EQ(
        cuzk_groth16_prover_prove(h.p, w.data(), w.size(), proof.data(), &ps, pub.data(), nullptr, err, sizeof err),
        CUZK_PROVER_ERROR_INVALID_ARGUMENT);
    names("public_size");
    // No message buffer, or a tiny one: the code still comes back, the message is cut to fit.
    EXPECT_EQ(cuzk_groth16_prover_prove(h.p, nullptr, 0, proof.data(), &ps, pub.data(), &us, nullptr, 0),
              CUZK_PROVER_ERROR_INVALID_ARGUMENT);
    char tiny[4] = {'a', 'b', 'c', 'd'};
    EXPECT_EQ(cuzk_groth16_prover_prove(h.p, nullptr, 0, proof.data(), &ps, pub.data(), &us, tiny, sizeof tiny),
              CUZK_PROVER_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(std::string(tiny), "wtn");
    EXPECT_EQ(cuzk_groth16_prover_get_info(nullptr, nullptr, err, sizeof err), CUZK_PROVER_ERROR_INVALID_ARGUMENT);
    cuzk_prover_info info{};  // struct_size 0
    EXPECT_EQ(cuzk_groth16_prover_get_info(h.p, &info, err, sizeof err), CUZK_PROVER_ERROR_INVALID_ARGUMENT);
    names("struct_size");
    cuzk_groth16_prover_destroy(nullptr);
    cuzk_groth16_proof_size(nullptr);
    EXPECT_EQ(cuzk_prover_get_capabilities(nullptr), CUZK_PROVER_ERROR_INVALID_ARGUMENT);

    // Options: uninitialised, out of range, a GPU that is not there.
    cuzk_prover_options o{};
    EXPECT_EQ(cuzk_groth16_prover_create_with_options(&p, f.zkey.data(), f.zkey.size(), &o, err, sizeof err),
              CUZK_PROVER_ERROR_INVALID_ARGUMENT);
    names("cuzk_prover_options_init");
    o = cpu_options();
    o.backend = 7;
    EXPECT_EQ(cuzk_groth16_prover_create_with_options(&p, f.zkey.data(), f.zkey.size(), &o, err, sizeof err),
              CUZK_PROVER_ERROR_INVALID_ARGUMENT);
    o = cpu_options();
    o.verify = 2;
    EXPECT_EQ(cuzk_groth16_prover_create_with_options(&p, f.zkey.data(), f.zkey.size(), &o, err, sizeof err),
              CUZK_PROVER_ERROR_INVALID_ARGUMENT);
    cuzk_prover_capabilities caps{};
    caps.struct_size = sizeof caps;
    ASSERT_EQ(cuzk_prover_get_capabilities(&caps), CUZK_PROVER_OK);
    if (!caps.gpu_backend || caps.gpu_count == 0) {
        o = cpu_options();
        o.backend = CUZK_PROVER_BACKEND_GPU;
        EXPECT_EQ(cuzk_groth16_prover_create_with_options(&p, f.zkey.data(), f.zkey.size(), &o, err, sizeof err),
                  CUZK_PROVER_ERROR_NO_GPU);
        EXPECT_EQ(p, nullptr);
    }
    EXPECT_STREQ(cuzk_prover_error_name(CUZK_PROVER_ERROR_VERIFY_FAILED), "CUZK_PROVER_ERROR_VERIFY_FAILED");
    EXPECT_STREQ(cuzk_prover_error_name(12345), "unknown");
}

}  // namespace
