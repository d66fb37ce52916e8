// Prover policies: compile-time choices of backend, GPU lock granularity and staging.
//
// | member          | values                        | what it decides                                  |
// |-----------------|-------------------------------|--------------------------------------------------|
// | backend         | cpu, cuda                     | where the NTTs and MSMs run                      |
// | locking         | none, device, split           | how workers sharing one GPU serialise            |
// | staging         | on_demand, prestaged, streamed| when proving-key points reach the GPU            |
// | g2_on_gpu       | bool                          | whether the G2 MSM runs on the GPU or the CPU    |
//
// See docs/GROTH16.md for when to pick which.
#pragma once

namespace cuzk::groth16 {

enum class backend { cpu, cuda };
enum class lock_granularity { none, device, split };
enum class staging { on_demand, prestaged, streamed };

/// Everything on the host: host NTT, host MSM (all cores). Needs no GPU.
struct cpu_policy {
    static constexpr backend where = backend::cpu;
};

}  // namespace cuzk::groth16
