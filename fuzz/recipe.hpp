// SPDX-License-Identifier: MIT OR Apache-2.0
// A fuzz input read as a recipe, front to back: little-endian integers, choices among edge
// values, and byte strings, with zeros once the input is used up. Front to back (unlike
// libFuzzer's FuzzedDataProvider, which takes integers from the end) so that the committed seed
// files are easy to write by hand or by fuzz/make_seeds.py, and a short input still reaches
// every step with the first choice of each.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <span>
#include <type_traits>

namespace fuzz {

class recipe {
public:
    recipe(const uint8_t* data, size_t size) : p_(data), n_(size) {}

    /// The next sizeof(T) bytes as a little-endian T (zero bytes past the end).
    template <class T>
    T take() {
        static_assert(std::is_integral_v<T>);
        std::make_unsigned_t<T> v = 0;
        for (size_t i = 0; i < sizeof(T); ++i) v |= std::make_unsigned_t<T>(byte()) << (8 * i);
        return T(v);
    }
    uint8_t byte() {
        if (n_ == 0) return 0;
        --n_;
        return *p_++;
    }
    /// One of `edges` by the next byte, or (for the byte values past them) a raw T from the input:
    /// edge values are what finds off-by-one checks, raw ones what finds the rest.
    template <class T>
    T pick(std::initializer_list<T> edges) {
        const size_t k = byte() % (edges.size() + 1);
        return k < edges.size() ? edges.begin()[k] : take<T>();
    }
    /// Up to max bytes of what is left (as many as the next 2-byte length says).
    std::span<const uint8_t> bytes(size_t max) {
        size_t len = take<uint16_t>();
        if (len > max) len = max;
        if (len > n_) len = n_;
        std::span<const uint8_t> s(p_, len);
        p_ += len;
        n_ -= len;
        return s;
    }
    std::span<const uint8_t> rest() const { return {p_, n_}; }
    size_t left() const { return n_; }

private:
    const uint8_t* p_;
    size_t n_;
};

}  // namespace fuzz
