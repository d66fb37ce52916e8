// SPDX-License-Identifier: MIT OR Apache-2.0
// libFuzzer target: the Groth16 .zkey reader on arbitrary bytes, for both curves (with and
// without the on-curve checks), from memory and mapped (an in-memory file, io::mapped_source:
// the aligned point sections are checked in place and viewed, not copied). Any input must either
// parse or throw cuzk::decode_error, and both reads must agree: the same key, or the same message.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>

#include "cuzk/io/zkey.hpp"

namespace {

/// The input as a file (memfd: nothing on disk), mapped; null where memfd is unavailable.
std::shared_ptr<const cuzk::io::byte_source> mapped(const uint8_t* data, size_t size, std::string& path) {
    const int fd = ::memfd_create("fuzz.zkey", MFD_CLOEXEC);
    if (fd < 0) return nullptr;
    for (size_t done = 0; done < size;) {
        const ssize_t n = ::write(fd, data + done, size - done);
        if (n <= 0) {
            ::close(fd);
            return nullptr;
        }
        done += size_t(n);
    }
    path = "/proc/self/fd/" + std::to_string(fd);
    std::shared_ptr<const cuzk::io::byte_source> src;
    try {
        src = std::make_shared<cuzk::io::mapped_source>(path);
    } catch (const cuzk::error&) {
    }
    ::close(fd);  // the mapping keeps the file
    return src;
}

template <class Curve>
void run(const uint8_t* data, size_t size, bool check_points) {
    using Z = cuzk::io::zkey<Curve>;
    const cuzk::io::zkey_read_options opt{.check_points = check_points};
    std::string from_memory = "(read)", from_map = "(read)", path;
    Z z, zm;
    try {
        auto src = std::make_shared<cuzk::io::memory_source>(std::span(data, size), "fuzz.zkey");
        z = Z::read(src, opt);
    } catch (const cuzk::decode_error& e) {
        from_memory = e.what();
    }
    const auto m = mapped(data, size, path);
    if (!m) return;
    try {
        zm = Z::read(m, opt);
    } catch (const cuzk::decode_error& e) {
        from_map = e.what();
        for (size_t at; (at = from_map.find(path)) != std::string::npos;) from_map.replace(at, path.size(), "fuzz.zkey");
    }
    if (from_memory != from_map) std::abort();  // the mapped read must fail exactly as the other
    if (from_memory == "(read)" && !(z.a == zm.a && z.b1 == zm.b1 && z.b2 == zm.b2 && z.c == zm.c && z.h == zm.h))
        std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const bool check = size == 0 || (data[size - 1] & 1) == 0;
    run<cuzk::io::bn128>(data, size, check);
    run<cuzk::io::bls12381>(data, size, check);
    return 0;
}
