// SPDX-License-Identifier: MIT OR Apache-2.0
// Host allocation failures on the reading paths: for every k, the k-th allocation made while
// reading a small .zkey, .wtns or .r1cs file fails (std::bad_alloc from a replaced global
// operator new, in this executable only). Each time the reader must
//   - report a typed error: std::bad_alloc itself, or a cuzk::error;
//   - leak nothing: the count of live operator-new blocks returns to its level before the read,
//     and so does the number of open file descriptors;
//   - leave the process usable: the next read of the same file succeeds and gives the same result.
// Also checked: counts in a header that the file cannot hold (nWitness, nConstraints, nVars, ...
// near 2^32) fail with decode_error before anything that large is allocated (the largest request
// made while reading stays below a bound derived from the file's size).
// Run it under the asan preset too (CMakePresets.json): ASan then checks the same paths for
// leaks and invalid accesses through malloc/free, which this operator new calls.
#include <fcntl.h>
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "cuzk/io/r1cs.hpp"
#include "cuzk/io/wtns.hpp"
#include "cuzk/io/zkey.hpp"
#include "process_resources.hpp"
#include "test_io_synth.hpp"

// ---- fault injection: a counting global operator new --------------------------------------------

namespace fault {

/// Only allocations of the thread inside a scope are counted and may fail (not gtest's, and not
/// OpenMP workers', which must not throw out of a parallel region).
thread_local bool in_scope = false;
std::atomic<long> counted{0};    // allocations counted in the current scope
std::atomic<long> fail_at{0};    // 1-based index of the counted allocation to fail; 0 = none
std::atomic<long> live{0};       // operator-new blocks not yet deleted (every thread)
std::atomic<size_t> largest{0};  // largest request counted in the current scope

void* allocate(size_t n, size_t align) {
    if (in_scope) {
        const long k = ++counted;
        if (k == fail_at.load()) throw std::bad_alloc();
        size_t seen = largest.load();
        while (n > seen && !largest.compare_exchange_weak(seen, n)) {
        }
    }
    void* p = nullptr;
    if (align <= alignof(std::max_align_t)) {
        p = std::malloc(n ? n : 1);
    } else if (posix_memalign(&p, align, n ? n : 1) != 0) {
        p = nullptr;
    }
    if (!p) throw std::bad_alloc();
    ++live;
    return p;
}
void release(void* p) {
    if (!p) return;
    --live;
    std::free(p);
}

/// Counts (and with fail_at, fails) the allocations of this thread while alive.
struct scope {
    explicit scope(long fail_index = 0) {
        counted = 0;
        largest = 0;
        fail_at = fail_index;
        in_scope = true;
    }
    ~scope() {
        in_scope = false;
        fail_at = 0;
    }
};

}  // namespace fault

// The replaceable forms that libstdc++ does not route through operator new(size_t): the rest
// (arrays, nothrow, sized delete) call these by default.
void* operator new(size_t n) { return fault::allocate(n, 0); }
void* operator new(size_t n, std::align_val_t a) { return fault::allocate(n, size_t(a)); }
void* operator new[](size_t n) { return fault::allocate(n, 0); }
void* operator new[](size_t n, std::align_val_t a) { return fault::allocate(n, size_t(a)); }
void operator delete(void* p) noexcept { fault::release(p); }
void operator delete(void* p, size_t) noexcept { fault::release(p); }
void operator delete(void* p, std::align_val_t) noexcept { fault::release(p); }
void operator delete(void* p, size_t, std::align_val_t) noexcept { fault::release(p); }
void operator delete[](void* p) noexcept { fault::release(p); }
void operator delete[](void* p, size_t) noexcept { fault::release(p); }
void operator delete[](void* p, std::align_val_t) noexcept { fault::release(p); }
void operator delete[](void* p, size_t, std::align_val_t) noexcept { fault::release(p); }

namespace {

using namespace cuzk;
using namespace cuzk::io;
using namespace cuzk::io::iotest;

long open_fds() { return cuzk::test::count_entries("/proc/self/fd"); }

/// A scratch directory for the test files, removed at the end.
struct temp_dir {
    std::filesystem::path path;
    temp_dir() {
        path = std::filesystem::temp_directory_path() / ("cuzk-alloc-faults-" + std::to_string(getpid()));
        std::filesystem::create_directories(path);
    }
    ~temp_dir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    std::string write(const std::string& name, const bytes& b) const {
        const std::string p = (path / name).string();
        std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
        return p;
    }
};

// Any contiguous container of trivially copyable elements (std::vector, groth16::key_points).
template <class V>
bool same_bytes(const V& a, const V& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(a[0])) == 0);
}

template <class C>
bool same(const wtns<C>& a, const wtns<C>& b) {
    return same_bytes(a.values, b.values);
}
template <class C>
bool same(const r1cs<C>& a, const r1cs<C>& b) {
    auto m = [](const auto& x, const auto& y) {  // terms field by field: r1cs_term has padding
        if (!same_bytes(x.start, y.start) || x.terms.size() != y.terms.size()) return false;
        for (size_t i = 0; i < x.terms.size(); ++i)
            if (x.terms[i].wire != y.terms[i].wire || x.terms[i].value != y.terms[i].value) return false;
        return true;
    };
    return a.n_wires == b.n_wires && a.n_constraints == b.n_constraints && a.n_labels == b.n_labels && m(a.a, b.a) &&
           m(a.b, b.b) && m(a.c, b.c) && same_bytes(a.wire_to_label, b.wire_to_label);
}
template <class Fr>
bool same_coeffs(const std::vector<zkey_coefficient<Fr>>& x, const std::vector<zkey_coefficient<Fr>>& y) {
    if (x.size() != y.size()) return false;  // field by field: the struct has padding
    for (size_t i = 0; i < x.size(); ++i)
        if (x[i].matrix != y[i].matrix || x[i].constraint != y[i].constraint || x[i].signal != y[i].signal ||
            x[i].value != y[i].value)
            return false;
    return true;
}
template <class C>
bool same(const zkey<C>& a, const zkey<C>& b) {
    auto pt = [](const auto& x, const auto& y) { return std::memcmp(&x, &y, sizeof x) == 0; };
    return a.n_vars == b.n_vars && a.n_public == b.n_public && a.domain_size == b.domain_size &&
           pt(a.vk.alpha1, b.vk.alpha1) && pt(a.vk.beta2, b.vk.beta2) && pt(a.vk.delta2, b.vk.delta2) &&
           same_bytes(a.vk.ic, b.vk.ic) && same_coeffs(a.coeffs, b.coeffs) && same_bytes(a.a, b.a) &&
           same_bytes(a.b1, b.b1) && same_bytes(a.b2, b.b2) && same_bytes(a.c, b.c) && same_bytes(a.h, b.h);
}

struct sweep_result {
    long allocations = 0;  // counted in one successful read
    long failed_with_bad_alloc = 0, failed_with_cuzk_error = 0;
};

/// Fails each allocation of read() in turn; checks the error type, leaks, descriptors and that
/// the next read succeeds with the reference result.
template <class Result, class Read>
sweep_result sweep(const char* what, Read read) {
    sweep_result out;
    std::optional<Result> reference;
    {
        fault::scope s;
        reference.emplace(read());
        out.allocations = fault::counted;
    }
    EXPECT_GT(out.allocations, 0) << what << ": no allocation counted: is operator new replaced?";
    for (long k = 1; k <= out.allocations; ++k) {
        const long live_before = fault::live, fds_before = open_fds();
        bool threw = false;
        try {
            fault::scope s(k);
            (void)read();
        } catch (const std::bad_alloc&) {
            threw = true;
            ++out.failed_with_bad_alloc;
        } catch (const cuzk::error& e) {
            threw = true;
            ++out.failed_with_cuzk_error;
        } catch (const std::exception& e) {
            ADD_FAILURE() << what << ": allocation " << k << " failed, untyped error: " << e.what();
            threw = true;
        }
        EXPECT_TRUE(threw) << what << ": allocation " << k << " of " << out.allocations
                           << " failed, yet the read returned normally";
        EXPECT_EQ(fault::live.load(), live_before) << what << ": allocation " << k << " failed: blocks leaked";
        EXPECT_EQ(open_fds(), fds_before) << what << ": allocation " << k << " failed: file descriptor leaked";
        Result again = read();  // the process is still usable: the same read now succeeds
        EXPECT_TRUE(same(again, *reference)) << what << ": the read after failing allocation " << k << " differs";
    }
    return out;
}

// ---- the harness catches what it is meant to catch ----------------------------------------------

/// A correct toy reader, and two with a bug on their failure path: when their second resource
/// cannot be allocated, the block (or the descriptor) taken first is never given back. It is kept
/// reachable here, so the sanitizers see no real leak; the harness must still report it.
struct toy_result {
    int value = 0;
};
bool same(const toy_result& a, const toy_result& b) { return a.value == b.value; }
int* kept_blocks[64];
int kept_fds[64];
size_t n_kept_blocks = 0, n_kept_fds = 0;

toy_result read_correctly() {
    auto p = std::make_unique<int>(7);
    std::vector<int> more(16, 1);  // when this allocation fails, p is freed by its owner
    return {more[0] + *p - 1};
}
toy_result read_leaking_a_block_on_failure() {
    int* p = new int(7);
    kept_blocks[n_kept_blocks++] = p;  // reachable for the sanitizers, still live for the harness
    std::vector<int> more(16, 1);      // the allocation that fails
    --n_kept_blocks;
    delete p;
    return {more[0] + 6};
}
toy_result read_leaking_a_descriptor_on_failure() {
    const int fd = ::open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
    kept_fds[n_kept_fds++] = fd;
    std::vector<int> more(16, 1);  // fails: the descriptor stays open
    --n_kept_fds;
    ::close(fd);
    return {more[0] + 6};
}

TEST(IoAllocFaultsHarness, reports_leaks_on_the_failure_path) {
    (void)sweep<toy_result>("correct toy", read_correctly);  // must pass
    EXPECT_NONFATAL_FAILURE((void)sweep<toy_result>("toy", read_leaking_a_block_on_failure), "blocks leaked");
    EXPECT_NONFATAL_FAILURE((void)sweep<toy_result>("toy", read_leaking_a_descriptor_on_failure),
                            "file descriptor leaked");
    for (size_t i = 0; i < n_kept_blocks; ++i) delete kept_blocks[i];
    for (size_t i = 0; i < n_kept_fds; ++i) ::close(kept_fds[i]);
}

// ---- the readers -------------------------------------------------------------------------------

template <class C>
class IoAllocFaults : public ::testing::Test {};
using curves = ::testing::Types<bn128, bls12381>;
TYPED_TEST_SUITE(IoAllocFaults, curves);

TYPED_TEST(IoAllocFaults, every_allocation_of_every_reader_fails_cleanly) {
    using C = TypeParam;
    temp_dir dir;
    const toy_circuit<C> circuit;
    const std::string zkey_path = dir.write("toy.zkey", toy_zkey<C>(3).build().build());
    const std::string wtns_path = dir.write("toy.wtns", circuit.wtns().build());
    const std::string r1cs_path = dir.write("toy.r1cs", circuit.r1cs().build());

    const auto z = sweep<zkey<C>>("zkey", [&] { return zkey<C>::read(zkey_path); });
    const auto zs = sweep<zkey<C>>("zkey (no point checks)",
                                   [&] { return zkey<C>::read(zkey_path, zkey_read_options{.check_points = false}); });
    const auto w = sweep<wtns<C>>("wtns", [&] { return wtns<C>::read(wtns_path); });
    const auto r = sweep<r1cs<C>>("r1cs", [&] { return r1cs<C>::read(r1cs_path); });
    // From memory too: the byte_source the fuzzers use.
    const bytes zkey_bytes = toy_zkey<C>(3).build().build();
    const auto zm = sweep<zkey<C>>(
        "zkey (memory)", [&] { return zkey<C>::read(std::make_shared<memory_source>(zkey_bytes, "toy.zkey")); });
    for (const auto& [name, s] : {std::pair{"zkey", z}, {"zkey opts", zs}, {"wtns", w}, {"r1cs", r}, {"zkey mem", zm}})
        std::printf("%s %s: %ld allocation points, failed with bad_alloc %ld, with cuzk::error %ld\n",
                    std::string(C::name).c_str(), name, s.allocations, s.failed_with_bad_alloc,
                    s.failed_with_cuzk_error);
}

/// Reads `b` expecting decode_error; returns the largest allocation request made meanwhile.
template <class Read>
size_t largest_request_before_rejection(const char* what, Read read) {
    fault::scope s;
    try {
        (void)read();
        ADD_FAILURE() << what << ": a header count the file cannot hold was accepted";
    } catch (const decode_error&) {
    } catch (const std::exception& e) {
        ADD_FAILURE() << what << ": expected decode_error, got " << e.what();
    }
    return fault::largest;
}

void put32(bytes& b, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + i] = uint8_t(v >> (8 * i));
}

// Header counts near 2^32 are rejected before allocating anything of that size: the largest
// request stays within the file's size plus the section reader's 64 KiB buffer.
TYPED_TEST(IoAllocFaults, absurd_counts_fail_before_allocating) {
    using C = TypeParam;
    using fr = typename C::fr;
    constexpr size_t n8r = sizeof(typename fr::integer), n8q = sizeof(typename C::fq::integer);
    const toy_circuit<C> circuit;
    auto bound = [](const bytes& file) { return 2 * file.size() + (size_t(1) << 16) + 4096; };
    for (uint32_t huge : {0xffffffffu, 0x80000000u, 0x10000000u}) {
        // wtns: section 1 = n8, prime, nWitness (the wtns sections are 1 then 2).
        {
            bytes b = circuit.wtns().build();
            put32(b, 12 + 12 + 4 + n8r, huge);
            const size_t got = largest_request_before_rejection(
                "wtns nWitness", [&] { return wtns<C>::read(source_of(b, "huge.wtns")); });
            EXPECT_LE(got, bound(b)) << "wtns nWitness = " << huge;
        }
        // r1cs: header section (second in the file) ... nLabels (u64), nConstraints last.
        {
            auto c = circuit.r1cs();
            auto& header = c.sections[1].second;
            put32(header, header.size() - 4, huge);  // nConstraints
            const bytes b = c.build();
            const size_t got = largest_request_before_rejection(
                "r1cs nConstraints", [&] { return r1cs<C>::read(source_of(b, "huge.r1cs")); });
            EXPECT_LE(got, bound(b)) << "r1cs nConstraints = " << huge;
        }
        {
            auto c = circuit.r1cs();
            put32(c.sections[0].second, 0, huge);  // the first constraint's A has `huge` terms
            const bytes b = c.build();
            const size_t got = largest_request_before_rejection(
                "r1cs nTerms", [&] { return r1cs<C>::read(source_of(b, "huge.r1cs")); });
            EXPECT_LE(got, bound(b)) << "r1cs nTerms = " << huge;
        }
        // zkey: section 2 = n8q, q, n8r, r, nVars, nPublic, domainSize, points.
        const size_t counts_at = 4 + n8q + 4 + n8r;
        for (size_t field = 0; field < 3; ++field) {
            auto c = toy_zkey<C>(3).build();
            auto& s2 = c.sections[1].second;
            put32(s2, counts_at + 4 * field, field == 2 ? 0x80000000u : huge);  // domainSize: a power of two
            const bytes b = c.build();
            const size_t got = largest_request_before_rejection(
                "zkey counts", [&] { return zkey<C>::read(source_of(b, "huge.zkey")); });
            EXPECT_LE(got, bound(b)) << "zkey header count " << field << " = " << huge;
        }
        {
            auto c = toy_zkey<C>(3).build();
            put32(c.sections[2].second, 0, huge);  // section 4: nCoeffs
            const bytes b = c.build();
            const size_t got = largest_request_before_rejection(
                "zkey nCoeffs", [&] { return zkey<C>::read(source_of(b, "huge.zkey")); });
            EXPECT_LE(got, bound(b)) << "zkey nCoeffs = " << huge;
        }
    }
}

}  // namespace
