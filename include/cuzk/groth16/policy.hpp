// SPDX-License-Identifier: MIT OR Apache-2.0
// Prover policies: compile-time choices of backend, GPU lock granularity, staging, G2 placement
// and where a proof's stage times go.
//
// | member          | values                        | what it decides                                  |
// |-----------------|-------------------------------|--------------------------------------------------|
// | backend         | cpu, cuda                     | where the NTTs and MSMs run                      |
// | locking         | none, device, split           | how workers sharing one GPU serialise (the       |
// |                 |                               | default of cuda_prover_options::locking, which   |
// |                 |                               | chooses at run time)                             |
// | staging         | on_demand, prestaged,         | when proving-key points reach the GPU            |
// |                 | streamed, chunked             |                                                  |
// | g2_on_gpu       | bool                          | whether the G2 MSM runs on the GPU or the CPU    |
// |                 |                               | (the default of cuda_prover_options::g2_on_gpu)  |
// | telemetry       | a type (optional)             | a sink told every stage of every finished proof  |
//
// See docs/GROTH16.md for when to pick which. The CUDA prover (groth16/cuda/prover.cuh) takes any type
// that models cuda_prover_policy, so a caller can name its own policy (a struct with those four
// constants, and a telemetry sink if it wants one) instead of spelling cuda_policy's arguments:
//
//   struct to_my_metrics {
//       static void stage(const stage_times::stage& s) { histogram(s.name).add(s.ms()); }
//   };
//   using my_policy = cuda_policy<lock_granularity::split, staging::prestaged, true, to_my_metrics>;
#pragma once

#include <concepts>
#include <type_traits>
#include <utility>

#include "cuzk/groth16/stage_timer.hpp"

namespace cuzk::groth16 {

enum class backend { cpu, cuda };
enum class lock_granularity { none, device, split };
/// on_demand: the key is uploaded inside each proof's compute phase; prestaged: uploaded once and
/// kept on the GPU (per proof, as on_demand, when the budget cannot hold it); streamed: page-locked
/// on the host and uploaded per proof on a copy stream while the proof's first kernels run;
/// chunked: page-locked on the host and streamed into each MSM a chunk of bases at a time
/// (msm/streamed_bases.cuh), so a proof needs two chunks of VRAM for the key whatever its size:
/// for keys larger than the budget (cuda_prover_options::key_chunk_points sets the chunk).
enum class staging { on_demand, prestaged, streamed, chunked };

/// Everything on the host: host NTT, host MSM (all cores). Needs no GPU.
struct cpu_policy {
    static constexpr backend where = backend::cpu;
};

/// A telemetry sink: told each stage of a proof (its name, host interval and, for a GPU stage,
/// its interval on the worker's stream; stage_timer.hpp) once the proof has succeeded, in the
/// order the stages ran, on the thread that proved. Static: the sink is the policy's, shared by
/// every prover and worker of that policy, so it must be thread-safe.
template <class T>
concept telemetry_sink = requires(const stage_times::stage& s) {
    T::stage(s);
};

/// The sink of a policy that declares none: nothing is recorded for it.
struct no_telemetry {
    static void stage(const stage_times::stage&) {}
};

namespace detail {
template <class P>
struct telemetry_of {
    using type = no_telemetry;
};
template <class P>
requires requires { typename P::telemetry; }
struct telemetry_of<P> {
    using type = typename P::telemetry;
};
}  // namespace detail

/// P::telemetry, or no_telemetry when P declares none.
template <class P>
using policy_telemetry = typename detail::telemetry_of<P>::type;

/// True when a proof under policy P reports its stages to a sink (stage times are then recorded
/// even when the caller asked for none).
template <class P>
inline constexpr bool has_telemetry = !std::is_same_v<policy_telemetry<P>, no_telemetry>;

/// Runs body(timer) over `times`; with a telemetry sink other than no_telemetry the stages are
/// recorded even when `times` is null, and each is given to the sink once body returns.
template <telemetry_sink Telemetry, class F>
auto timed_with(stage_times* times, F&& body) {
    if constexpr (!std::is_same_v<Telemetry, no_telemetry>) {
        stage_times own;
        stage_times& t = times ? *times : own;
        const size_t first = t.stages.size();
        stage_timer timer(&t);
        auto result = body(timer);
        for (size_t i = first; i < t.stages.size(); ++i) Telemetry::stage(t.stages[i]);
        return result;
    } else {
        stage_timer timer(times);
        return body(timer);
    }
}

/// timed_with the sink of policy P.
template <class P, class F>
auto timed_under(stage_times* times, F&& body) {
    return timed_with<policy_telemetry<P>>(times, std::forward<F>(body));
}

/// What the CUDA prover reads from its policy. Workers per GPU is how many threads the caller
/// runs prove() from (or the engine's workers), not part of the policy. `telemetry` is optional.
template <class P>
concept cuda_prover_policy = requires {
    { P::where } -> std::convertible_to<backend>;
    { P::locking } -> std::convertible_to<lock_granularity>;
    { P::stage } -> std::convertible_to<staging>;
    { P::g2_on_gpu } -> std::convertible_to<bool>;
}
&&P::where == backend::cuda&& telemetry_sink<policy_telemetry<P>>;

/// The shipped CUDA policies: every combination, split lock and prestaged key by default, no
/// telemetry unless a sink is given.
template <lock_granularity Lock = lock_granularity::split, staging Stage = staging::prestaged, bool G2OnGpu = true,
          telemetry_sink Telemetry = no_telemetry>
struct cuda_policy {
    static constexpr backend where = backend::cuda;
    static constexpr lock_granularity locking = Lock;
    static constexpr staging stage = Stage;
    static constexpr bool g2_on_gpu = G2OnGpu;
    using telemetry = Telemetry;
};
static_assert(cuda_prover_policy<cuda_policy<>> && !cuda_prover_policy<cpu_policy>);
static_assert(!has_telemetry<cuda_policy<>> && !has_telemetry<cpu_policy>);

}  // namespace cuzk::groth16
