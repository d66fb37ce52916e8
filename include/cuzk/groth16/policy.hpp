// Prover policies: compile-time choices of backend, GPU lock granularity and staging.
//
// | member          | values                        | what it decides                                  |
// |-----------------|-------------------------------|--------------------------------------------------|
// | backend         | cpu, cuda                     | where the NTTs and MSMs run                      |
// | locking         | none, device, split           | how workers sharing one GPU serialise            |
// | staging         | on_demand, prestaged, streamed| when proving-key points reach the GPU            |
// | g2_on_gpu       | bool                          | whether the G2 MSM runs on the GPU or the CPU    |
//
// See docs/GROTH16.md for when to pick which. The CUDA prover (prover_cuda.cuh) takes any type
// that models cuda_prover_policy, so a caller can name its own policy (a struct with those four
// constants) instead of spelling cuda_policy's template arguments.
#pragma once

#include <concepts>

namespace cuzk::groth16 {

enum class backend { cpu, cuda };
enum class lock_granularity { none, device, split };
enum class staging { on_demand, prestaged, streamed };

/// Everything on the host: host NTT, host MSM (all cores). Needs no GPU.
struct cpu_policy {
    static constexpr backend where = backend::cpu;
};

/// What the CUDA prover reads from its policy. Workers per GPU is how many threads the caller
/// runs prove() from (or the engine's workers), not part of the policy.
template <class P>
concept cuda_prover_policy = requires {
    { P::where } -> std::convertible_to<backend>;
    { P::locking } -> std::convertible_to<lock_granularity>;
    { P::stage } -> std::convertible_to<staging>;
    { P::g2_on_gpu } -> std::convertible_to<bool>;
} && P::where == backend::cuda;

/// The shipped CUDA policies: every combination, split lock and prestaged key by default.
template <lock_granularity Lock = lock_granularity::split, staging Stage = staging::prestaged, bool G2OnGpu = true>
struct cuda_policy {
    static constexpr backend where = backend::cuda;
    static constexpr lock_granularity locking = Lock;
    static constexpr staging stage = Stage;
    static constexpr bool g2_on_gpu = G2OnGpu;
};
static_assert(cuda_prover_policy<cuda_policy<>> && !cuda_prover_policy<cpu_policy>);

}  // namespace cuzk::groth16
