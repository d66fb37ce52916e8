// SPDX-License-Identifier: MIT OR Apache-2.0
// A regular file mapped read-only (mapped_file), and the byte_source over it (mapped_source) that
// lets a reader keep views of the file's bytes instead of copying them (zero-copy zkey reads).
//
// The mapping is PROT_READ, MAP_PRIVATE (as supraseal and rapidsnark map their keys): the pages
// are the page cache's, shared with every process that maps or reads the file, and nothing is
// zeroed or copied until a page is touched. Two hazards come with any mapping, and readers
// document them where they keep views: a file truncated by someone else while it is mapped
// raises SIGBUS when a page past the new end is touched (sizes are checked against fstat's at
// open, which is all a reader can do), and bytes rewritten in place by someone else show through
// (MAP_PRIVATE copies a page only when this process writes it, which it never does). Tools that
// replace a file (snarkjs, binfile_writer's atomic rename) leave the mapped inode untouched.
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/core/error.hpp"
#include "cuzk/io/binfile.hpp"

namespace cuzk::io {

/// The whole of a regular file read-only in memory (mmap PROT_READ, MAP_PRIVATE). A FIFO, a
/// device or a directory is refused without blocking (open_regular_file); an empty file maps to
/// no bytes.
class mapped_file {
public:
    explicit mapped_file(const std::string& path) {
        const int fd = open_regular_file(path);
        try {
            map(fd, path);
        } catch (...) {
            ::close(fd);
            throw;
        }
        ::close(fd);  // the mapping keeps the file
    }
    /// Maps the file open as fd (which stays the caller's).
    mapped_file(int fd, const std::string& path) { map(fd, path); }
    mapped_file(const mapped_file&) = delete;
    mapped_file& operator=(const mapped_file&) = delete;
    ~mapped_file() {
        if (data_) ::munmap(const_cast<uint8_t*>(data_), size_);
    }
    std::span<const uint8_t> bytes() const { return {data_, size_}; }

private:
    void map(int fd, const std::string& path) {
        struct stat st {};
        if (::fstat(fd, &st) != 0) throw error(path + ": cannot stat: " + std::strerror(errno));
        size_ = size_t(st.st_size);
        if (size_ == 0) return;
        void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) throw error(path + ": mmap failed: " + std::strerror(errno));
        data_ = static_cast<const uint8_t*>(p);
    }
    const uint8_t* data_ = nullptr;
    size_t size_ = 0;
};

/// A regular file both read with pread (read_at, as file_source) and mapped (stable_bytes), through
/// one descriptor, so both are the same file. A reader keeps views of the mapping, holding the
/// source (a shared_ptr) to keep it alive; what it copies it reads with pread, which leaves no
/// mapped pages in the process (the page cache has them either way): a copied section costs the
/// memory of one copy, not two.
class mapped_source final : public byte_source {
public:
    /// Opens and maps path; throws cuzk::error if it cannot be opened, is not a regular file or
    /// cannot be mapped.
    explicit mapped_source(const std::string& path) : byte_source(path), file_(path), map_(file_.descriptor(), path) {}

    uint64_t size() const override { return file_.size(); }
    void read_at(uint64_t offset, void* dst, size_t n) const override { file_.read_at(offset, dst, n); }
    std::span<const uint8_t> stable_bytes() const override { return map_.bytes(); }

private:
    file_source file_;
    mapped_file map_;
};

}  // namespace cuzk::io
