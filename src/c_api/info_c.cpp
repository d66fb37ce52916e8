// SPDX-License-Identifier: MIT OR Apache-2.0
// libcuzk_prover: what the library and a resident prover report about themselves (the version,
// the build's capabilities, cuzk_groth16_prover_get_info), from the front door's prover_info.
#include <string>

#if defined(_OPENMP)
#include <omp.h>
#endif

#include "cuzk/c/cuzk_prover.h"
#include "cuzk/service/zkey_prover.hpp"

#include "shell.hpp"

#ifndef CUZK_PROVER_VERSION_STRING
#error "CUZK_PROVER_VERSION_STRING must be defined by the build (src/c_api/CMakeLists.txt)"
#endif
#ifndef CUZK_PROVER_CUDA_ARCH
#define CUZK_PROVER_CUDA_ARCH "none"
#endif

using namespace cuzk::c_api;
using cuzk::service::errc;

extern "C" {

CUZK_PROVER_API const char* cuzk_prover_version(void) { return CUZK_PROVER_VERSION_STRING; }

CUZK_PROVER_API int cuzk_prover_abi_version(void) { return CUZK_PROVER_ABI_VERSION; }

CUZK_PROVER_API int cuzk_prover_get_capabilities(cuzk_prover_capabilities* caps) {
    if (!caps || caps->struct_size != sizeof(cuzk_prover_capabilities)) return CUZK_PROVER_ERROR_INVALID_ARGUMENT;
#if defined(_OPENMP)
    const int openmp = 1, threads = omp_get_max_threads();
#else
    const int openmp = 0, threads = 1;
#endif
#if defined(CUZK_PRECOMPILED)
    const int instances = 1;
#else
    const int instances = 0;
#endif
    static const std::string options = std::string("cuda=") + (service::gpu_backend_compiled() ? "on" : "off") +
                                       " cuda_arch=" + CUZK_PROVER_CUDA_ARCH + " openmp=" + (openmp ? "on" : "off") +
                                       " x86_adx=" + (CUZK_HOST_ADX ? "on" : "off") +
                                       " instances=" + (instances ? "on" : "off");
    caps->curves = CUZK_PROVER_CURVE_BN254 | CUZK_PROVER_CURVE_BLS12_381;
    caps->gpu_backend = service::gpu_backend_compiled();
    caps->gpu_count = service::gpu_device_count();
    caps->openmp = openmp;
    caps->max_threads = threads;
    caps->x86_adx = CUZK_HOST_ADX;
    caps->precompiled_instances = instances;
    caps->build_options = options.c_str();
    return CUZK_PROVER_OK;
}

CUZK_PROVER_API int cuzk_groth16_prover_get_info(const cuzk_prover* prover, cuzk_prover_info* info, char* error_msg,
                                                 unsigned long long error_msg_maxsize) {
    return guarded(error_msg, error_msg_maxsize, [&] {
        if (!prover) null_argument("prover");
        if (!info) null_argument("info");
        if (info->struct_size != sizeof(cuzk_prover_info))
            throw service::error(errc::invalid_argument, "info->struct_size is " + std::to_string(info->struct_size) +
                                                             ", expected " + std::to_string(sizeof(cuzk_prover_info)));
        const service::prover_info& i = prover->info;
        info->curve = i.bn254 ? CUZK_PROVER_CURVE_BN254 : CUZK_PROVER_CURVE_BLS12_381;
        info->curve_name = i.bn254 ? "bn128" : "bls12381";
        info->backend = i.in_use == service::backend::gpu ? CUZK_PROVER_BACKEND_GPU : CUZK_PROVER_BACKEND_CPU;
        info->verify = i.verify;
        info->threads = i.threads;
        info->max_concurrent_proofs = i.max_in_flight;
        info->n_vars = i.n_vars;
        info->n_public = i.n_public;
        info->domain_size = i.domain_size;
        info->proof_size = i.proof_json_max_bytes;
        info->public_size = i.public_json_max_bytes;
        info->host_key_bytes = i.host_key_bytes;
        info->host_proof_bytes = i.host_proof_bytes;
        info->gpu_device = i.gpu_device;
        info->key_resident_on_gpu = i.key_resident_on_gpu;
        info->vram_budget_bytes = i.vram_budget_bytes;
        info->device_key_bytes = i.device_key_bytes;
        info->device_proof_bytes = i.device_proof_bytes;
        info->note = i.note.c_str();
        return CUZK_PROVER_OK;
    });
}

}  // extern "C"
