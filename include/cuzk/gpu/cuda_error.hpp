// CUDA runtime failures as typed host errors that name the failing call and where it was made.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "cuzk/core/error.hpp"

namespace cuzk {

/// A CUDA runtime call failed. what() names the call, the CUDA error and the source location.
class cuda_error : public error {
public:
    cuda_error(cudaError_t code, const char* call, const char* file, int line)
        : error(std::string(call) + " failed: " + cudaGetErrorName(code) + " (" + cudaGetErrorString(code) +
                ") at " + file + ":" + std::to_string(line)),
          code_(code) {}

    /// The CUDA error code that was returned.
    cudaError_t code() const noexcept { return code_; }

private:
    cudaError_t code_;
};

namespace gpu {
/// Throws cuda_error when code is not cudaSuccess (use through CUZK_CUDA_CHECK).
/// Clears the runtime's last-error slot first, so that a failure reported here is not reported
/// again by the next launch check (a non-sticky error such as a failed registration).
inline void check(cudaError_t code, const char* call, const char* file, int line) {
    if (code != cudaSuccess) {
        (void)cudaGetLastError();
        throw cuda_error(code, call, file, line);
    }
}
}  // namespace gpu

}  // namespace cuzk

/// Evaluates a CUDA runtime call and throws cuzk::cuda_error naming it if it fails.
#define CUZK_CUDA_CHECK(call) ::cuzk::gpu::check((call), #call, __FILE__, __LINE__)

/// After a kernel launch: reports a launch-configuration error as a cuda_error naming `what`.
#define CUZK_CUDA_CHECK_LAUNCH(what) ::cuzk::gpu::check(cudaGetLastError(), what, __FILE__, __LINE__)
