// SPDX-License-Identifier: MIT OR Apache-2.0
// Where the tests find published vector sets: first the copies bundled in tests/vectors
// (CUZK_BUNDLED_VECTORS_DIR; sets whose licences allow it, see tests/vectors/README.md), then
// the shared vectors folder (CUZK_VECTORS_DIR, default ../shared/vectors). Both are compile
// definitions set by tests/CMakeLists.txt. A test whose set is in neither place skips.
#pragma once

#include <filesystem>
#include <string>

namespace cuzk::test {

/// The folder of the vector set `set` (a path relative to a vectors folder, e.g.
/// "bls12_381/zcash" or "eth-precompiles"), or "" when no vectors folder has it.
inline std::string vector_set(const std::string& set) {
    for (const char* root : {
#ifdef CUZK_BUNDLED_VECTORS_DIR
             CUZK_BUNDLED_VECTORS_DIR,
#endif
#ifdef CUZK_VECTORS_DIR
             CUZK_VECTORS_DIR,
#endif
             ""}) {
        if (*root == '\0') continue;
        std::error_code ec;
        const std::string dir = std::string(root) + "/" + set;
        if (std::filesystem::is_directory(dir, ec)) return dir;
    }
    return "";
}

/// The message a test skips with when its set is missing.
inline std::string missing_vector_set(const std::string& set) {
    std::string msg = "vector set " + set + " is in neither tests/vectors nor CUZK_VECTORS_DIR";
#ifdef CUZK_VECTORS_DIR
    msg += std::string(" (") + CUZK_VECTORS_DIR + ")";
#endif
    return msg;
}

}  // namespace cuzk::test
