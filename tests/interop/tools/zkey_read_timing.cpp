// SPDX-License-Identifier: MIT OR Apache-2.0
// Times io::zkey::read on a large synthetic Groth16 zkey and reports peak RSS (which shows
// that the reader holds one copy of the key: peak RSS ~ file size).
//   zkey_read_timing LOG2_SIZE bn128|bls12381 [DIR]      write DIR/cuzk_zkey_read_timing.zkey, time
//                                                        3 reads with and without on-curve checks,
//                                                        print the medians, delete the file
//   zkey_read_timing --write LOG2_SIZE bn128|bls12381 FILE   only write the key
//   zkey_read_timing --read FILE bn128|bls12381 [REPS]       time REPS (default 5) checked reads of
//                                                        an existing key, then the abc_rows build
//                                                        of the last one (what cuzk-prove does)
// The key: nVars = domainSize = 2^LOG2_SIZE, 2^(LOG2_SIZE+1) coefficients, points cycling through
// 64 random curve points. --read exists so that two builds can be timed interleaved on one file;
// warm it first (cat FILE > /dev/null): the machine's page cache is reclaimed when idle.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "cuzk/io/zkey_groth16.hpp"
#include "test_io_synth.hpp"

using namespace cuzk::io;

namespace {

template <class Curve>
void write_key(const std::string& path, uint32_t log_n) {
    using fq = typename Curve::fq;
    using fr = typename Curve::fr;
    using g1 = typename Curve::g1_point;
    using g2 = typename Curve::g2_point;
    const uint32_t n = 1u << log_n, npub = 1;
    std::mt19937_64 rng(1);
    std::vector<g1> p1;
    std::vector<g2> p2;
    for (int i = 0; i < 64; ++i) {
        p1.push_back(iotest::random_on_curve<g1>(Curve::g1_b(), rng));
        p2.push_back(iotest::random_on_curve<g2>(Curve::g2_b(), rng));
    }
    std::ofstream out(path, std::ios::binary);
    auto put = [&](const iotest::bytes& b) { out.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size())); };
    auto section = [&](uint32_t id, const iotest::bytes& b) {
        iotest::writer w;
        w.u32(id).u64(b.size());
        put(w.b);
        put(b);
    };
    iotest::writer h;
    h.raw("zkey", 4).u32(1).u32(9);
    put(h.b);
    iotest::writer s1, s2, s3, s4;
    s1.u32(1);
    section(1, s1.b);
    s2.u32(uint32_t(sizeof(typename fq::integer))).integer(fq::modulus).u32(32).integer(fr::modulus).u32(n).u32(npub).u32(n);
    s2.point(p1[0]).point(p1[1]).point(p2[0]).point(p2[1]).point(p1[2]).point(p2[2]);
    section(2, s2.b);
    for (uint32_t i = 0; i <= npub; ++i) s3.point(p1[i]);
    section(3, s3.b);
    s4.u32(2 * n);
    for (uint32_t i = 0; i < 2 * n; ++i) s4.u32(i & 1).u32(i / 2).u32(i / 2).integer(fr::from_u64(i + 1).mont);
    section(4, s4.b);
    auto g1_section = [&](uint32_t id, uint32_t count) {
        iotest::writer w;
        for (uint32_t i = 0; i < count; ++i) w.point(p1[i % 64]);
        section(id, w.b);
    };
    g1_section(5, n);
    g1_section(6, n);
    {
        iotest::writer w;
        for (uint32_t i = 0; i < n; ++i) w.point(p2[i % 64]);
        section(7, w.b);
    }
    g1_section(8, n - npub - 1);
    g1_section(9, n);
}

template <class Curve>
void run(uint32_t log_n, const std::string& dir) {
    const std::string path = dir + "/cuzk_zkey_read_timing.zkey";
    write_key<Curve>(path, log_n);
    const double mb = double(std::filesystem::file_size(path)) / 1e6;
    for (bool check : {false, true}) {
        std::vector<double> t;
        for (int rep = 0; rep < 3; ++rep) {
            const auto t0 = std::chrono::steady_clock::now();
            const auto z = zkey<Curve>::read(path, zkey_read_options{.check_points = check});
            t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        }
        std::sort(t.begin(), t.end());
        struct rusage ru {};
        getrusage(RUSAGE_SELF, &ru);
        std::printf("%s 2^%u check_points=%d: file %.0f MB, median read %.3f s (%.0f MB/s), peak RSS %.0f MB\n",
                    Curve::name.data(), log_n, int(check), mb, t[1], mb / t[1], double(ru.ru_maxrss) / 1e3);
    }
    std::filesystem::remove(path);
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// User + system CPU time of this process so far.
double cpu_seconds() {
    struct rusage ru {};
    getrusage(RUSAGE_SELF, &ru);
    auto s = [](const timeval& t) { return double(t.tv_sec) + 1e-6 * double(t.tv_usec); };
    return s(ru.ru_utime) + s(ru.ru_stime);
}

template <class Curve>
void read_existing(const std::string& path, int reps) {
    const double mb = double(std::filesystem::file_size(path)) / 1e6;
    std::vector<double> t;
    zkey<Curve> z;
    for (int rep = 0; rep < reps; ++rep) {
        z = {};  // the previous key's memory is returned before the next read
        const double cpu0 = cpu_seconds();
        const auto t0 = std::chrono::steady_clock::now();
        z = zkey<Curve>::read(path);
        t.push_back(seconds_since(t0));
        std::printf("read %d: %.3f s (%.0f MB/s), %.3f CPU-s\n", rep, t.back(), mb / t.back(), cpu_seconds() - cpu0);
    }
    const auto t0 = std::chrono::steady_clock::now();
    abc_rows<typename Curve::fr> rows(z.coeffs, z.domain_size, z.n_vars);
    const double rows_s = seconds_since(t0);
    std::sort(t.begin(), t.end());
    struct rusage ru {};
    getrusage(RUSAGE_SELF, &ru);
    std::printf("%s %s: file %.0f MB, checked read median %.3f s (%.3f-%.3f, %.0f MB/s), abc_rows %.3f s "
                "(%zu entries), peak RSS %.0f MB\n",
                Curve::name.data(), path.c_str(), mb, t[t.size() / 2], t.front(), t.back(), mb / t[t.size() / 2],
                rows_s, rows.entries(), double(ru.ru_maxrss) / 1e3);
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    auto usage = [&] {
        std::fprintf(stderr,
                     "usage: %s LOG2_SIZE bn128|bls12381 [DIR]\n"
                     "       %s --write LOG2_SIZE bn128|bls12381 FILE\n"
                     "       %s --read FILE bn128|bls12381 [REPS]\n",
                     argv[0], argv[0], argv[0]);
        return 2;
    };
    if (mode == "--write") {
        if (argc != 5) return usage();
        const uint32_t k = uint32_t(std::stoul(argv[2]));
        if (std::string(argv[3]) == "bls12381") write_key<bls12381>(argv[4], k);
        else write_key<bn128>(argv[4], k);
        return 0;
    }
    if (mode == "--read") {
        if (argc < 4) return usage();
        const int reps = argc > 4 ? std::stoi(argv[4]) : 5;
        if (reps < 1) return usage();
        if (std::string(argv[3]) == "bls12381") read_existing<bls12381>(argv[2], reps);
        else read_existing<bn128>(argv[2], reps);
        return 0;
    }
    if (argc < 3) return usage();
    const uint32_t k = uint32_t(std::stoul(argv[1]));
    const std::string dir = argc > 3 ? argv[3] : std::filesystem::temp_directory_path().string();
    if (std::string(argv[2]) == "bls12381") run<bls12381>(k, dir);
    else run<bn128>(k, dir);
    return 0;
}
