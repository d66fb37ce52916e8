// SPDX-License-Identifier: MIT OR Apache-2.0
// key_points<T>: a proving key's point vector, either owned (a std::vector) or a read-only view
// of memory that something else holds, kept alive by a shared pointer (a mapped key file).
//
// A snarkjs key's point sections are byte for byte cuzk's affine arrays, so a reader that has the
// file mapped can check the points where they lie and hand the prover a view of the page cache:
// no fresh pages to zero and populate, no copy, one copy of the key per machine however many
// processes prove with it. The read interface is a const vector's (data, size, empty, [], begin,
// end, a std::span) so that the MSMs take either kind unchanged. There are no non-const element
// accessors: a span taken from a non-const key must not copy a mapped key behind the caller's
// back. Writers call owned(), which first copies a view into storage of its own (the one place a
// view is copied).
#pragma once

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace cuzk::groth16 {

template <class T>
class key_points {
public:
    using value_type = T;
    using size_type = size_t;
    using const_iterator = const T*;
    using iterator = const T*;

    key_points() = default;
    /// Owns v (implicit: a vector assigned to a key member is moved in).
    key_points(std::vector<T> v) : owned_(std::move(v)) {}
    key_points(std::initializer_list<T> l) : owned_(l) {}
    /// n value-initialised points (the identity, for affine points), owned.
    explicit key_points(size_t n) : owned_(n) {}

    /// A view of `points`, valid while `keep_alive` (which owns that memory) lives.
    static key_points view(std::span<const T> points, std::shared_ptr<const void> keep_alive) {
        key_points k;
        k.view_ = points.data();
        k.view_size_ = points.size();
        k.keep_ = std::move(keep_alive);
        return k;
    }

    key_points(const key_points&) = default;
    key_points& operator=(const key_points&) = default;
    key_points(key_points&& o) noexcept
        : owned_(std::move(o.owned_)), view_(std::exchange(o.view_, nullptr)),
          view_size_(std::exchange(o.view_size_, 0)), keep_(std::move(o.keep_)) {}
    key_points& operator=(key_points&& o) noexcept {
        owned_ = std::move(o.owned_);
        view_ = std::exchange(o.view_, nullptr);
        view_size_ = std::exchange(o.view_size_, 0);
        keep_ = std::move(o.keep_);
        return *this;
    }

    /// True for a view of memory someone else holds (owned() would copy it).
    bool is_view() const { return view_ != nullptr; }

    const T* data() const { return view_ ? view_ : owned_.data(); }
    size_t size() const { return view_ ? view_size_ : owned_.size(); }
    bool empty() const { return size() == 0; }
    const T& operator[](size_t i) const { return data()[i]; }
    const T* begin() const { return data(); }
    const T* end() const { return data() + size(); }
    const T& front() const { return data()[0]; }
    const T& back() const { return data()[size() - 1]; }
    std::span<const T> span() const { return {data(), size()}; }
    operator std::span<const T>() const { return span(); }
    /// Bytes of memory this vector holds itself (0 for a view).
    size_t owned_bytes() const { return view_ ? 0 : owned_.capacity() * sizeof(T); }

    /// The points as a vector of this object's own, for writing: a view is copied first (and
    /// the memory it viewed released by this object).
    std::vector<T>& owned() {
        if (view_) {
            owned_.assign(view_, view_ + view_size_);
            view_ = nullptr;
            view_size_ = 0;
            keep_.reset();
        }
        return owned_;
    }
    /// Moves the points out as a vector (a view is copied).
    std::vector<T> release() && { return std::move(owned()); }

    void resize(size_t n) { owned().resize(n); }
    void reserve(size_t n) { owned().reserve(n); }
    void clear() { *this = key_points(); }
    void shrink_to_fit() { owned().shrink_to_fit(); }
    void push_back(const T& v) { owned().push_back(v); }
    void pop_back() { owned().pop_back(); }

    friend bool operator==(const key_points& a, const key_points& b) {
        if (a.size() != b.size()) return false;
        for (size_t i = 0; i < a.size(); ++i)
            if (!(a[i] == b[i])) return false;
        return true;
    }

private:
    std::vector<T> owned_;
    const T* view_ = nullptr;  // set: a view, owned_ empty
    size_t view_size_ = 0;
    std::shared_ptr<const void> keep_;
};

}  // namespace cuzk::groth16
