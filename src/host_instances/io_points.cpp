// SPDX-License-Identifier: MIT OR Apache-2.0
// cuzk::host_instances: the zkey point reader of every shipped group, compiled once (see
// cuzk/instances.hpp).
#include "cuzk/instances.hpp"
#include "cuzk/io/field_io.hpp"

CUZK_FOR_EACH_INSTANCE_GROUP(CUZK_HOST_IO_INSTANCES, )
