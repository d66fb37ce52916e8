// SPDX-License-Identifier: MIT OR Apache-2.0
// cuzk-params' one CUDA TU: the reader's subgroup check on the GPU (--gpu), so that cuzk-params.cpp
// stays plain C++. With cuzk::instances linked it compiles no kernel itself.
#include "cuzk/io/subgroup_check_device.cuh"
#include "cuzk_params_gpu.hpp"

namespace cuzk_params {

cuzk::io::subgroup_batch_check gpu_subgroup_check() { return cuzk::io::gpu_subgroup_check(); }

}  // namespace cuzk_params
