// SPDX-License-Identifier: MIT OR Apache-2.0
// snarkjs_json: proof.json, public.json and verification_key.json as snarkjs reads and writes them.
//
// All numbers are decimal strings of canonical values. Points are projective triples of an
// affine point: G1 ["x", "y", "1"], G2 [["x.c0", "x.c1"], ["y.c0", "y.c1"], ["1", "0"]], and the
// identity ["0", "1", "0"] (G2: [["0","0"],["1","0"],["0","0"]]) as ffjavascript's toObject writes.
// When reading, a triple with z != 1 is taken as Jacobian (x/z^2, y/z^3), as ffjavascript's
// fromObject does. Writers produce exactly snarkjs's bytes (JSON.stringify(_, null, 1)).
// Readers are strict: decimal strings only (no sign, no leading zeros), values below the
// modulus, points on the curve and in the prime-order subgroup (stricter than snarkjs, which
// checks only the curve equation), "protocol" = "groth16" and a "curve" naming this curve
// when present.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/core/bigint.hpp"
#include "cuzk/core/error.hpp"
#include "cuzk/ec/subgroup.hpp"
#include "cuzk/io/atomic_file.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/io/snarkjs_curve.hpp"
#include "cuzk/io/zkey.hpp"

namespace cuzk::io {

// ---- decimal strings ----------------------------------------------------------------------------

/// Decimal digits of an unsigned bigint (no leading zeros; "0" for zero).
template <size_t N>
std::string to_decimal(bigint<N> x) {
    std::string digits;
    constexpr uint64_t chunk = 10000000000000000000ull;  // 10^19 < 2^64
    while (!x.is_zero()) {
        u128 rem = 0;
        for (size_t i = N; i-- > 0;) {
            u128 cur = (rem << 64) | x.limb[i];
            x.limb[i] = uint64_t(cur / chunk);
            rem = cur % chunk;
        }
        uint64_t r = uint64_t(rem);
        for (int k = 0; k < 19; ++k) {
            digits += char('0' + r % 10);
            r /= 10;
        }
    }
    while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
    if (digits.empty()) digits = "0";
    return {digits.rbegin(), digits.rend()};
}

/// The canonical decimal string of a field element.
template <class F>
std::string field_to_decimal(const F& v) {
    return to_decimal(v.to_canonical());
}

/// Parses a canonical decimal string into a field element; throws decode_error naming `what`
/// on an empty string, a non-digit, a leading zero, or a value >= the modulus.
template <class F>
F field_from_decimal(std::string_view s, std::string_view what) {
    auto bad = [&](std::string_view why) {
        return decode_error(std::string(what) + ": \"" + std::string(s.substr(0, 100)) + "\" " + std::string(why));
    };
    if (s.empty()) throw bad("is empty");
    if (s.size() > 1 && s[0] == '0') throw bad("has a leading zero");
    typename F::integer x{};
    for (char c : s) {
        if (c < '0' || c > '9') throw bad("is not a decimal integer");
        uint64_t carry = uint64_t(c - '0');
        for (size_t i = 0; i < F::limbs; ++i) {
            u128 t = u128(x.limb[i]) * 10 + carry;
            x.limb[i] = uint64_t(t);
            carry = uint64_t(t >> 64);
        }
        if (carry) throw bad(std::string("is not below the modulus of ") + F::config::name);
    }
    if (!(x < F::modulus)) throw bad(std::string("is not below the modulus of ") + F::config::name);
    return F::from_canonical_unchecked(x);
}

// ---- the files' contents ----------------------------------------------------------------------

/// A Groth16 proof (pi_a, pi_b, pi_c) as affine points.
template <class Curve>
struct groth16_proof {
    typename Curve::g1_point a;
    typename Curve::g2_point b;
    typename Curve::g1_point c;
};

/// What verification_key.json holds (snarkjs's field names in the comments).
template <class Curve>
struct verification_key {
    using g1 = typename Curve::g1_point;
    using g2 = typename Curve::g2_point;
    g1 alpha1;                ///< vk_alpha_1
    g2 beta2;                 ///< vk_beta_2
    g2 gamma2;                ///< vk_gamma_2
    g2 delta2;                ///< vk_delta_2
    std::vector<g1> ic;       ///< IC (nPublic + 1 points); nPublic = ic.size() - 1
    /// vk_alphabeta_12 = e(alpha1, beta2) in Fp12 as 12 Fq values in snarkjs's nesting order
    /// ([i][j][k] = flat[6i + 2j + k]: Fp6 half, Fp2 coefficient, Fp component). Not used by
    /// `snarkjs groth16 verify`; written only when set.
    std::optional<std::array<typename Curve::fq, 12>> alphabeta_12;

    uint32_t n_public() const { return ic.empty() ? 0 : uint32_t(ic.size() - 1); }

    /// The JSON-visible part of a zkey's verification key.
    static verification_key from_zkey(const groth16_vk<Curve>& vk) {
        verification_key out;
        out.alpha1 = vk.alpha1;
        out.beta2 = vk.beta2;
        out.gamma2 = vk.gamma2;
        out.delta2 = vk.delta2;
        out.ic = vk.ic;
        return out;
    }
};

namespace detail {

using json::value;

inline value str(std::string s) { return value::make_string(std::move(s)); }

template <class F>
value fq2_json(const F& v) {
    return value::make_array({str(field_to_decimal(v.c0)), str(field_to_decimal(v.c1))});
}

template <class Curve>
value g1_json(const typename Curve::g1_point& p) {
    if (p.is_identity()) return value::make_array({str("0"), str("1"), str("0")});
    return value::make_array({str(field_to_decimal(p.x)), str(field_to_decimal(p.y)), str("1")});
}

template <class Curve>
value g2_json(const typename Curve::g2_point& p) {
    if (p.is_identity())
        return value::make_array({value::make_array({str("0"), str("0")}), value::make_array({str("1"), str("0")}),
                                  value::make_array({str("0"), str("0")})});
    return value::make_array({fq2_json(p.x), fq2_json(p.y), value::make_array({str("1"), str("0")})});
}

[[noreturn]] inline void fail(std::string_view where, std::string_view what) {
    throw decode_error(std::string(where) + ": " + std::string(what));
}

inline const value& member(const value& obj, std::string_view key, std::string_view where) {
    if (!obj.is_object()) fail(where, "expected a JSON object");
    const value* v = obj.find(key);
    if (!v) fail(where, "missing \"" + std::string(key) + "\"");
    return *v;
}

inline const value& array_of(const value& v, size_t n, std::string_view where) {
    if (!v.is_array() || v.items.size() != n)
        fail(where, "expected an array of " + std::to_string(n) + " elements");
    return v;
}

template <class F>
F field_of(const value& v, std::string_view where) {
    if (!v.is_string()) fail(where, "expected a decimal string");
    return field_from_decimal<F>(v.text, where);
}

template <class F>
F coordinate_of(const value& v, std::string_view where) {
    if constexpr (requires { F{}.c1; }) {
        const auto& a = array_of(v, 2, where);
        using base = typename F::base;
        return F{field_of<base>(a.items[0], std::string(where) + "[0]"), field_of<base>(a.items[1], std::string(where) + "[1]")};
    } else {
        return field_of<F>(v, where);
    }
}

/// A projective triple [x, y, z]: z = 1 affine, z = 0 identity, otherwise Jacobian.
template <class Point>
Point point_of(const value& v, std::string_view where) {
    using F = typename Point::field;
    const auto& t = array_of(v, 3, where);
    const std::string w(where);
    F x = coordinate_of<F>(t.items[0], w + "[0]");
    F y = coordinate_of<F>(t.items[1], w + "[1]");
    F z = coordinate_of<F>(t.items[2], w + "[2]");
    Point p{};
    if (z.is_zero()) {
        if (!(x.is_zero() && y == F::one())) fail(where, "a point at infinity must be [0, 1, 0]");
        return p;  // identity (0, 0)
    }
    if (z == F::one()) {
        p = Point{x, y};
    } else {
        F zi = z.inverse();
        F zi2 = zi.square();
        p = Point{x * zi2, y * zi2 * zi};
    }
    if (p.is_identity() || !p.is_on_curve()) fail(where, "point is not on the curve");
    // Stricter than snarkjs (which checks only the curve equation): a few points, cheap.
    if (!is_in_subgroup(p)) fail(where, "point is not in the prime-order subgroup");
    return p;
}

inline void check_header(const value& root, std::string_view curve_name, std::string_view where) {
    if (!root.is_object()) fail(where, "expected a JSON object");
    if (const value* p = root.find("protocol"); p && !(p->is_string() && p->text == "groth16"))
        fail(where, "\"protocol\" is not \"groth16\"");
    if (const value* c = root.find("curve"); c && !(c->is_string() && c->text == curve_name))
        fail(where, "\"curve\" is " + (c->is_string() ? "\"" + c->text + "\"" : std::string("not a string")) +
                        ", expected \"" + std::string(curve_name) + "\"");
}

}  // namespace detail

// ---- proof.json ----------------------------------------------------------------------------------

/// proof.json exactly as `snarkjs groth16 prove` writes it.
template <class Curve>
std::string proof_to_json(const groth16_proof<Curve>& p) {
    using json::value;
    value root = value::make_object();
    root.add("pi_a", detail::g1_json<Curve>(p.a));
    root.add("pi_b", detail::g2_json<Curve>(p.b));
    root.add("pi_c", detail::g1_json<Curve>(p.c));
    root.add("protocol", detail::str("groth16"));
    root.add("curve", detail::str(std::string(Curve::snarkjs_name)));
    return json::write(root);
}

/// Parses proof.json; `name` appears in errors. Points must be on the curve (no subgroup check here).
template <class Curve>
groth16_proof<Curve> proof_from_json(std::string_view text, std::string_view name = "proof.json") {
    const json::value root = json::parse(text, name);
    const std::string n(name);
    detail::check_header(root, Curve::snarkjs_name, n);
    using g1 = typename Curve::g1_point;
    using g2 = typename Curve::g2_point;
    groth16_proof<Curve> p;
    p.a = detail::point_of<g1>(detail::member(root, "pi_a", n), n + ": pi_a");
    p.b = detail::point_of<g2>(detail::member(root, "pi_b", n), n + ": pi_b");
    p.c = detail::point_of<g1>(detail::member(root, "pi_c", n), n + ": pi_c");
    return p;
}

// ---- public.json ----------------------------------------------------------------------------------

/// public.json exactly as snarkjs writes it: an array of decimal strings.
template <class Curve>
std::string public_to_json(std::span<const typename Curve::fr> signals) {
    json::value arr = json::value::make_array();
    for (const auto& s : signals) arr.items.push_back(detail::str(field_to_decimal(s)));
    return json::write(arr);
}

/// Parses public.json: every entry a canonical decimal string below r.
template <class Curve>
std::vector<typename Curve::fr> public_from_json(std::string_view text, std::string_view name = "public.json") {
    const json::value root = json::parse(text, name);
    if (!root.is_array()) detail::fail(name, "expected an array of decimal strings");
    std::vector<typename Curve::fr> out;
    out.reserve(root.items.size());
    for (size_t i = 0; i < root.items.size(); ++i)
        out.push_back(detail::field_of<typename Curve::fr>(root.items[i], std::string(name) + "[" + std::to_string(i) + "]"));
    return out;
}

// ---- verification_key.json ------------------------------------------------------------------------

/// verification_key.json in `snarkjs zkey export verificationkey`'s layout.
template <class Curve>
std::string vk_to_json(const verification_key<Curve>& vk) {
    using json::value;
    value root = value::make_object();
    root.add("protocol", detail::str("groth16"));
    root.add("curve", detail::str(std::string(Curve::snarkjs_name)));
    root.add("nPublic", value::make_number(std::to_string(vk.n_public())));
    root.add("vk_alpha_1", detail::g1_json<Curve>(vk.alpha1));
    root.add("vk_beta_2", detail::g2_json<Curve>(vk.beta2));
    root.add("vk_gamma_2", detail::g2_json<Curve>(vk.gamma2));
    root.add("vk_delta_2", detail::g2_json<Curve>(vk.delta2));
    if (vk.alphabeta_12) {
        value outer = value::make_array();
        for (int i = 0; i < 2; ++i) {
            value mid = value::make_array();
            for (int j = 0; j < 3; ++j)
                mid.items.push_back(value::make_array({detail::str(field_to_decimal((*vk.alphabeta_12)[6 * i + 2 * j])),
                                                       detail::str(field_to_decimal((*vk.alphabeta_12)[6 * i + 2 * j + 1]))}));
            outer.items.push_back(std::move(mid));
        }
        root.add("vk_alphabeta_12", std::move(outer));
    }
    value ic = value::make_array();
    for (const auto& p : vk.ic) ic.items.push_back(detail::g1_json<Curve>(p));
    root.add("IC", std::move(ic));
    return json::write(root);
}

/// Parses verification_key.json. nPublic must equal the number of IC points minus one.
template <class Curve>
verification_key<Curve> vk_from_json(std::string_view text, std::string_view name = "verification_key.json") {
    using g1 = typename Curve::g1_point;
    using g2 = typename Curve::g2_point;
    using fq = typename Curve::fq;
    const json::value root = json::parse(text, name);
    const std::string n(name);
    detail::check_header(root, Curve::snarkjs_name, n);
    verification_key<Curve> vk;
    vk.alpha1 = detail::point_of<g1>(detail::member(root, "vk_alpha_1", n), n + ": vk_alpha_1");
    vk.beta2 = detail::point_of<g2>(detail::member(root, "vk_beta_2", n), n + ": vk_beta_2");
    vk.gamma2 = detail::point_of<g2>(detail::member(root, "vk_gamma_2", n), n + ": vk_gamma_2");
    vk.delta2 = detail::point_of<g2>(detail::member(root, "vk_delta_2", n), n + ": vk_delta_2");
    const json::value& ic = detail::member(root, "IC", n);
    if (!ic.is_array() || ic.items.empty()) detail::fail(n, "\"IC\" must be a non-empty array of G1 points");
    for (size_t i = 0; i < ic.items.size(); ++i)
        vk.ic.push_back(detail::point_of<g1>(ic.items[i], n + ": IC[" + std::to_string(i) + "]"));
    const json::value& np = detail::member(root, "nPublic", n);
    if (!np.is_number() || np.text != std::to_string(vk.ic.size() - 1))
        detail::fail(n, "\"nPublic\" must be the number " + std::to_string(vk.ic.size() - 1) + " (IC has " +
                            std::to_string(vk.ic.size()) + " points)");
    if (const json::value* ab = root.find("vk_alphabeta_12")) {
        std::array<fq, 12> flat{};
        const auto& outer = detail::array_of(*ab, 2, n + ": vk_alphabeta_12");
        for (size_t i = 0; i < 2; ++i) {
            const auto& mid = detail::array_of(outer.items[i], 3, n + ": vk_alphabeta_12");
            for (size_t j = 0; j < 3; ++j) {
                const auto& pair = detail::array_of(mid.items[j], 2, n + ": vk_alphabeta_12");
                for (size_t k = 0; k < 2; ++k)
                    flat[6 * i + 2 * j + k] = detail::field_of<fq>(pair.items[k], n + ": vk_alphabeta_12");
            }
        }
        vk.alphabeta_12 = flat;
    }
    return vk;
}

// ---- files -----------------------------------------------------------------------------------------

/// Bytes read_text_file reads at most unless told more: far above any proof.json (under 1 KB)
/// or verification_key.json or public.json of a circuit with 10,000 public signals (about 270
/// and 80 bytes per signal), far below a machine's memory, so that an endless input (/dev/zero,
/// a pipe that never closes) or a huge file is refused at once instead of read until
/// std::bad_alloc. Callers that know a file may be larger (cuzk-verify's public.json for a key
/// with more signals) pass their own limit.
inline constexpr size_t default_text_file_limit = size_t(8) << 20;

/// Reads a whole text file of at most max_bytes bytes; throws cuzk::error if it cannot be read
/// or is larger, naming the limit. A regular file is checked by its size before anything is
/// read; anything else (a pipe, /dev/stdin, a device) is read up to one byte past the limit.
inline std::string read_text_file(const std::string& path, size_t max_bytes = default_text_file_limit) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw error(path + ": cannot open: " + std::strerror(errno));
    const auto too_large = [&](const std::string& size) {
        ::close(fd);
        return error(path + ": " + size + " is over the limit of " + std::to_string(max_bytes) +
                     " bytes for a JSON input");
    };
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        ::close(fd);
        throw error(path + ": is a directory");
    }
    if (S_ISREG(st.st_mode) && uint64_t(st.st_size) > max_bytes)
        throw too_large("the file's " + std::to_string(st.st_size) + " bytes");
    std::string s;
    char buf[1 << 16];
    for (;;) {
        const ssize_t got = ::read(fd, buf, sizeof buf);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            const int e = errno;
            ::close(fd);
            throw error(path + ": read failed: " + std::strerror(e));
        }
        if (got == 0) break;
        if (size_t(got) > max_bytes - s.size()) throw too_large("the input (more than the limit, still going)");
        s.append(buf, size_t(got));
    }
    ::close(fd);
    return s;
}

/// Writes text to a file, replacing it atomically (io/atomic_file.hpp: the file holds its old
/// content or all of the new, never a part); throws cuzk::error on failure.
inline void write_text_file(const std::string& path, std::string_view text) { write_file_atomically(path, text); }

/// Decimal digits of the largest value below F's modulus.
template <class F>
size_t max_decimal_digits() {
    return to_decimal(F::modulus).size();
}

/// Bytes (with a NUL) that hold any proof.json of the curve: the writer's layout
/// (proof_to_json) with every coordinate at its widest.
template <class IoCurve>
unsigned long long proof_json_max_bytes() {
    using json::value;
    auto s = [](std::string t) { return value::make_string(std::move(t)); };
    const std::string q(max_decimal_digits<typename IoCurve::fq>(), '9');
    auto g1 = [&] { return value::make_array({s(q), s(q), s("1")}); };
    auto fq2 = [&] { return value::make_array({s(q), s(q)}); };
    value root = value::make_object();
    root.add("pi_a", g1());
    root.add("pi_b", value::make_array({fq2(), fq2(), value::make_array({s("1"), s("0")})}));
    root.add("pi_c", g1());
    root.add("protocol", s("groth16"));
    root.add("curve", s(std::string(IoCurve::snarkjs_name)));
    return json::write(root).size() + 1;
}

/// Bytes (with a NUL) that hold any public.json with n_public signals: the length of what
/// json::write makes of n strings of the widest decimal ("[]", or "[\n \"d..d\",\n ...\n]": per
/// signal a newline, an indent, the quoted digits and a comma but the last), counted and not
/// built, since a hostile header may claim 2^32 - 1 signals.
template <class IoCurve>
unsigned long long public_json_max_bytes(size_t n_public) {
    const unsigned long long digits = max_decimal_digits<typename IoCurve::fr>();
    const unsigned long long text = n_public == 0 ? 2 : n_public * (digits + 5) + 2;
    return text + 1;
}

}  // namespace cuzk::io
