// SPDX-License-Identifier: MIT OR Apache-2.0
// OpenMP's thread count for one proof: per thread (OpenMP's nthreads-var is per task), so that
// concurrent proofs on other threads are unaffected. Without OpenMP both are no-ops.
#pragma once

#include <algorithm>
#include <climits>

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace cuzk::service {

/// Sets the calling thread's OpenMP thread count (0: leaves it).
inline void set_thread_count(unsigned threads) {
#if defined(_OPENMP)
    if (threads > 0) omp_set_num_threads(int(std::min<unsigned>(threads, INT_MAX)));
#else
    (void)threads;
#endif
}

/// The calling thread's OpenMP thread count for a scope (0: unchanged), restored afterwards.
class thread_scope {
public:
    explicit thread_scope(unsigned threads) {
#if defined(_OPENMP)
        if (threads > 0) saved_ = omp_get_max_threads();
#endif
        set_thread_count(threads);
    }
    ~thread_scope() {
#if defined(_OPENMP)
        if (saved_ > 0) omp_set_num_threads(saved_);
#endif
    }
    thread_scope(const thread_scope&) = delete;
    thread_scope& operator=(const thread_scope&) = delete;

private:
    int saved_ = 0;
};

}  // namespace cuzk::service
