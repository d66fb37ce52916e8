// SPDX-License-Identifier: MIT OR Apache-2.0
// atomic_file: output files that appear under their names complete or not at all.
//
// A file opened with O_TRUNC and written in place is empty or cut short after a kill, a crash or
// a full disk, and a reader cannot tell. atomic_file writes to a temporary file in the
// destination's folder (so that the rename is within one file system), and commit() flushes it
// to disk (fsync), renames it onto the destination and flushes the folder: the destination holds
// either its old content or all of the new. Without commit (an exception, a write error) the
// temporary file is removed. A SIGKILL between creation and commit can leave the temporary file
// behind ("NAME.tmp.PID.N" beside NAME), never a partial NAME.
//
// write_files_atomically writes a group of files whose last one is the group's commit mark (a
// proof.json beside its public.json): that file exists only complete and with the others' new
// contents beside it.
#pragma once

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/core/error.hpp"

namespace cuzk::io {

/// A file written under a temporary name beside `path` and renamed onto it by commit().
/// Writes are buffered (stdio); every failure throws cuzk::error naming the destination.
class atomic_file {
public:
    /// Creates the temporary file (mode 0666 less the umask, as a plain create would give).
    explicit atomic_file(std::string path) : path_(std::move(path)) {
        if (path_.empty()) throw error("atomic_file: empty path");
        static std::atomic<unsigned> counter{0};
        for (int attempt = 0; attempt < 100; ++attempt) {
            temp_ = path_ + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
            const int fd = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
            if (fd < 0 && errno == EEXIST) continue;  // left by a killed process of the same pid
            if (fd < 0) throw error(path_ + ": cannot create (" + temp_ + "): " + std::strerror(errno));
            f_ = ::fdopen(fd, "wb");
            if (!f_) {
                const int e = errno;
                ::close(fd);
                ::unlink(temp_.c_str());
                throw error(path_ + ": cannot create: " + std::strerror(e));
            }
            return;
        }
        throw error(path_ + ": cannot create a temporary file beside it (100 names taken)");
    }
    atomic_file(const atomic_file&) = delete;
    atomic_file& operator=(const atomic_file&) = delete;
    /// Not committed: the temporary file is closed and removed; the destination is untouched.
    ~atomic_file() { discard(); }

    const std::string& path() const { return path_; }
    const std::string& temp_path() const { return temp_; }
    bool committed() const { return committed_; }

    void write(const void* p, size_t n) {
        if (!f_) throw error(path_ + ": write after commit or discard");
        if (n && std::fwrite(p, 1, n, f_) != n) throw error(path_ + ": write failed: " + std::strerror(errno));
    }
    void write(std::string_view s) { write(s.data(), s.size()); }
    /// Moves the write position (for formats that patch a size in after its content).
    void seek(uint64_t offset) {
        if (!f_ || std::fflush(f_) != 0 || ::fseeko(f_, off_t(offset), SEEK_SET) != 0)
            throw error(path_ + ": seek failed: " + std::strerror(errno));
    }

    /// Flushes the data to disk and closes the temporary file, without renaming it yet (the
    /// first half of commit, for groups of files: write_files_atomically).
    void finish() {
        if (!f_) throw error(path_ + ": finish after commit or discard");
        std::FILE* f = f_;
        f_ = nullptr;
        const bool ok = std::fflush(f) == 0 && ::fsync(::fileno(f)) == 0;
        const int e = errno;
        if (std::fclose(f) != 0 || !ok) {
            ::unlink(temp_.c_str());
            temp_.clear();
            throw error(path_ + ": write failed: " + std::strerror(ok ? errno : e));
        }
    }

    /// Renames the finished temporary file onto the destination and flushes the folder.
    void publish() {
        if (f_) finish();
        if (temp_.empty()) throw error(path_ + ": publish after a failure or discard");
        if (::rename(temp_.c_str(), path_.c_str()) != 0) {
            const int e = errno;
            ::unlink(temp_.c_str());
            temp_.clear();
            throw error(path_ + ": cannot rename the finished file onto it: " + std::strerror(e));
        }
        temp_.clear();
        committed_ = true;
        sync_folder(path_);
    }

    /// finish() then publish(): the destination now holds everything written.
    void commit() {
        finish();
        publish();
    }

    /// Closes and removes the temporary file (nothing if committed).
    void discard() noexcept {
        if (f_) std::fclose(f_), f_ = nullptr;
        if (!temp_.empty()) ::unlink(temp_.c_str()), temp_.clear();
    }

    /// fsync of the folder holding path, so that a rename into it survives a power loss (best
    /// effort: some file systems refuse fsync on a folder, and the data itself is already flushed).
    static void sync_folder(const std::string& path) {
        std::filesystem::path folder = std::filesystem::path(path).parent_path();
        if (folder.empty()) folder = ".";
        const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd >= 0) {
            (void)::fsync(fd);
            ::close(fd);
        }
    }

private:
    std::string path_, temp_;
    std::FILE* f_ = nullptr;
    bool committed_ = false;
};

/// Writes text to path atomically (atomic_file). cuzk::error on failure, the old file intact.
inline void write_file_atomically(const std::string& path, std::string_view text) {
    atomic_file f(path);
    f.write(text);
    f.commit();
}

/// Two paths that name one file (the same string, or two names of an existing file), so that
/// writing one would overwrite the other.
inline bool same_file(const std::string& a, const std::string& b) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::weakly_canonical(a, ec) == fs::weakly_canonical(b, ec) && !ec) return true;
    return fs::exists(a, ec) && fs::exists(b, ec) && fs::equivalent(a, b, ec);
}

/// Writes every (path, text) so that the last path is the group's commit mark: it exists only
/// complete, with every other file's new content beside it. All are written and flushed under
/// temporary names first; then the last path's old file is removed (a stale mark must not stand
/// beside new files), the others are renamed in order and the last one renamed in last. On any
/// failure what this call created is removed (temporaries, and files already renamed), and
/// cuzk::error says what failed. Two paths naming one file are refused before anything is written.
inline void write_files_atomically(const std::vector<std::pair<std::string, std::string_view>>& files) {
    for (size_t i = 0; i < files.size(); ++i)
        for (size_t j = i + 1; j < files.size(); ++j)
            if (same_file(files[i].first, files[j].first))
                throw invalid_argument(files[i].first + " and " + files[j].first +
                                       " are the same file: one would overwrite the other");
    std::vector<std::unique_ptr<atomic_file>> out;
    out.reserve(files.size());
    for (const auto& [path, text] : files) {
        out.push_back(std::make_unique<atomic_file>(path));
        out.back()->write(text);
        out.back()->finish();
    }
    if (out.empty()) return;
    const std::string& mark = files.back().first;
    if (::unlink(mark.c_str()) != 0 && errno != ENOENT)
        throw error(mark + ": cannot remove the old file: " + std::strerror(errno));
    size_t renamed = 0;
    try {
        for (; renamed < out.size(); ++renamed) out[renamed]->publish();
    } catch (...) {
        for (size_t k = 0; k < renamed; ++k) ::unlink(out[k]->path().c_str());
        throw;
    }
}

}  // namespace cuzk::io
