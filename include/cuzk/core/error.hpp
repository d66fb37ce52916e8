// SPDX-License-Identifier: MIT OR Apache-2.0
// Error types reported by host code. Device code never throws.
#pragma once

#include <stdexcept>
#include <string>

namespace cuzk {

/// Base of every error cuzk throws.
class error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Input bytes or values that are not a canonical encoding (value >= modulus, bad flags,
/// point off the curve or outside the subgroup, wrong length).
class decode_error : public error {
public:
    using error::error;
};

/// A caller broke an API contract (sizes that disagree, unsupported parameters).
class invalid_argument : public error {
public:
    using error::error;
};

/// A randomness source failed, or gave bytes that no bounded number of draws turns into a
/// usable value (a source stuck at all-zero or all-one bytes).
class randomness_error : public error {
public:
    using error::error;
};

}  // namespace cuzk
