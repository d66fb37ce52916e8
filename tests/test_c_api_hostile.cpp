// SPDX-License-Identifier: MIT OR Apache-2.0
// The C interface (libcuzk_prover) against hostile callers, through the public header only:
// - every option at its edges (0, 1, the documented maximum, one past it, the all-ones value a
//   signed binding makes of -1): create either refuses with CUZK_PROVER_ERROR_INVALID_ARGUMENT
//   and a message naming the option, or the prover it returns proves (the proof checked by the
//   repo's verifier), and the host process never dies;
// - randomness callbacks that never yield a usable scalar (all-zero bytes: r = 0 forever;
//   all-0xff bytes: every candidate >= r) end in CUZK_PROVER_ERROR_RANDOMNESS within seconds;
// - an options struct smaller than the library's (a caller built against an older header) is
//   read no further than its struct_size: it lies at the end of a page followed by an
//   inaccessible one, so a read past struct_size faults;
// - a soak: several threads, each creating provers with random options (valid or not) and
//   proving random inputs (good witnesses, truncated, garbage, other-circuit), bounded in count
//   and time: no crash, every good proof verifies, resident memory flat after the warm-up.
// The keys are made here (the INSECURE test setup written as snarkjs files), BN254 only: the
// option checks and sampling bounds are curve-independent code.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <iterator>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cuzk/c/cuzk_prover.h"
#include "cuzk/groth16/circuit.hpp"
#include "cuzk/groth16/test_setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/snarkjs_json.hpp"
#include "cuzk/io/wtns.hpp"
#include "cuzk/io/zkey.hpp"
#include "cuzk/io/zkey_groth16.hpp"
#include "process_resources.hpp"

using namespace cuzk;

namespace {

using io_curve = io::bn128;
using curve = io::groth16_curve_t<io_curve>;
using fr = curve::fr;

std::vector<uint8_t> file_bytes(const std::filesystem::path& path) {
    std::ifstream f(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

/// x -> t_1 -> ... -> t_L with t_{i+1} = (t_i + i + 1 + variant) * t_i; x and t_L public.
groth16::circuit<fr> chain_circuit(uint64_t x, size_t length, uint64_t variant = 0) {
    std::vector<fr> t{fr::from_u64(x)};
    for (size_t i = 0; i < length; ++i) t.push_back((t[i] + fr::from_u64(i + 1 + variant)) * t[i]);
    groth16::circuit_builder<fr> cb;
    std::vector<groth16::variable> v;
    v.push_back(cb.add_public(t[0]));
    const groth16::variable y = cb.add_public(t[length]);
    for (size_t i = 1; i < length; ++i) v.push_back(cb.add_witness(t[i]));
    v.push_back(y);
    for (size_t i = 0; i < length; ++i)
        cb.enforce(
            groth16::linear_combination<fr>(v[i]) + fr::from_u64(i + 1 + variant) * groth16::circuit_builder<fr>::one(),
            v[i], v[i + 1]);
    return std::move(cb).build();
}

constexpr size_t chain_length = 50;  // a 64-row domain: proofs of a few ms
constexpr size_t output_size = 1 << 14;

/// The key, good witnesses (with their circuits) and bad ones.
struct files {
    std::filesystem::path dir;
    std::string zkey_path;
    std::vector<uint8_t> zkey;
    std::shared_ptr<const groth16::proving_key<curve>> pk;
    std::vector<groth16::circuit<fr>> circuits;
    std::vector<std::vector<uint8_t>> good;  // good[k] proves circuits[k]
    std::vector<std::vector<uint8_t>> bad;   // each one an error, none a crash

    files() {
        dir = std::filesystem::temp_directory_path() / ("cuzk_test_c_api_hostile_" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir);
        const auto base = chain_circuit(3, chain_length);
        pk = std::make_shared<const groth16::proving_key<curve>>(groth16::test_setup_insecure<curve>(base.system, 7));
        zkey_path = (dir / "chain.zkey").string();
        io::write_zkey(zkey_path, io::to_zkey<io_curve>(*pk, base.system));
        zkey = file_bytes(zkey_path);
        for (uint64_t x : {3, 5, 7, 11}) {
            circuits.push_back(chain_circuit(x, chain_length));
            good.push_back(wtns_of(circuits.back().assignment, "w" + std::to_string(x)));
        }
        const std::vector<uint8_t>& w = good[0];
        bad.push_back({});                                                         // empty
        bad.push_back(std::vector<uint8_t>(w.begin(), w.begin() + w.size() / 2));  // truncated
        bad.push_back(std::vector<uint8_t>(w.size(), 0xff));                       // garbage
        bad.push_back(wtns_of(chain_circuit(3, chain_length / 2).assignment, "shorter"));
        auto tampered = w;
        tampered[tampered.size() - 40] ^= 1;  // a value of the last signal: verification fails
        bad.push_back(tampered);
        auto many_sections = w;  // the header's section count raised to 2^32 - 1
        std::memset(many_sections.data() + 8, 0xff, 4);
        bad.push_back(many_sections);
    }
    ~files() { std::filesystem::remove_all(dir); }

    std::vector<uint8_t> wtns_of(const std::vector<fr>& z, const std::string& name) const {
        const auto path = dir / (name + ".wtns");
        io::write_wtns<io_curve>(path.string(), std::span<const fr>(z));
        return file_bytes(path);
    }
};

const files& fixture() {
    static const files f;
    return f;
}

/// The outputs and status of one prove call.
struct result {
    int rc = -1;
    std::string proof, pub, message;
};

result prove(cuzk_prover* p, std::span<const uint8_t> wtns, cuzk_random_fn random = nullptr, void* ctx = nullptr) {
    std::vector<char> proof(output_size), pub(output_size);
    char err[512] = "";
    unsigned long long ps = proof.size(), us = pub.size();
    result r;
    r.rc = cuzk_groth16_prover_prove_with_random(p, wtns.data(), wtns.size(), random, ctx, proof.data(), &ps,
                                                 pub.data(), &us, err, sizeof err);
    r.message = err;
    if (r.rc == CUZK_PROVER_OK) r.proof = proof.data(), r.pub = pub.data();
    return r;
}

/// True when the proof verifies for circuit k's public inputs and public.json holds them.
bool valid_for(const result& r, size_t k) {
    if (r.rc != CUZK_PROVER_OK) return false;
    const auto& ckt = fixture().circuits[k];
    const auto pub = io::public_from_json<io_curve>(r.pub);
    if (pub.size() != ckt.system.num_public) return false;
    for (size_t i = 0; i < pub.size(); ++i)
        if (!(pub[i] == ckt.public_inputs()[i])) return false;
    return groth16::verify(fixture().pk->vk, ckt.public_inputs(),
                           io::to_groth16<io_curve>(io::proof_from_json<io_curve>(r.proof)));
}

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
    o.backend = CUZK_PROVER_BACKEND_CPU;
    return o;
}

/// create with o; on success the prover must prove witness 0 validly.
int create_and_prove(const cuzk_prover_options& o, std::string& message) {
    handle h;
    char err[512] = "";
    const int rc = cuzk_groth16_prover_create_with_options(&h.p, fixture().zkey.data(), fixture().zkey.size(), &o, err,
                                                           sizeof err);
    message = err;
    if (rc != CUZK_PROVER_OK) {
        EXPECT_EQ(h.p, nullptr);
        return rc;
    }
    const result r = prove(h.p, fixture().good[0]);
    EXPECT_TRUE(valid_for(r, 0)) << cuzk_prover_error_name(r.rc) << ": " << r.message;
    return rc;
}

/// Runs f on another thread and fails the test (ending the process: a hung call cannot be
/// joined) if it has not returned within `limit`.
template <class F>
auto within(std::chrono::seconds limit, const char* what, F&& f) {
    auto done = std::async(std::launch::async, std::forward<F>(f));
    if (done.wait_for(limit) != std::future_status::ready) {
        ADD_FAILURE() << what << " did not return within " << limit.count() << " s";
        std::fprintf(stderr, "%s: hung, exiting\n", what);
        std::_Exit(1);
    }
    return done.get();
}

TEST(CApiHostile, ThreadsAtTheirEdges) {
    std::string msg;
    // 0 (all processors), 1 and the documented maximum prove; above it, and the all-ones value
    // of an unsigned field set to -1 through a signed binding (Python's ctypes), are refused.
    for (unsigned t : {0u, 1u, 2u, 1024u}) {
        auto o = cpu_options();
        o.threads = t;
        EXPECT_EQ(create_and_prove(o, msg), CUZK_PROVER_OK) << "threads " << t << ": " << msg;
    }
    for (unsigned t : {1025u, 100000u, unsigned(INT_MAX), unsigned(INT_MAX) + 1u, UINT_MAX}) {
        auto o = cpu_options();
        o.threads = t;
        EXPECT_EQ(within(std::chrono::seconds(60), "create", [&] { return create_and_prove(o, msg); }),
                  CUZK_PROVER_ERROR_INVALID_ARGUMENT)
            << "threads " << t;
        EXPECT_NE(msg.find("threads"), std::string::npos) << msg;
        EXPECT_NE(msg.find("1024"), std::string::npos) << "the message names the limit: " << msg;
    }
}

TEST(CApiHostile, ThreadsInUseAreAtMostTheProcessors) {
    auto o = cpu_options();
    o.threads = 1024;
    handle h;
    char err[256];
    ASSERT_EQ(cuzk_groth16_prover_create_with_options(&h.p, fixture().zkey.data(), fixture().zkey.size(), &o, err,
                                                      sizeof err),
              CUZK_PROVER_OK)
        << err;
    cuzk_prover_info info{};
    info.struct_size = sizeof info;
    ASSERT_EQ(cuzk_groth16_prover_get_info(h.p, &info, err, sizeof err), CUZK_PROVER_OK) << err;
    EXPECT_GE(info.threads, 1u);
    EXPECT_LE(info.threads, std::max(1u, std::thread::hardware_concurrency()));
}

TEST(CApiHostile, OtherOptionsAtTheirEdges) {
    std::string msg;
    struct edge {
        const char* name;
        void (*set)(cuzk_prover_options&);
        int expected;
    };
    const edge edges[] = {
        {"struct_size 0", [](cuzk_prover_options& o) { o.struct_size = 0; }, CUZK_PROVER_ERROR_INVALID_ARGUMENT},
        {"struct_size + 1", [](cuzk_prover_options& o) { o.struct_size += 1; }, CUZK_PROVER_ERROR_INVALID_ARGUMENT},
        {"struct_size max", [](cuzk_prover_options& o) { o.struct_size = UINT_MAX; },
         CUZK_PROVER_ERROR_INVALID_ARGUMENT},
        {"backend -1", [](cuzk_prover_options& o) { o.backend = -1; }, CUZK_PROVER_ERROR_INVALID_ARGUMENT},
        {"backend 3", [](cuzk_prover_options& o) { o.backend = 3; }, CUZK_PROVER_ERROR_INVALID_ARGUMENT},
        {"backend INT_MIN", [](cuzk_prover_options& o) { o.backend = INT_MIN; }, CUZK_PROVER_ERROR_INVALID_ARGUMENT},
        {"verify 0", [](cuzk_prover_options& o) { o.verify = 0; }, CUZK_PROVER_OK},
        {"verify 2", [](cuzk_prover_options& o) { o.verify = 2; }, CUZK_PROVER_ERROR_INVALID_ARGUMENT},
        {"verify -1", [](cuzk_prover_options& o) { o.verify = -1; }, CUZK_PROVER_ERROR_INVALID_ARGUMENT},
        {"gpu_device -1", [](cuzk_prover_options& o) { o.gpu_device = -1; }, CUZK_PROVER_ERROR_INVALID_ARGUMENT},
        {"gpu_device INT_MIN", [](cuzk_prover_options& o) { o.gpu_device = INT_MIN; },
         CUZK_PROVER_ERROR_INVALID_ARGUMENT},
        // The CPU backend uses no device, budget or GPU worker: in range, these are accepted.
        {"gpu_device INT_MAX (CPU)", [](cuzk_prover_options& o) { o.gpu_device = INT_MAX; }, CUZK_PROVER_OK},
        {"vram_budget_bytes 1 (CPU)", [](cuzk_prover_options& o) { o.vram_budget_bytes = 1; }, CUZK_PROVER_OK},
        {"vram_budget_bytes max (CPU)", [](cuzk_prover_options& o) { o.vram_budget_bytes = ~0ull; }, CUZK_PROVER_OK},
        {"max_concurrent_proofs 1", [](cuzk_prover_options& o) { o.max_concurrent_proofs = 1; }, CUZK_PROVER_OK},
        {"max_concurrent_proofs max", [](cuzk_prover_options& o) { o.max_concurrent_proofs = UINT_MAX; },
         CUZK_PROVER_OK},
    };
    for (const edge& e : edges) {
        auto o = cpu_options();
        e.set(o);
        EXPECT_EQ(create_and_prove(o, msg), e.expected) << e.name << ": " << msg;
        if (e.expected != CUZK_PROVER_OK) {
            EXPECT_NE(msg.find("options"), std::string::npos) << e.name << ": " << msg;
        }
    }
    // The GPU backend in a build or on a machine without one: its own error, never a crash.
    auto o = cpu_options();
    o.backend = CUZK_PROVER_BACKEND_GPU;
    o.gpu_device = INT_MAX;
    const int rc = create_and_prove(o, msg);
    EXPECT_TRUE(rc == CUZK_PROVER_ERROR_NO_GPU || rc == CUZK_PROVER_ERROR_GPU) << cuzk_prover_error_name(rc) << msg;
    // Where there is no GPU, asking for one is an option's error, given before the key is read:
    // the same code for a truncated key (the fuzzer of the options found it answered INVALID_ZKEY).
    if (rc == CUZK_PROVER_ERROR_NO_GPU) {
        o.gpu_device = 0;
        handle h;
        char err[512] = "";
        const std::vector<uint8_t>& zkey = fixture().zkey;
        EXPECT_EQ(cuzk_groth16_prover_create_with_options(&h.p, zkey.data(), zkey.size() / 2, &o, err, sizeof err),
                  CUZK_PROVER_ERROR_NO_GPU)
            << err;
    }
}

/// Two pages, the second PROT_NONE: the last `n` bytes of the first are a caller's struct, and
/// any read past them faults.
class guarded_tail {
public:
    explicit guarded_tail(size_t n) : page_(size_t(::sysconf(_SC_PAGESIZE))), n_(n) {
        void* m = ::mmap(nullptr, 2 * page_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) throw std::runtime_error("mmap failed");
        base_ = static_cast<unsigned char*>(m);
        if (::mprotect(base_ + page_, page_, PROT_NONE) != 0) throw std::runtime_error("mprotect failed");
    }
    ~guarded_tail() { ::munmap(base_, 2 * page_); }
    guarded_tail(const guarded_tail&) = delete;
    guarded_tail& operator=(const guarded_tail&) = delete;
    unsigned char* data() const { return base_ + page_ - n_; }

private:
    size_t page_, n_;
    unsigned char* base_ = nullptr;
};

TEST(CApiHostile, OptionsAreReadNoFurtherThanTheirStructSize) {
    const cuzk_prover_options full = cpu_options();
    // Smaller structs (the struct_size field alone, the first five fields, all but the last
    // field): refused by their size, with a message naming it, without a byte past them read.
    for (size_t n : {sizeof(unsigned), size_t(20), sizeof(cuzk_prover_options) - 8}) {
        guarded_tail tail(n);
        std::memcpy(tail.data(), &full, n);
        const unsigned size = unsigned(n);
        std::memcpy(tail.data(), &size, sizeof size);
        handle h;
        char err[512] = "";
        const int rc = cuzk_groth16_prover_create_with_options(
            &h.p, fixture().zkey.data(), fixture().zkey.size(),
            reinterpret_cast<const cuzk_prover_options*>(tail.data()), err, sizeof err);
        EXPECT_EQ(rc, CUZK_PROVER_ERROR_INVALID_ARGUMENT) << "struct_size " << n << ": " << err;
        EXPECT_EQ(h.p, nullptr);
        EXPECT_NE(std::string(err).find("struct_size"), std::string::npos) << err;
    }
    // The library's own struct ending where the readable memory ends: accepted, and it proves.
    guarded_tail tail(sizeof full);
    std::memcpy(tail.data(), &full, sizeof full);
    handle h;
    char err[512] = "";
    ASSERT_EQ(cuzk_groth16_prover_create_with_options(&h.p, fixture().zkey.data(), fixture().zkey.size(),
                                                      reinterpret_cast<const cuzk_prover_options*>(tail.data()), err,
                                                      sizeof err),
              CUZK_PROVER_OK)
        << err;
    EXPECT_TRUE(valid_for(prove(h.p, fixture().good[0]), 0));
}

extern "C" int zero_random(void*, unsigned char* out, size_t len) {
    std::memset(out, 0, len);
    return 0;
}
extern "C" int ones_random(void*, unsigned char* out, size_t len) {
    std::memset(out, 0xff, len);
    return 0;
}

TEST(CApiHostile, RandomnessThatNeverYieldsAScalarFails) {
    handle h;
    char err[256];
    const auto o = cpu_options();
    ASSERT_EQ(cuzk_groth16_prover_create_with_options(&h.p, fixture().zkey.data(), fixture().zkey.size(), &o, err,
                                                      sizeof err),
              CUZK_PROVER_OK)
        << err;
    for (cuzk_random_fn fn : {zero_random, ones_random}) {
        const auto t0 = std::chrono::steady_clock::now();
        const result r = within(std::chrono::seconds(30), "prove with a degenerate randomness source",
                                [&] { return prove(h.p, fixture().good[0], fn, nullptr); });
        EXPECT_EQ(r.rc, CUZK_PROVER_ERROR_RANDOMNESS) << cuzk_prover_error_name(r.rc) << ": " << r.message;
        EXPECT_NE(r.message.find("64"), std::string::npos) << "the message names the bound: " << r.message;
        EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 10.0);
    }
    // The prover is still usable.
    EXPECT_TRUE(valid_for(prove(h.p, fixture().good[1]), 1));
}

/// Random options, about half of them invalid.
cuzk_prover_options random_options(std::mt19937_64& rng) {
    auto o = cpu_options();
    switch (rng() % 10) {
        case 0: o.threads = unsigned(rng()); break;  // mostly far above the limit
        case 1: o.threads = unsigned(rng() % 3); break;
        case 2: o.verify = int(rng() % 4) - 1; break;
        case 3: o.backend = int(rng() % 5) - 1; break;
        case 4: o.struct_size = unsigned(rng() % 128); break;
        case 5: o.gpu_device = -int(rng() % 3); break;
        case 6: o.max_concurrent_proofs = unsigned(rng() % 3); break;
        default: break;
    }
    if (o.backend == CUZK_PROVER_BACKEND_AUTO || o.backend == CUZK_PROVER_BACKEND_GPU)
        o.backend = CUZK_PROVER_BACKEND_CPU;  // CI has no GPU; a GPU build would try one
    return o;
}

TEST(CApiHostile, SoakOfValidAndInvalidCallsFromSeveralThreads) {
    const files& f = fixture();
    constexpr unsigned threads = 3;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(8);
    std::atomic<size_t> good_proofs{0}, refused{0}, failed_inputs{0}, bad_good{0};
    auto round = [&](uint64_t seed, size_t creates) {
        std::vector<std::thread> pool;
        for (unsigned t = 0; t < threads; ++t)
            pool.emplace_back([&, t] {
                std::mt19937_64 rng(seed * 1000 + t);
                for (size_t c = 0; c < creates && std::chrono::steady_clock::now() < deadline; ++c) {
                    const cuzk_prover_options o = random_options(rng);
                    handle h;
                    char err[256];
                    const int rc = cuzk_groth16_prover_create_with_options(&h.p, f.zkey.data(), f.zkey.size(), &o, err,
                                                                           sizeof err);
                    if (rc != CUZK_PROVER_OK) {
                        ++refused;
                        continue;
                    }
                    for (int k = 0; k < 4; ++k) {
                        if (rng() % 2) {
                            const size_t w = rng() % f.good.size();
                            const result r = prove(h.p, f.good[w]);
                            if (valid_for(r, w)) ++good_proofs;
                            else if (o.verify || r.rc != CUZK_PROVER_OK) ++bad_good;
                        } else {
                            const result r = prove(h.p, f.bad[rng() % f.bad.size()]);
                            if (r.rc != CUZK_PROVER_OK) ++failed_inputs;
                        }
                    }
                }
            });
        for (auto& th : pool) th.join();
    };
    round(1, 3);  // warm-up: OpenMP's pool, the allocator's arenas
    const auto before = test::process_resources::now();
    for (uint64_t s = 2; s < 8 && std::chrono::steady_clock::now() < deadline; ++s) round(s, 4);
    const auto after = test::process_resources::now();
    EXPECT_EQ(bad_good.load(), 0u) << "a good witness failed or gave a proof that does not verify";
    EXPECT_GT(good_proofs.load(), 10u);
    EXPECT_GT(refused.load(), 3u);
    EXPECT_GT(failed_inputs.load(), 10u);
    std::printf("soak: %zu good proofs, %zu refused creates, %zu failed bad inputs; RSS %.1f -> %.1f MiB, heap "
                "%.1f -> %.1f MiB\n",
                good_proofs.load(), refused.load(), failed_inputs.load(), double(before.rss_bytes) / 1048576.0,
                double(after.rss_bytes) / 1048576.0, double(before.heap_bytes) / 1048576.0,
                double(after.heap_bytes) / 1048576.0);
    // Resident memory flat: a leak of one key (~100 KB) or witness per call would add megabytes.
    if (before.rss_bytes > 0 && after.rss_bytes > 0) {
        EXPECT_LT(after.rss_bytes, before.rss_bytes + (16l << 20)) << "RSS grew";
    }
    if (before.heap_bytes > 0 && after.heap_bytes > 0) {
        EXPECT_LT(after.heap_bytes, before.heap_bytes + (4l << 20)) << "heap in use grew";
    }
}

}  // namespace
