// SPDX-License-Identifier: MIT OR Apache-2.0
// json: a small strict JSON (RFC 8259) reader and a writer that formats like snarkjs.
//
// Just enough for proof.json, public.json and verification_key.json: values keep numbers as
// their source text, objects keep member order, and the writer reproduces
// JavaScript's JSON.stringify(value, null, 1) byte for byte (one space of indent per level),
// which is how snarkjs writes its files. The reader rejects anything RFC 8259 does not allow
// (trailing commas, comments, single quotes, control characters in strings, lone surrogates,
// leading zeros, duplicate keys, trailing garbage) and nests at most 64 deep; errors are
// cuzk::decode_error with the source name, line and column.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "cuzk/core/error.hpp"

namespace cuzk::io::json {

/// A parsed JSON value.
struct value {
    enum class kind { null, boolean, number, string, array, object };

    kind type = kind::null;
    bool boolean = false;
    /// The unescaped string, or a number's source text.
    std::string text;
    std::vector<value> items;                             ///< array elements
    std::vector<std::pair<std::string, value>> members;  ///< object members, in order

    static value make_string(std::string s) {
        value v;
        v.type = kind::string;
        v.text = std::move(s);
        return v;
    }
    static value make_number(std::string digits) {
        value v;
        v.type = kind::number;
        v.text = std::move(digits);
        return v;
    }
    static value make_array(std::vector<value> items = {}) {
        value v;
        v.type = kind::array;
        v.items = std::move(items);
        return v;
    }
    static value make_object() {
        value v;
        v.type = kind::object;
        return v;
    }
    /// Appends a member to an object (the caller keeps keys unique).
    value& add(std::string key, value v) {
        members.emplace_back(std::move(key), std::move(v));
        return members.back().second;
    }

    bool is_string() const { return type == kind::string; }
    bool is_array() const { return type == kind::array; }
    bool is_object() const { return type == kind::object; }
    bool is_number() const { return type == kind::number; }

    /// The member with this key, or nullptr.
    const value* find(std::string_view key) const {
        for (const auto& [k, v] : members)
            if (k == key) return &v;
        return nullptr;
    }
};

namespace detail {

class parser {
public:
    parser(std::string_view s, std::string_view name) : s_(s), name_(name) {}

    value parse_document() {
        skip_ws();
        value v = parse_value(0);
        skip_ws();
        if (i_ != s_.size()) fail("unexpected text after the JSON value");
        return v;
    }

private:
    static constexpr int max_depth = 64;

    [[noreturn]] void fail(std::string_view what) const {
        size_t line = 1, col = 1;
        for (size_t k = 0; k < i_ && k < s_.size(); ++k) {
            if (s_[k] == '\n') {
                ++line;
                col = 1;
            } else {
                ++col;
            }
        }
        throw decode_error(std::string(name_) + ":" + std::to_string(line) + ":" + std::to_string(col) +
                           ": invalid JSON: " + std::string(what));
    }
    bool at_end() const { return i_ >= s_.size(); }
    char peek() const { return at_end() ? '\0' : s_[i_]; }
    void skip_ws() {
        while (!at_end() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
    }
    void expect(char c) {
        if (peek() != c || at_end()) fail(std::string("expected '") + c + "'");
        ++i_;
    }
    void literal(std::string_view word) {
        if (s_.substr(i_, word.size()) != word) fail("unknown literal");
        i_ += word.size();
    }

    value parse_value(int depth) {
        if (depth > max_depth) fail("nested too deeply");
        if (at_end()) fail("unexpected end of input");
        value v;
        switch (peek()) {
            case '{': return parse_object(depth);
            case '[': return parse_array(depth);
            case '"': return value::make_string(parse_string());
            case 't': literal("true"); v.type = value::kind::boolean; v.boolean = true; return v;
            case 'f': literal("false"); v.type = value::kind::boolean; return v;
            case 'n': literal("null"); return v;
            default: return parse_number();
        }
    }

    value parse_object(int depth) {
        expect('{');
        value v = value::make_object();
        std::unordered_set<std::string> keys;  // duplicate check in O(1), even for huge objects
        skip_ws();
        if (peek() == '}') {
            ++i_;
            return v;
        }
        for (;;) {
            skip_ws();
            if (peek() != '"') fail("expected a string key");
            std::string key = parse_string();
            if (!keys.insert(key).second) fail("duplicate key \"" + key + "\"");
            skip_ws();
            expect(':');
            skip_ws();
            v.add(std::move(key), parse_value(depth + 1));
            skip_ws();
            if (peek() == ',') {
                ++i_;
                continue;
            }
            expect('}');
            return v;
        }
    }

    value parse_array(int depth) {
        expect('[');
        value v = value::make_array();
        skip_ws();
        if (peek() == ']') {
            ++i_;
            return v;
        }
        for (;;) {
            skip_ws();
            v.items.push_back(parse_value(depth + 1));
            skip_ws();
            if (peek() == ',') {
                ++i_;
                continue;
            }
            expect(']');
            return v;
        }
    }

    value parse_number() {
        const size_t start = i_;
        auto digits = [&] {
            size_t n = 0;
            while (!at_end() && s_[i_] >= '0' && s_[i_] <= '9') ++i_, ++n;
            return n;
        };
        if (peek() == '-') ++i_;
        if (peek() == '0') {
            ++i_;
            if (peek() >= '0' && peek() <= '9') fail("leading zero in a number");
        } else if (digits() == 0) {
            fail("unexpected character");
        }
        if (peek() == '.') {
            ++i_;
            if (digits() == 0) fail("expected digits after '.'");
        }
        if (peek() == 'e' || peek() == 'E') {
            ++i_;
            if (peek() == '+' || peek() == '-') ++i_;
            if (digits() == 0) fail("expected exponent digits");
        }
        return value::make_number(std::string(s_.substr(start, i_ - start)));
    }

    unsigned hex4() {
        if (s_.size() - i_ < 4) fail("truncated \\u escape");
        unsigned u = 0;
        for (int k = 0; k < 4; ++k) {
            char c = s_[i_++];
            u <<= 4;
            if (c >= '0' && c <= '9') u |= unsigned(c - '0');
            else if (c >= 'a' && c <= 'f') u |= unsigned(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F') u |= unsigned(c - 'A' + 10);
            else fail("bad hex digit in \\u escape");
        }
        return u;
    }
    static void put_utf8(std::string& out, unsigned cp) {
        if (cp < 0x80) {
            out += char(cp);
        } else if (cp < 0x800) {
            out += char(0xc0 | (cp >> 6));
            out += char(0x80 | (cp & 0x3f));
        } else if (cp < 0x10000) {
            out += char(0xe0 | (cp >> 12));
            out += char(0x80 | ((cp >> 6) & 0x3f));
            out += char(0x80 | (cp & 0x3f));
        } else {
            out += char(0xf0 | (cp >> 18));
            out += char(0x80 | ((cp >> 12) & 0x3f));
            out += char(0x80 | ((cp >> 6) & 0x3f));
            out += char(0x80 | (cp & 0x3f));
        }
    }

    std::string parse_string() {
        expect('"');
        std::string out;
        for (;;) {
            if (at_end()) fail("unterminated string");
            const unsigned char c = static_cast<unsigned char>(s_[i_++]);
            if (c == '"') return out;
            if (c < 0x20) fail("control character in a string");
            if (c != '\\') {
                out += char(c);
                continue;
            }
            if (at_end()) fail("unterminated escape");
            switch (s_[i_++]) {
                case '"': out += '"'; break;
                case '\\': out += '\\'; break;
                case '/': out += '/'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'n': out += '\n'; break;
                case 'r': out += '\r'; break;
                case 't': out += '\t'; break;
                case 'u': {
                    unsigned cp = hex4();
                    if (cp >= 0xdc00 && cp <= 0xdfff) fail("lone low surrogate");
                    if (cp >= 0xd800 && cp <= 0xdbff) {
                        if (s_.substr(i_, 2) != "\\u") fail("lone high surrogate");
                        i_ += 2;
                        unsigned lo = hex4();
                        if (lo < 0xdc00 || lo > 0xdfff) fail("bad low surrogate");
                        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                    }
                    put_utf8(out, cp);
                    break;
                }
                default: fail("unknown escape");
            }
        }
    }

    std::string_view s_;
    std::string_view name_;
    size_t i_ = 0;
};

inline void write_string(std::string& out, std::string_view s) {
    static const char* hex = "0123456789abcdef";
    out += '"';
    for (unsigned char c : s) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\b': out += "\\b"; break;
            case '\f': out += "\\f"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (c < 0x20) {
                    out += "\\u00";
                    out += hex[c >> 4];
                    out += hex[c & 15];
                } else {
                    out += char(c);
                }
        }
    }
    out += '"';
}

inline void write_value(std::string& out, const value& v, int depth) {
    auto newline = [&](int d) {
        out += '\n';
        out.append(size_t(d), ' ');
    };
    switch (v.type) {
        case value::kind::null: out += "null"; return;
        case value::kind::boolean: out += v.boolean ? "true" : "false"; return;
        case value::kind::number: out += v.text; return;
        case value::kind::string: write_string(out, v.text); return;
        case value::kind::array:
            if (v.items.empty()) {
                out += "[]";
                return;
            }
            out += '[';
            for (size_t k = 0; k < v.items.size(); ++k) {
                if (k) out += ',';
                newline(depth + 1);
                write_value(out, v.items[k], depth + 1);
            }
            newline(depth);
            out += ']';
            return;
        case value::kind::object:
            if (v.members.empty()) {
                out += "{}";
                return;
            }
            out += '{';
            for (size_t k = 0; k < v.members.size(); ++k) {
                if (k) out += ',';
                newline(depth + 1);
                write_string(out, v.members[k].first);
                out += ": ";
                write_value(out, v.members[k].second, depth + 1);
            }
            newline(depth);
            out += '}';
            return;
    }
}

}  // namespace detail

/// Parses one JSON document; `name` (a file name) appears in error messages.
inline value parse(std::string_view text, std::string_view name = "<json>") {
    return detail::parser(text, name).parse_document();
}

/// s as a JSON string literal: quotes, backslashes and control characters escaped.
inline std::string quote(std::string_view s) {
    std::string out;
    detail::write_string(out, s);
    return out;
}

/// Formats like JSON.stringify(v, null, 1): one space of indent per level, no final newline.
inline std::string write(const value& v) {
    std::string out;
    detail::write_value(out, v, 0);
    return out;
}

}  // namespace cuzk::io::json
