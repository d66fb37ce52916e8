// SPDX-License-Identifier: MIT OR Apache-2.0
// GMP as an independent oracle for prime-field tests: conversions between cuzk's
// bigint and mpz_t, and reference modular arithmetic on canonical integers.
#pragma once

#include <gmp.h>

#include <string>

#include "cuzk/core/bigint.hpp"

namespace cuzk::test {

/// An owning mpz_t.
class mpz {
public:
    mpz() { mpz_init(v_); }
    explicit mpz(unsigned long x) { mpz_init_set_ui(v_, x); }
    template <size_t N>
    explicit mpz(const bigint<N>& x) {
        mpz_init(v_);
        mpz_import(v_, N, -1, sizeof(uint64_t), 0, 0, x.limb);
    }
    mpz(const mpz& o) { mpz_init_set(v_, o.v_); }
    mpz& operator=(const mpz& o) {
        mpz_set(v_, o.v_);
        return *this;
    }
    ~mpz() { mpz_clear(v_); }

    mpz_ptr get() { return v_; }
    mpz_srcptr get() const { return v_; }

    template <size_t N>
    bigint<N> to_bigint() const {
        bigint<N> r{};
        if (mpz_sizeinbase(v_, 2) > 64 * N) throw std::runtime_error("mpz does not fit");
        size_t count = 0;
        mpz_export(r.limb, &count, -1, sizeof(uint64_t), 0, 0, v_);
        return r;
    }
    std::string hex() const {
        char* s = mpz_get_str(nullptr, 16, v_);
        std::string r(s);
        void (*freefunc)(void*, size_t);
        mp_get_memory_functions(nullptr, nullptr, &freefunc);
        freefunc(s, r.size() + 1);
        return r;
    }
    friend bool operator==(const mpz& a, const mpz& b) { return mpz_cmp(a.v_, b.v_) == 0; }

private:
    mpz_t v_;
};

}  // namespace cuzk::test
