// SPDX-License-Identifier: MIT OR Apache-2.0
// Internal to libcuzk_prover: what its entry points share (prover_c.cpp, info_c.cpp, verify_c.cpp):
// the opaque handle, the front door's error codes as C codes, the rule for messages into a
// caller's buffer, and the guard that lets no exception escape into C. Not installed.
#pragma once

#include <algorithm>
#include <cstring>
#include <new>
#include <string>
#include <string_view>

#include "cuzk/c/cuzk_prover.h"
#include "cuzk/service/zkey_prover.hpp"

struct cuzk_prover {
    cuzk::service::resident_prover impl;
    cuzk::service::prover_info info;  // what get_info reports; its note outlives the calls
};

namespace cuzk::c_api {

namespace service = cuzk::service;

/// The C code of a front-door error.
inline int code_of(service::errc e) {
    using service::errc;
    switch (e) {
        case errc::invalid_argument: return CUZK_PROVER_ERROR_INVALID_ARGUMENT;
        case errc::invalid_zkey: return CUZK_PROVER_ERROR_INVALID_ZKEY;
        case errc::invalid_witness: return CUZK_PROVER_ERROR_INVALID_WITNESS;
        case errc::witness_length: return CUZK_PROVER_INVALID_WITNESS_LENGTH;
        case errc::curve_mismatch: return CUZK_PROVER_ERROR_CURVE_MISMATCH;
        case errc::verify_failed: return CUZK_PROVER_ERROR_VERIFY_FAILED;
        case errc::no_gpu: return CUZK_PROVER_ERROR_NO_GPU;
        case errc::io: return CUZK_PROVER_ERROR_IO;
        case errc::gpu: return CUZK_PROVER_ERROR_GPU;
        case errc::out_of_memory: return CUZK_PROVER_ERROR_OUT_OF_MEMORY;
        case errc::randomness: return CUZK_PROVER_ERROR_RANDOMNESS;
    }
    return CUZK_PROVER_ERROR;
}

/// Copies msg into the caller's buffer, NUL-terminated and truncated to fit (nothing if none).
inline void put_message(char* buf, unsigned long long max, std::string_view msg) {
    if (!buf || max == 0) return;
    const size_t n = size_t(std::min<unsigned long long>(msg.size(), max - 1));
    std::memcpy(buf, msg.data(), n);
    buf[n] = '\0';
}

/// Runs body (which returns a code and may write a message on its own) and turns every exception
/// into a code and a message: nothing escapes into C.
template <class Body>
int guarded(char* err, unsigned long long err_max, Body&& body) noexcept {
    try {
        put_message(err, err_max, "");
        return body();
    } catch (const service::error& e) {
        put_message(err, err_max, e.what());
        return code_of(e.code());
    } catch (const cuzk::randomness_error& e) {
        put_message(err, err_max, e.what());
        return CUZK_PROVER_ERROR_RANDOMNESS;
    } catch (const std::bad_alloc&) {
        put_message(err, err_max, "out of host memory");
        return CUZK_PROVER_ERROR_OUT_OF_MEMORY;
    } catch (const cuzk::invalid_argument& e) {
        put_message(err, err_max, e.what());
        return CUZK_PROVER_ERROR_INVALID_ARGUMENT;
    } catch (const std::exception& e) {
        put_message(err, err_max, e.what());
        return CUZK_PROVER_ERROR;
    } catch (...) {
        put_message(err, err_max, "unknown error");
        return CUZK_PROVER_ERROR;
    }
}

[[noreturn]] inline void null_argument(const char* name) {
    throw service::error(service::errc::invalid_argument, std::string(name) + " is NULL");
}

}  // namespace cuzk::c_api
