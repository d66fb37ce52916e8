// SPDX-License-Identifier: MIT OR Apache-2.0
// Helpers shared by the ec tests: an independent affine oracle (chord and tangent with field
// inversions, written from the textbook group law, not from ec/), random points, and
// re-randomised projective representations of the same point.
#pragma once

#include <cstdint>
#include <fstream>
#include <iterator>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/curves/bn254.hpp"
#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ec/xyzz.hpp"

namespace ec_test {

using namespace cuzk;

/// Textbook affine addition on y^2 = x^3 + b with (0, 0) as the identity.
template <class G>
affine<G> oracle_add(const affine<G>& p, const affine<G>& q) {
    using F = typename G::field;
    if (p.is_identity()) return q;
    if (q.is_identity()) return p;
    F lambda{};
    if (p.x == q.x) {
        if (p.y != q.y || p.y.is_zero()) return affine<G>::identity();  // P + (-P)
        F three_x2 = p.x.square() + p.x.square() + p.x.square();
        lambda = three_x2 * (p.y + p.y).inverse();
    } else {
        lambda = (q.y - p.y) * (q.x - p.x).inverse();
    }
    F x3 = lambda.square() - p.x - q.x;
    F y3 = lambda * (p.x - x3) - p.y;
    return affine<G>{x3, y3};
}

/// [k]P by plain double-and-add over the oracle (k as a bigint of any width).
template <class G, size_t N>
affine<G> oracle_mul(const affine<G>& p, const bigint<N>& k) {
    affine<G> acc = affine<G>::identity();
    for (size_t i = k.num_bits(); i-- > 0;) {
        acc = oracle_add(acc, acc);
        if (k.bit(i)) acc = oracle_add(acc, p);
    }
    return acc;
}

/// A uniformly random point of the whole curve E(F) (usually outside the subgroup when the
/// cofactor is not 1): random x until x^3 + b is a square, random sign.
template <class G, class Rng>
affine<G> random_curve_point(Rng& rng) {
    using F = typename G::field;
    constexpr F b = G::b;
    for (;;) {
        F x = F::random(rng);
        auto y = (x.square() * x + b).sqrt();
        if (!y) continue;
        return affine<G>{x, (rng() & 1) ? *y : -*y};
    }
}

/// A random point of the prime-order subgroup: [k]G by the oracle's double-and-add.
template <class G, class Rng>
affine<G> random_subgroup_point(Rng& rng) {
    auto k = G::scalar::random(rng).to_canonical();
    return oracle_mul(affine<G>::generator(), k);
}

/// A non-zero random field element.
template <class F, class Rng>
F random_nonzero(Rng& rng) {
    for (;;) {
        F z = F::random(rng);
        if (!z.is_zero()) return z;
    }
}

/// The same point in Jacobian coordinates with a random Z: (x z^2, y z^3, z).
template <class G, class Rng>
jacobian<G> rescaled_jacobian(const affine<G>& a, Rng& rng) {
    using F = typename G::field;
    if (a.is_identity()) return jacobian<G>{F::random(rng), F::random(rng), F::zero()};  // any Z = 0 is O
    F z = random_nonzero<F>(rng);
    F z2 = z.square();
    return jacobian<G>{a.x * z2, a.y * z2 * z, z};
}

/// The same point in XYZZ coordinates with a random Z: (x z^2, y z^3, z^2, z^3).
template <class G, class Rng>
xyzz<G> rescaled_xyzz(const affine<G>& a, Rng& rng) {
    using F = typename G::field;
    if (a.is_identity()) return xyzz<G>{F::random(rng), F::random(rng), F::zero(), F::zero()};
    F z = random_nonzero<F>(rng);
    F z2 = z.square();
    return xyzz<G>{a.x * z2, a.y * z2 * z, z2, z2 * z};
}

/// A whole file as bytes (empty when it cannot be read).
inline std::vector<uint8_t> read_bytes(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}
inline std::string read_text(const std::string& path) {
    auto b = read_bytes(path);
    return std::string(b.begin(), b.end());
}

/// Hex (optional 0x prefix, possibly empty) to bytes.
inline std::vector<uint8_t> from_hex(std::string h) {
    if (h.rfind("0x", 0) == 0) h = h.substr(2);
    std::vector<uint8_t> out;
    for (size_t i = 0; i + 1 < h.size(); i += 2) out.push_back(uint8_t(std::stoul(h.substr(i, 2), nullptr, 16)));
    return out;
}
template <class Bytes>
std::string to_hex(const Bytes& b) {
    static const char* d = "0123456789abcdef";
    std::string s;
    for (uint8_t c : b) {
        s += d[c >> 4];
        s += d[c & 15];
    }
    return s;
}

/// One record of a go-ethereum precompile JSON file: its string fields by key.
struct json_record {
    std::string input, expected, expected_error, name;
};
/// Parses the flat array-of-objects files of eth-precompiles/ (string values only; no nesting).
inline std::vector<json_record> read_precompile_json(const std::string& path) {
    std::string text = read_text(path);
    std::vector<json_record> out;
    static const std::regex kv("\"(\\w+)\"\\s*:\\s*\"([^\"]*)\"");
    size_t pos = 0;
    while ((pos = text.find('{', pos)) != std::string::npos) {
        size_t end = text.find('}', pos);
        std::string obj = text.substr(pos, end - pos);
        json_record r;
        for (std::sregex_iterator it(obj.begin(), obj.end(), kv), e; it != e; ++it) {
            const std::string k = (*it)[1], v = (*it)[2];
            if (k == "Input") r.input = v;
            if (k == "Expected") r.expected = v;
            if (k == "ExpectedError") r.expected_error = v;
            if (k == "Name") r.name = v;
        }
        out.push_back(r);
        pos = end;
    }
    return out;
}

}  // namespace ec_test
