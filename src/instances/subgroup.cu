// SPDX-License-Identifier: MIT OR Apache-2.0
// cuzk::instances: the device subgroup checks of every shipped group, compiled once (see
// cuzk/instances.hpp and io/subgroup_check_device.cuh).
#include "cuzk/io/subgroup_check_device.cuh"

CUZK_FOR_EACH_INSTANCE_GROUP(CUZK_SUBGROUP_INSTANCES, )
