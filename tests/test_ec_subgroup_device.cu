// SPDX-License-Identifier: MIT OR Apache-2.0
// The device subgroup check (ec/subgroup_device.cuh) and the .params reader's GPU option
// (io/subgroup_check_device.cuh) against the host: per-point verdicts equal the host's
// is_in_subgroup (itself checked against [r]P == O in test_ec_subgroup, and here against
// [r]P == O on a sample) on subgroup points, the identity, random curve points, pure cofactor
// torsion [r]Q, torsion plus a subgroup point, and BLS12-381 G1's order-3 points; the streamed
// first-failure index equals the host's first failure whatever chunk and lane count; and a
// .params file read with the subgroup check on the GPU gives the host path's verdict and exact
// error message on every broken file of test_io_params' kinds (a point outside the subgroup in
// each section, the held-out points of its PointOutsideTheSubgroup case, off the curve, order 3,
// the identity, flags, range) and on combinations where the first failure in file order is a
// subgroup failure before a decoding failure, or the reverse. Skips without a GPU.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/curves/bn254.hpp"
#include "cuzk/ec/batch_normalize.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/ec/subgroup.hpp"
#include "cuzk/gpu/device_buffer.hpp"
#include "cuzk/gpu/stream.hpp"
#include "cuzk/io/bellperson_params.hpp"
#include "cuzk/io/subgroup_check_device.cuh"
#include "cuzk/io/zcash_encoding.hpp"
#include "gpu_test.hpp"
#include "test_ec_util.hpp"

namespace {

using namespace cuzk;
using ec_test::random_curve_point;
using ec_test::random_subgroup_point;

/// n distinct subgroup points: running sums of a few random subgroup points (cheap, and each a
/// different multiple of the generator).
template <class G>
std::vector<affine<G>> subgroup_points(std::mt19937_64& rng, size_t n) {
    std::vector<affine<G>> steps;
    for (int i = 0; i < 5; ++i) steps.push_back(random_subgroup_point<G>(rng));
    std::vector<jacobian<G>> acc(n);
    jacobian<G> s = jacobian<G>::from_affine(steps[0]);
    for (size_t i = 0; i < n; ++i) {
        s += steps[i % steps.size()];
        acc[i] = s;
    }
    return batch_normalize<jacobian<G>>(std::span<const jacobian<G>>(acc));
}

/// Points on the curve that are (usually) outside the subgroup, of several kinds: a random curve
/// point, its cofactor-torsion part [r]Q, and [r]Q plus a subgroup point.
template <class G>
std::vector<affine<G>> off_subgroup_points(std::mt19937_64& rng, size_t n) {
    std::vector<affine<G>> out;
    const auto r = G::scalar::modulus;
    const auto in_g = subgroup_points<G>(rng, 16);
    while (out.size() < n) {
        const auto q = random_curve_point<G>(rng);
        const auto t = to_affine(mul_vartime(jacobian<G>::from_affine(q), r));  // order divides h
        out.push_back(q);
        if (!t.is_identity()) {
            out.push_back(t);
            out.push_back(to_affine(jacobian<G>::from_affine(t) + in_g[out.size() % in_g.size()]));
        }
    }
    out.resize(n);
    if constexpr (std::is_same_v<G, bls12_381::g1>) {  // (0, +-2): order 3
        out.push_back(affine<G>{bls12_381::fp::zero(), bls12_381::fp::from_u64(2)});
        out.push_back(affine<G>{bls12_381::fp::zero(), -bls12_381::fp::from_u64(2)});
    }
    return out;
}

template <class G>
std::vector<uint8_t> device_verdicts(const std::vector<affine<G>>& pts) {
    gpu::stream s;
    gpu::device_buffer<affine<G>> d(pts.size(), s);
    gpu::device_buffer<uint8_t> v(pts.size(), s);
    d.upload(pts.data(), s);
    subgroup_verdicts_async<G>(v.data(), d.data(), pts.size(), s);
    std::vector<uint8_t> out(pts.size());
    v.download(out.data(), s);
    s.synchronize();
    return out;
}

template <class G>
class ec_subgroup_device : public ::testing::Test {};
using groups = ::testing::Types<bls12_381::g1, bls12_381::g2, bn254::g1, bn254::g2>;
TYPED_TEST_SUITE(ec_subgroup_device, groups);

}  // namespace

TYPED_TEST(ec_subgroup_device, verdicts_equal_the_host) {
    SKIP_WITHOUT_GPU();
    using G = TypeParam;
    std::mt19937_64 rng(41);
    std::vector<affine<G>> pts = subgroup_points<G>(rng, 1000);
    pts.push_back(affine<G>::identity());
    pts.push_back(affine<G>::generator());
    const auto off = off_subgroup_points<G>(rng, 600);
    pts.insert(pts.end(), off.begin(), off.end());
    std::shuffle(pts.begin(), pts.end(), rng);
    const auto got = device_verdicts(pts);
    size_t in = 0;
    for (size_t i = 0; i < pts.size(); ++i) {
        const bool host = is_in_subgroup(pts[i]);
        in += host;
        ASSERT_EQ(bool(got[i]), host) << i;
        if (i < 64) {  // the definition as an independent oracle on a sample
            ASSERT_EQ(host, is_in_subgroup_by_order(jacobian<G>::from_affine(pts[i]))) << i;
        }
    }
    if (G::cofactor.num_bits() == 1) {
        EXPECT_EQ(in, pts.size());
    } else {
        EXPECT_EQ(in, 1002u);  // the off-subgroup kinds never land in G here
    }
}

TYPED_TEST(ec_subgroup_device, streamed_first_failure_equals_the_host) {
    SKIP_WITHOUT_GPU();
    using G = TypeParam;
    std::mt19937_64 rng(42);
    const auto good = subgroup_points<G>(rng, 2000);
    const auto bad = off_subgroup_points<G>(rng, 4);
    gpu::stream s;
    EXPECT_EQ(first_not_in_subgroup_device<G>(std::span<const affine<G>>(), s), 0u);
    const bool trivial = G::cofactor.num_bits() == 1;
    for (const subgroup_stream_config cfg : {subgroup_stream_config{37, 3}, subgroup_stream_config{37, 1},
                                             subgroup_stream_config{64, 2}, subgroup_stream_config{}}) {
        EXPECT_EQ(first_not_in_subgroup_device<G>(std::span(good), s, cfg), good.size());
        for (size_t at : {size_t(0), size_t(1), size_t(36), size_t(37), size_t(38), size_t(1000), size_t(1999)}) {
            auto v = good;
            v[at] = bad[at % bad.size()];
            const uint64_t want = trivial ? v.size() : at;
            EXPECT_EQ(first_not_in_subgroup_device<G>(std::span(v), s, cfg), want) << at << " chunk "
                                                                                    << cfg.chunk_points;
        }
        auto v = good;  // several failures in different chunks and lanes: the least index wins
        for (size_t at : {size_t(1900), size_t(1500), size_t(300), size_t(301)}) v[at] = bad[at % bad.size()];
        EXPECT_EQ(first_not_in_subgroup_device<G>(std::span(v), s, cfg), trivial ? v.size() : 300u);
    }
    // One staging reused over arrays, a slot of 37 points and 2 lanes (the reader's hook keeps one).
    subgroup_staging st(37 * sizeof(affine<G>), 2);
    for (size_t at : {size_t(1234), size_t(3), size_t(40)}) {
        auto v = good;
        v[at] = bad[0];
        EXPECT_EQ(first_not_in_subgroup_device<G>(std::span(v), s, st), trivial ? v.size() : at) << at;
        EXPECT_EQ(first_not_in_subgroup_device<G>(std::span(good), s, st), good.size());
    }
    // The identity is in the group.
    auto v = good;
    v[5] = affine<G>::identity();
    EXPECT_EQ(first_not_in_subgroup_device<G>(std::span(v), s, {16, 3}), v.size());
}

// ---- the .params reader -------------------------------------------------------------------------

namespace {

using G1 = bls12_381::g1;
using G2 = bls12_381::g2;
using bytes = std::vector<uint8_t>;
namespace fs = std::filesystem;

void put_u32(bytes& out, uint32_t v) {
    for (int i = 3; i >= 0; --i) out.push_back(uint8_t(v >> (8 * i)));
}
template <class G>
void put_point(bytes& out, const affine<G>& p) {
    const auto e = zcash::serialize_uncompressed(p);
    out.insert(out.end(), e.begin(), e.end());
}
template <class G>
void put_section(bytes& out, std::span<const affine<G>> pts) {
    put_u32(out, uint32_t(pts.size()));
    for (const auto& p : pts) put_point(out, p);
}

/// A .params file in bellperson's layout (the reader takes any counts): subgroup points only.
/// Sections long enough to span several of the GPU's chunks (chunk_points below) and of the
/// host decoder's chunks.
struct params_fixture {
    std::vector<affine<G1>> g1;
    std::vector<affine<G2>> g2;
    bytes file;
    io::bellperson_layout layout;
    params_fixture() {
        std::mt19937_64 rng(43);
        g1 = subgroup_points<G1>(rng, 1300);
        g2 = subgroup_points<G2>(rng, 200);
        put_point(file, g1[0]);  // alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2
        put_point(file, g1[1]);
        put_point(file, g2[0]);
        put_point(file, g2[1]);
        put_point(file, g1[2]);
        put_point(file, g2[2]);
        const std::span<const affine<G1>> s1(g1);
        put_section(file, s1.subspan(3, 3));      // IC
        put_section(file, s1.subspan(10, 511));   // H
        put_section(file, s1.subspan(600, 300));  // L
        put_section(file, s1.subspan(900, 200));  // A
        put_section(file, s1.subspan(1100, 190)); // B_G1
        put_section(file, std::span<const affine<G2>>(g2).subspan(5, 180));  // B_G2
        layout = io::scan_bellperson_params(file);
    }
};
const params_fixture& fixture() {
    static const params_fixture f;
    return f;
}

template <size_t N>
bytes with_point(bytes f, const io::bellperson_section& s, uint64_t i, const std::array<uint8_t, N>& e) {
    EXPECT_EQ(N, s.point_size);
    std::copy(e.begin(), e.end(), f.begin() + std::ptrdiff_t(s.offset + i * s.point_size));
    return f;
}

struct temp_file {
    fs::path path;
    explicit temp_file(const std::string& tag)
        : path(fs::temp_directory_path() / ("cuzk_sgdev_" + std::to_string(::getpid()) + "_" + tag)) {}
    ~temp_file() {
        std::error_code ec;
        fs::remove(path, ec);
    }
    void write(const bytes& b) const {
        std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
    }
};

std::string message_of(auto&& read) {
    try {
        read();
        return "";
    } catch (const decode_error& e) {
        return e.what();
    }
}

/// The GPU path: small chunks so that every section spans several chunks and all three lanes.
io::bellperson_read_options gpu_options() {
    return {.check_subgroup = true, .subgroup_batch = io::gpu_subgroup_check(-1, {.chunk_points = 16, .lanes = 3})};
}

/// Reads b with the subgroup check on the host and on the GPU, from memory and from a file:
/// the four messages must be the same (the file's path replaced by the memory name); returns it.
std::string same_verdict(const bytes& b) {
    const std::string host = message_of(
        [&] { (void)io::read_bellperson_params(std::span<const uint8_t>(b), "t.params", {.check_subgroup = true}); });
    const std::string gpu =
        message_of([&] { (void)io::read_bellperson_params(std::span<const uint8_t>(b), "t.params", gpu_options()); });
    EXPECT_EQ(gpu, host) << "the GPU check and the host check disagree (memory)";
    temp_file f("t.params");
    f.write(b);
    const std::string path = f.path.string();
    std::string from_file = message_of([&] { (void)io::read_bellperson_params(path, gpu_options()); });
    if (from_file.rfind(path, 0) == 0) from_file = "t.params" + from_file.substr(path.size());
    EXPECT_EQ(from_file, host) << "the GPU check from a file and the host check disagree";
    return host;
}

bool says(const std::string& e, const char* section, uint64_t i, const char* what) {
    return e.find(std::string(section) + " point " + std::to_string(i) + " (") != std::string::npos &&
           e.find(what) != std::string::npos;
}

constexpr const char* not_in_subgroup = "not in the prime-order subgroup";

}  // namespace

TEST(SubgroupParamsDevice, CleanFileReadsTheSameOnTheGpu) {
    SKIP_WITHOUT_GPU();
    const auto& fx = fixture();
    EXPECT_EQ(same_verdict(fx.file), "");
    const auto host = io::read_bellperson_params(std::span<const uint8_t>(fx.file), "t", {.check_subgroup = true});
    const auto gpu = io::read_bellperson_params(std::span<const uint8_t>(fx.file), "t", gpu_options());
    EXPECT_EQ(gpu.h, host.h);
    EXPECT_EQ(gpu.l, host.l);
    EXPECT_EQ(gpu.a, host.a);
    EXPECT_EQ(gpu.b_g1, host.b_g1);
    EXPECT_EQ(gpu.b_g2, host.b_g2);
    EXPECT_EQ(gpu.vk.key.ic, host.vk.key.ic);
}

TEST(SubgroupParamsDevice, PointOutsideTheSubgroupInEverySection) {
    SKIP_WITHOUT_GPU();
    const auto& fx = fixture();
    const auto& l = fx.layout;
    std::mt19937_64 rng(44);
    const auto off1 = off_subgroup_points<G1>(rng, 8);
    const auto off2 = off_subgroup_points<G2>(rng, 8);
    for (const io::bellperson_section* s : {&l.h, &l.l, &l.a, &l.b_g1, &l.b_g2}) {
        for (uint64_t i : {uint64_t(0), uint64_t(1), uint64_t(15), uint64_t(16), uint64_t(17), uint64_t(100),
                           s->count - 1}) {
            const bytes t = s->point_size == 96 ? with_point(fx.file, *s, i, zcash::serialize_uncompressed(off1[i % 8]))
                                                : with_point(fx.file, *s, i, zcash::serialize_uncompressed(off2[i % 8]));
            const std::string e = same_verdict(t);
            EXPECT_TRUE(says(e, s->name, i, not_in_subgroup)) << e;
        }
    }
    // The points test_io_params' PointOutsideTheSubgroup puts at B_G1 3 and B_G2 1 (same seed, same order).
    std::mt19937_64 held_out(9);
    const auto q1 = random_curve_point<G1>(held_out);
    const auto q2 = random_curve_point<G2>(held_out);
    ASSERT_FALSE(is_in_subgroup(q1));
    ASSERT_FALSE(is_in_subgroup(q2));
    EXPECT_TRUE(says(same_verdict(with_point(fx.file, l.b_g1, 3, zcash::serialize_uncompressed(q1))), "B_G1", 3,
                     not_in_subgroup));
    EXPECT_TRUE(says(same_verdict(with_point(fx.file, l.b_g2, 1, zcash::serialize_uncompressed(q2))), "B_G2", 1,
                     not_in_subgroup));
    // (0, 2), of order 3, is the decoder's rejection (x = 0) before any subgroup test: same message.
    const affine<G1> t3{bls12_381::fp::zero(), bls12_381::fp::from_u64(2)};
    EXPECT_TRUE(says(same_verdict(with_point(fx.file, l.a, 7, zcash::serialize_uncompressed(t3))), "A", 7, "order 3"));
}

TEST(SubgroupParamsDevice, FirstFailureInFileOrderWhicheverCheckFindsIt) {
    SKIP_WITHOUT_GPU();
    const auto& fx = fixture();
    const auto& l = fx.layout;
    std::mt19937_64 rng(45);
    const auto off1 = zcash::serialize_uncompressed(off_subgroup_points<G1>(rng, 1)[0]);
    const auto off2 = zcash::serialize_uncompressed(off_subgroup_points<G2>(rng, 1)[0]);
    auto off_curve = [&](uint64_t i) {
        auto q = fx.g1[10 + i];  // H point i
        q.y += bls12_381::fp::one();
        return zcash::serialize_uncompressed(q);
    };
    const auto inf1 = zcash::serialize_uncompressed(affine<G1>::identity());
    const auto inf2 = zcash::serialize_uncompressed(affine<G2>::identity());
    // Two subgroup failures: the lower index, in a section and across sections.
    EXPECT_TRUE(says(same_verdict(with_point(with_point(fx.file, l.h, 400, off1), l.h, 20, off1)), "H", 20,
                     not_in_subgroup));
    EXPECT_TRUE(says(same_verdict(with_point(with_point(fx.file, l.l, 5, off1), l.h, 500, off1)), "H", 500,
                     not_in_subgroup));
    EXPECT_TRUE(says(same_verdict(with_point(with_point(fx.file, l.b_g2, 0, off2), l.b_g1, 189, off1)), "B_G1", 189,
                     not_in_subgroup));
    // A decoding failure before a subgroup failure in the same section, and after it.
    EXPECT_TRUE(says(same_verdict(with_point(with_point(fx.file, l.h, 50, off1), l.h, 30, off_curve(30))), "H", 30,
                     "not on the curve"));
    EXPECT_TRUE(says(same_verdict(with_point(with_point(fx.file, l.h, 10, off1), l.h, 30, off_curve(30))), "H", 10,
                     not_in_subgroup));
    // Across sections: a subgroup failure in H before an identity in L, and the reverse.
    EXPECT_TRUE(says(same_verdict(with_point(with_point(fx.file, l.h, 200, off1), l.l, 3, inf1)), "H", 200,
                     not_in_subgroup));
    EXPECT_TRUE(says(same_verdict(with_point(with_point(fx.file, l.l, 1, off1), l.h, 3, inf1)), "H", 3,
                     "point at infinity"));
    EXPECT_TRUE(says(same_verdict(with_point(with_point(fx.file, l.a, 9, off1), l.b_g2, 0, inf2)), "A", 9,
                     not_in_subgroup));
    // Decoding failures alone (flags, range) read the same with the GPU option.
    auto flagged = zcash::serialize_uncompressed(fx.g2[5]);
    flagged[0] |= 0x80;
    EXPECT_TRUE(says(same_verdict(with_point(fx.file, l.b_g2, 0, flagged)), "B_G2", 0, "compression flag"));
    auto sorted = zcash::serialize_uncompressed(fx.g1[600]);
    sorted[0] |= 0x20;
    EXPECT_TRUE(says(same_verdict(with_point(fx.file, l.l, 0, sorted)), "L", 0, "sort flag"));
    std::array<uint8_t, 96> x_is_p = zcash::serialize_uncompressed(fx.g1[900]);
    for (size_t i = 0; i < 48; ++i) x_is_p[47 - i] = uint8_t(bls12_381::fp::modulus.limb[i / 8] >> (8 * (i % 8)));
    EXPECT_TRUE(says(same_verdict(with_point(fx.file, l.a, 0, x_is_p)), "A", 0, "x is not below"));
    // The verifying key and IC stay on the host path (always checked): same message.
    EXPECT_NE(same_verdict(with_point(fx.file, l.ic, 1, off1)).find("IC point 1"), std::string::npos);
}
