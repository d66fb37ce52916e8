// SPDX-License-Identifier: MIT OR Apache-2.0
// Internal to libcuzk_prover: the options of a resident prover, their defaults and the one check
// every create runs before anything is read or allocated. Not installed.
//
// A library must not take its host process down, so every value a caller can put into
// cuzk_prover_options is either refused here with a message naming the field and its range, or
// safe to use as given: a threads value of 100000 made OpenMP's thread creation fail (SIGSEGV),
// and 2^32 - 1 (what a signed binding such as Python's ctypes makes of -1) made the OpenMP runtime
// abort trying to allocate per-thread data for billions of threads.
#pragma once

#include <string>

#if defined(_OPENMP)
#include <omp.h>
#endif

#include "cuzk/c/cuzk_prover.h"

namespace cuzk::c_api {

/// Every field at its default (what cuzk_prover_options_init writes).
inline cuzk_prover_options default_options() {
    cuzk_prover_options o{};
    o.struct_size = sizeof(cuzk_prover_options);
    o.backend = CUZK_PROVER_BACKEND_AUTO;
    o.verify = 1;
    o.threads = 0;
    o.gpu_device = 0;
    o.vram_budget_bytes = 0;
    o.max_concurrent_proofs = 0;
    return o;
}

/// Why o cannot be used, as "options: <field> ...", or "" when every field is in its range
/// (include/cuzk/c/cuzk_prover.h and docs/LIMITS.md list the ranges).
inline std::string options_error(const cuzk_prover_options& o) {
    const auto n = [](auto v) { return std::to_string(v); };
    if (o.struct_size != sizeof(cuzk_prover_options))
        return "options: struct_size is " + n(o.struct_size) + ", expected " + n(sizeof(cuzk_prover_options)) +
               " (initialise with cuzk_prover_options_init)";
    if (o.backend != CUZK_PROVER_BACKEND_AUTO && o.backend != CUZK_PROVER_BACKEND_CPU &&
        o.backend != CUZK_PROVER_BACKEND_GPU)
        return "options: backend " + n(o.backend) + " is none of CUZK_PROVER_BACKEND_AUTO (0), _CPU (1), _GPU (2)";
    if (o.verify != 0 && o.verify != 1) return "options: verify must be 0 or 1, not " + n(o.verify);
    if (o.threads > CUZK_PROVER_MAX_THREADS)
        return "options: threads " + n(o.threads) + " is above the limit " + n(CUZK_PROVER_MAX_THREADS) +
               " (0: every processor; -1 through a signed binding arrives as " + n(~0u) + ")";
    if (o.gpu_device < 0) return "options: gpu_device " + n(o.gpu_device) + " is negative";
    // vram_budget_bytes and max_concurrent_proofs are safe at every value: the budget is
    // checked against the device's memory where one is used, and the concurrency limit only
    // counts proofs in flight (their memory is what the caller's threads bring).
    return {};
}

/// The OpenMP threads one proof runs on for the threads option (0: the runtime's default, every
/// processor): at most the processors this process may run on, since more only share them.
inline unsigned threads_in_use(unsigned requested) {
#if defined(_OPENMP)
    if (requested == 0) return 0;
    const int procs = omp_get_num_procs();
    return procs > 0 && requested > unsigned(procs) ? unsigned(procs) : requested;
#else
    return requested == 0 ? 0 : 1;
#endif
}

}  // namespace cuzk::c_api
