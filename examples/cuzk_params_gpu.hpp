// SPDX-License-Identifier: MIT OR Apache-2.0
// cuzk-params' GPU subgroup check (cuzk_params_gpu.cu, compiled where CUDA is; CUZK_PARAMS_GPU).
#pragma once

#include "cuzk/io/bellperson_params.hpp"

namespace cuzk_params {

/// io::gpu_subgroup_check() on the current device: the .params reader's subgroup tests on the GPU.
cuzk::io::subgroup_batch_check gpu_subgroup_check();

}  // namespace cuzk_params
