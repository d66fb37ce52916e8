// SPDX-License-Identifier: MIT OR Apache-2.0
// The front door's codes for a reader's errors (service::reading), so that every shell over it
// (the C API, cuzk-prove's file modes) reports a malformed input, an unreadable file and an
// invalid argument the same way.
#pragma once

#include "cuzk/core/error.hpp"
#include "cuzk/service/options.hpp"

namespace cuzk::service {

/// Runs a reader and gives its errors the front door's codes: decode_error and invalid_argument
/// -> bad_input, any other cuzk::error (open or read failure) -> io.
template <class Read>
auto reading(errc bad_input, Read&& read) {
    try {
        return read();
    } catch (const error&) {
        throw;
    } catch (const decode_error& e) {
        throw error(bad_input, e.what());
    } catch (const cuzk::invalid_argument& e) {
        throw error(bad_input, e.what());
    } catch (const cuzk::error& e) {
        throw error(errc::io, e.what());
    }
}

}  // namespace cuzk::service
