// SPDX-License-Identifier: MIT OR Apache-2.0
// The front door's verifier of snarkjs texts (include/cuzk/service/verify.hpp), compiled once.
#include "cuzk/service/verify.hpp"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/core/error.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/io/snarkjs_json.hpp"

namespace cuzk::service {
namespace {

using io::json::value;

/// Why a proof is invalid, thrown while it is read and caught by verify_texts.
struct rejected {
    std::string why;
};

[[noreturn]] void malformed(const std::string& where, const std::string& what) {
    throw decode_error(where + ": " + what);
}

const value& member(const value& obj, std::string_view key, const std::string& where) {
    const value* v = obj.find(key);
    if (!v) malformed(where, "missing \"" + std::string(key) + "\"");
    return *v;
}

const value& array_of(const value& v, size_t n, const std::string& where) {
    if (!v.is_array() || v.items.size() != n) malformed(where, "expected an array of " + std::to_string(n) + " elements");
    return v;
}

/// A decimal string as snarkjs takes it (digits only; leading zeros allowed, as BigInt allows
/// them) as an element of F; a value >= F's modulus is rejected, not reduced.
template <class F>
F decimal_below_modulus(const value& v, const std::string& where, const char* modulus_name) {
    if (!v.is_string()) malformed(where, "expected a decimal string");
    std::string_view s = v.text;
    if (s.empty() || s.find_first_not_of("0123456789") != std::string_view::npos)
        malformed(where, "\"" + std::string(s.substr(0, 100)) + "\" is not a decimal integer");
    while (s.size() > 1 && s[0] == '0') s.remove_prefix(1);
    static const size_t digits = io::to_decimal(F::modulus).size();
    if (s.size() <= digits) {
        try {
            return io::field_from_decimal<F>(s, where);
        } catch (const decode_error&) {  // digits only, no leading zero: the value is >= the modulus
        }
    }
    throw rejected{where + " is not below " + modulus_name};
}

template <class F>
F coordinate(const value& v, const std::string& where) {
    if constexpr (requires { F{}.c1; }) {
        const value& a = array_of(v, 2, where);
        using base = typename F::base;
        return F{decimal_below_modulus<base>(a.items[0], where + "[0]", "the base field's modulus q"),
                 decimal_below_modulus<base>(a.items[1], where + "[1]", "the base field's modulus q")};
    } else {
        return decimal_below_modulus<F>(v, where, "the base field's modulus q");
    }
}

/// A projective triple as ffjavascript's fromObject reads it: z = 0 the identity, z = 1 affine,
/// otherwise Jacobian (x / z^2, y / z^3). Curve and subgroup membership are left to the verifier.
template <class Point>
Point point_of(const value& v, const std::string& where) {
    using F = typename Point::field;
    const value& t = array_of(v, 3, where);
    const F x = coordinate<F>(t.items[0], where + "[0]");
    const F y = coordinate<F>(t.items[1], where + "[1]");
    const F z = coordinate<F>(t.items[2], where + "[2]");
    if (z.is_zero()) return Point::identity();
    if (z == F::one()) return Point{x, y};
    const F zi = z.inverse();
    const F zi2 = zi.square();
    return Point{x * zi2, y * zi2 * zi};
}

void check_tag(const value& root, std::string_view key, std::string_view expected, const std::string& where) {
    if (const value* p = root.find(key); p && !(p->is_string() && p->text == expected))
        malformed(where, "\"" + std::string(key) + "\" is " +
                             (p->is_string() ? "\"" + p->text.substr(0, 100) + "\"" : std::string("not a string")) +
                             ", expected \"" + std::string(expected) + "\"");
}

/// The curve named by a verification_key.json ("bn128" or "bls12381").
std::string vk_curve(const value& root) {
    if (!root.is_object()) malformed("verification key", "expected a JSON object");
    const value* c = root.find("curve");
    if (!c || !c->is_string()) malformed("verification key", "no \"curve\" string (bn128 or bls12381)");
    if (c->text != "bn128" && c->text != "bls12381")
        malformed("verification key", "curve \"" + c->text.substr(0, 100) + "\" is neither bn128 nor bls12381");
    return c->text;
}

template <class IoCurve>
verify_outcome verify_with_key(std::string_view vk_json, std::string_view proof_json, std::string_view public_json) {
    const auto vk = io::to_verifying_key<IoCurve>(io::vk_from_json<IoCurve>(vk_json, "verification key"));
    return verify_texts<IoCurve>(vk, proof_json, public_json);
}

}  // namespace

template <class IoCurve>
verify_outcome verify_texts(const groth16::verifying_key<io::groth16_curve_t<IoCurve>>& vk, std::string_view proof_json,
                            std::string_view public_json) {
    using curve = io::groth16_curve_t<IoCurve>;
    using fr = typename curve::fr;
    const value proof_root = io::json::parse(proof_json, "proof");
    const value public_root = io::json::parse(public_json, "public signals");
    if (!proof_root.is_object()) malformed("proof", "expected a JSON object");
    check_tag(proof_root, "protocol", "groth16", "proof");
    check_tag(proof_root, "curve", IoCurve::snarkjs_name, "proof");
    if (!public_root.is_array()) malformed("public signals", "expected an array of decimal strings");
    try {
        // snarkjs's order: the signals first, then the points, then the pairing.
        std::vector<fr> publics;
        publics.reserve(public_root.items.size());
        for (size_t i = 0; i < public_root.items.size(); ++i)
            publics.push_back(decimal_below_modulus<fr>(public_root.items[i], "public signal " + std::to_string(i),
                                                        "the group order r"));
        groth16::proof<curve> pi;
        pi.a = point_of<affine<typename curve::g1>>(member(proof_root, "pi_a", "proof"), "pi_a");
        pi.b = point_of<affine<typename curve::g2>>(member(proof_root, "pi_b", "proof"), "pi_b");
        pi.c = point_of<affine<typename curve::g1>>(member(proof_root, "pi_c", "proof"), "pi_c");
        if (publics.size() != vk.num_public())
            return {false, std::to_string(publics.size()) + " public signals, the verification key expects " +
                               std::to_string(vk.num_public())};
        const groth16::verdict v = groth16::verify_verdict(vk, std::span<const fr>(publics), pi);
        if (v == groth16::verdict::ok) return {true, ""};
        return {false, groth16::to_string(v)};
    } catch (const rejected& r) {
        return {false, r.why};
    }
}

template verify_outcome verify_texts<io::bn128>(const groth16::verifying_key<io::groth16_curve_t<io::bn128>>&,
                                                std::string_view, std::string_view);
template verify_outcome verify_texts<io::bls12381>(const groth16::verifying_key<io::groth16_curve_t<io::bls12381>>&,
                                                   std::string_view, std::string_view);

verify_outcome verify_with_key_json(std::string_view vk_json, std::string_view proof_json,
                                    std::string_view public_json) {
    const io::json::value root = io::json::parse(vk_json, "verification key");
    if (vk_curve(root) == "bn128") return verify_with_key<io::bn128>(vk_json, proof_json, public_json);
    return verify_with_key<io::bls12381>(vk_json, proof_json, public_json);
}

}  // namespace cuzk::service

