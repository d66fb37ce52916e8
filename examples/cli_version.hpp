// SPDX-License-Identifier: MIT OR Apache-2.0
// --version for the command-line tools. The version is CMake's project version, passed in by
// examples/CMakeLists.txt, so the library's package, its tools and their output carry one number.
#pragma once

#include <cstdio>
#include <string_view>

#ifndef CUZK_VERSION_STRING
#error "CUZK_VERSION_STRING is defined by examples/CMakeLists.txt from project(cuzk VERSION ...)"
#endif

namespace cuzk::examples {

/// True (after printing "<tool> <version>" to stdout) when an argument is --version; the tool then
/// exits 0 without doing anything else.
inline bool print_version_if_asked(int argc, char** argv, const char* tool) {
    for (int i = 1; i < argc; ++i) {
        if (std::string_view(argv[i]) == "--version") {
            std::printf("%s %s\n", tool, CUZK_VERSION_STRING);
            return true;
        }
    }
    return false;
}

}  // namespace cuzk::examples
