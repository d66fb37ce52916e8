// Times io::zkey::read on a large synthetic Groth16 zkey and reports peak RSS (which shows
// that the reader holds one copy of the key: peak RSS ~ file size).
//   zkey_read_timing LOG2_SIZE bn128|bls12381 [DIR]
// Writes DIR/cuzk_zkey_read_timing.zkey (nVars = domainSize = 2^LOG2_SIZE, 2^(LOG2_SIZE+1)
// coefficients; points cycle through 64 random curve points), reads it 3 times with and
// without on-curve checks, prints the median times, and deletes the file.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "cuzk/io/zkey.hpp"
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

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s LOG2_SIZE bn128|bls12381 [DIR]\n", argv[0]);
        return 2;
    }
    const uint32_t k = uint32_t(std::stoul(argv[1]));
    const std::string dir = argc > 3 ? argv[3] : std::filesystem::temp_directory_path().string();
    if (std::string(argv[2]) == "bls12381") run<bls12381>(k, dir);
    else run<bn128>(k, dir);
    return 0;
}
