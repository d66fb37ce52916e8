// SPDX-License-Identifier: MIT OR Apache-2.0
// The host MSM against blst's (supranational/blst, blst_p1s_mult_pippenger and
// blst_p2s_mult_pippenger: single-threaded) on the same BLS12-381 points and scalars: the per-MSM
// anchor of the CPU prover. Built only when CMake is given CUZK_BLST_DIR (a blst tree built with
// its build.sh); scripts/blst-msm-bench.sh builds blst and runs this.
//
//   peer_msm_blst [LOG_SIZES...] [--rounds R] [--g2]      (default: 16 18, 3 rounds, G1 only)
//
// Every size is checked first: cuzk's result and blst's both equal the closed form of the
// points' progression (tests/test_msm_util.hpp), an independent oracle. Then R rounds, each
// timing blst (one thread), cuzk on one thread and cuzk on every thread, interleaved; medians.
// blst's scratch is allocated outside the timing. The points are passed to blst as they are:
// cuzk's affine points (Montgomery form over R = 2^384, the identity as (0, 0)) have blst's
// byte layout, which the checks confirm.
#include <blst.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#if defined(_OPENMP)
#include <omp.h>
#endif

#include "../../tests/test_msm_util.hpp"
#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/msm/pippenger_host.hpp"

namespace {

using namespace cuzk;
using namespace msm_test;

template <class G>
struct blst_of;
template <>
struct blst_of<bls12_381::g1> {
    using affine_t = blst_p1_affine;
    using point_t = blst_p1;
    static size_t scratch(size_t n) { return blst_p1s_mult_pippenger_scratch_sizeof(n); }
    static void msm(point_t* r, const affine_t* const* p, size_t n, const byte* const* s, limb_t* scratch) {
        blst_p1s_mult_pippenger(r, p, n, s, 255, scratch);
    }
    static void to_affine(affine_t* a, const point_t* p) { blst_p1_to_affine(a, p); }
};
template <>
struct blst_of<bls12_381::g2> {
    using affine_t = blst_p2_affine;
    using point_t = blst_p2;
    static size_t scratch(size_t n) { return blst_p2s_mult_pippenger_scratch_sizeof(n); }
    static void msm(point_t* r, const affine_t* const* p, size_t n, const byte* const* s, limb_t* scratch) {
        blst_p2s_mult_pippenger(r, p, n, s, 255, scratch);
    }
    static void to_affine(affine_t* a, const point_t* p) { blst_p2_to_affine(a, p); }
};

template <class F>
double ms_of(F&& f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

template <class G>
bool run(const char* name, const std::vector<unsigned>& logs, unsigned rounds) {
    using B = blst_of<G>;
    static_assert(sizeof(affine<G>) == sizeof(typename B::affine_t), "cuzk's affine point is blst's layout");
    const size_t max_n = size_t(1) << *std::max_element(logs.begin(), logs.end());
    const auto prog = progression<G>::make(2026, 1024);
    const std::vector<affine<G>> points = prog.points(max_n);
    const std::vector<scalar_int<G>> scalars = random_scalars<G>(max_n, 7);
    // Contiguous arrays: blst reads points[0] and scalars[0] as arrays when the second entry is null.
    const typename B::affine_t* pp[2] = {reinterpret_cast<const typename B::affine_t*>(points.data()), nullptr};
    const byte* sp[2] = {reinterpret_cast<const byte*>(scalars.data()), nullptr};
    int threads = 1;
#if defined(_OPENMP)
    threads = omp_get_max_threads();
#endif
    bool ok = true;
    for (unsigned lg : logs) {
        const size_t n = size_t(1) << lg;
        std::span<const affine<G>> p(points.data(), n);
        std::span<const scalar_int<G>> s(scalars.data(), n);
        std::vector<limb_t> scratch(B::scratch(n) / sizeof(limb_t) + 1);
        const jacobian<G> expected = prog.expected(s);
        typename B::point_t r;
        B::msm(&r, pp, n, sp, scratch.data());
        affine<G> blst_result;
        B::to_affine(reinterpret_cast<typename B::affine_t*>(&blst_result), &r);
        const bool blst_ok = expected == blst_result;
        const bool one_ok = msm::msm_host<G>(p, s, {.threads = 1}) == expected;
        const bool all_ok = msm::msm_host<G>(p, s) == expected;
        if (!blst_ok || !one_ok || !all_ok) {
            std::printf("%s 2^%u: MISMATCH against the closed form (blst %d, cuzk 1 thread %d, cuzk %d threads %d)\n",
                        name, lg, blst_ok, one_ok, threads, all_ok);
            ok = false;
            continue;
        }
        std::vector<double> tb, t1, tn;
        for (unsigned k = 0; k < rounds; ++k) {
            tb.push_back(ms_of([&] { B::msm(&r, pp, n, sp, scratch.data()); }));
            t1.push_back(ms_of([&] { (void)msm::msm_host<G>(p, s, {.threads = 1}); }));
            tn.push_back(ms_of([&] { (void)msm::msm_host<G>(p, s); }));
        }
        std::printf("%s 2^%u: verified; ms, medians of %u interleaved rounds: blst (1 thread) %.1f | cuzk 1 thread %.1f "
                    "(%.2fx blst's time) | cuzk %d threads %.1f\n",
                    name, lg, rounds, median(tb), median(t1), median(t1) / median(tb), threads, median(tn));
        std::fflush(stdout);
    }
    return ok;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<unsigned> logs;
    unsigned rounds = 3;
    bool g2 = false;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = unsigned(std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--g2")) g2 = true;
        else logs.push_back(unsigned(std::atoi(argv[i])));
    }
    if (logs.empty()) logs = {16, 18};
    for (unsigned lg : logs)
        if (lg < 1 || lg > 24) {
            std::fprintf(stderr, "peer_msm_blst: log sizes are 1..24\n");
            return 2;
        }
    bool ok = run<bls12_381::g1>("BLS12-381 G1", logs, rounds);
    if (g2) ok = run<bls12_381::g2>("BLS12-381 G2", logs, rounds) && ok;
    return ok ? 0 : 1;
}
