// SPDX-License-Identifier: MIT OR Apache-2.0
// binfile: the iden3 sectioned binary container shared by .r1cs, .wtns, .zkey and .ptau.
//
// Layout (iden3/binfileutils, all integers little-endian):
//   magic[4]  u32 version  u32 nSections  { u32 id  u64 size  byte[size] } * nSections
// Sections may appear in any order (circom writes r1cs sections 2, 1, 3), so readers look them
// up by id. This reader is strict: the section table must tile the file exactly (a truncated
// file, a section running past the end or bytes after the last section are errors), ids must
// be unique, and every error is a cuzk::decode_error naming the file, the section and what
// is wrong. Bytes are read from a byte_source (a file read with pread, or caller-owned
// memory), so large arrays go straight from the file into their final storage.
//
// binfile_writer writes the same container: sections in the order the caller opens them, each
// size patched in when the section ends, large arrays written straight from their vectors, the
// file put in place atomically when it is complete.
#pragma once

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/core/error.hpp"
#include "cuzk/core/bulk_vector.hpp"
#include "cuzk/io/atomic_file.hpp"

namespace cuzk::io {

static_assert(std::endian::native == std::endian::little,
              "cuzk::io reads little-endian file data straight into memory");

// ---- byte sources ---------------------------------------------------------------------------

/// Random-access read-only bytes with a name for error messages.
class byte_source {
public:
    virtual ~byte_source() = default;
    /// Total size in bytes.
    virtual uint64_t size() const = 0;
    /// Copies n bytes at offset into dst; throws decode_error if they are not all there.
    virtual void read_at(uint64_t offset, void* dst, size_t n) const = 0;
    /// The file name (or a label) used in error messages.
    const std::string& name() const { return name_; }
    /// All the bytes in memory that stays valid, unchanged by this process, as long as the source
    /// lives (a mapped file: io/mapped_file.hpp), for readers that keep views instead of copies;
    /// empty where the source cannot promise that (a file read with pread, caller-owned memory).
    virtual std::span<const uint8_t> stable_bytes() const { return {}; }

protected:
    explicit byte_source(std::string name) : name_(std::move(name)) {}
    std::string name_;
};

/// What kind of file a stat mode is, for messages ("a FIFO", "a directory", ...).
inline const char* file_kind(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a plain file";
}

/// Opens path read-only, refusing anything but a regular file without blocking (O_NONBLOCK, so
/// that a FIFO without a writer does not hang the open; cleared again for a regular file, where
/// it means nothing anyway). Returns the descriptor; throws cuzk::error naming the path.
inline int open_regular_file(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) throw error(path + ": cannot open: " + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const int e = errno;
        ::close(fd);
        throw error(path + ": cannot stat: " + std::strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        throw error(path + ": not a regular file (" + file_kind(st.st_mode) + "): only regular files are read");
    }
    if (const int flags = ::fcntl(fd, F_GETFL); flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    return fd;
}

/// A file on disk, read with pread (no shared file position, so concurrent reads are fine).
class file_source final : public byte_source {
public:
    /// Opens path for reading; throws cuzk::error if it cannot be opened or is not a regular
    /// file. A FIFO, a device or a socket has no size to bound a read by (/dev/zero never ends),
    /// and opening a FIFO without a writer blocks: the file is opened non-blocking, so that such
    /// a file is refused at once.
    explicit file_source(const std::string& path) : byte_source(path) {
        fd_ = open_regular_file(path);
        struct stat st {};
        ::fstat(fd_, &st);
        size_ = uint64_t(st.st_size);
    }
    file_source(const file_source&) = delete;
    file_source& operator=(const file_source&) = delete;
    ~file_source() override { ::close(fd_); }

    uint64_t size() const override { return size_; }
    /// The open descriptor (io/mapped_file.hpp maps the same file through it).
    int descriptor() const { return fd_; }
    void read_at(uint64_t offset, void* dst, size_t n) const override {
        auto* p = static_cast<uint8_t*>(dst);
        while (n > 0) {
            ssize_t got = ::pread(fd_, p, n, off_t(offset));
            if (got < 0 && errno == EINTR) continue;
            if (got < 0) throw error(name_ + ": read failed at byte " + std::to_string(offset) + ": " + std::strerror(errno));
            if (got == 0) throw decode_error(name_ + ": unexpected end of file at byte " + std::to_string(offset));
            p += got;
            n -= size_t(got);
            offset += uint64_t(got);
        }
    }

private:
    int fd_ = -1;
    uint64_t size_ = 0;
};

/// Bytes owned by the caller, who keeps them alive while the source is used.
class memory_source final : public byte_source {
public:
    explicit memory_source(std::span<const uint8_t> bytes, std::string name = "<memory>")
        : byte_source(std::move(name)), bytes_(bytes) {}
    uint64_t size() const override { return bytes_.size(); }
    void read_at(uint64_t offset, void* dst, size_t n) const override {
        if (offset > bytes_.size() || n > bytes_.size() - offset)
            throw decode_error(name_ + ": unexpected end of data at byte " + std::to_string(offset));
        if (n) std::memcpy(dst, bytes_.data() + offset, n);
    }

private:
    std::span<const uint8_t> bytes_;
};

// ---- the container ----------------------------------------------------------------------------

/// One entry of the section table.
struct section_info {
    uint32_t id;      ///< section type id
    uint64_t offset;  ///< file offset of the first content byte
    uint64_t size;    ///< content bytes
};

class binfile;

/// Sequential, bounds-checked reads inside one section. Small reads are served from a
/// buffer; large ones go straight into the caller's memory.
class section_reader {
public:
    section_reader(const binfile& file, const section_info& s);

    /// Bytes left in the section.
    uint64_t remaining() const { return s_.size - pos_; }
    /// Bytes consumed so far.
    uint64_t position() const { return pos_; }

    /// Reads n bytes into dst; throws decode_error if the section ends first.
    void read(void* dst, size_t n);
    uint32_t u32() {
        uint8_t b[4];
        read(b, 4);
        return uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
    }
    uint64_t u64() {
        uint64_t lo = u32();
        return lo | uint64_t(u32()) << 32;
    }
    /// Reads n bytes.
    std::vector<uint8_t> bytes(size_t n) {
        need(n, "bytes");
        std::vector<uint8_t> v(n);
        read(v.data(), n);
        return v;
    }
    /// Consumes the next n bytes without reading them and returns their offset in source(), for
    /// readers that fetch a large range in parallel chunks (byte_source::read_at is thread-safe).
    uint64_t take(uint64_t n) {
        need(n, "data");
        const uint64_t at = s_.offset + pos_;
        drop_buffer();
        pos_ += n;
        return at;
    }
    /// The byte source this section lies in.
    const byte_source& source() const;
    /// Skips n bytes.
    void skip(uint64_t n) {
        need(n, "bytes");
        drop_buffer();
        pos_ += n;
    }
    /// Throws unless at least n more bytes are in the section (checked before allocating).
    void need(uint64_t n, std::string_view what) const;
    /// Throws unless the whole section was consumed (its size disagrees with its content).
    void expect_end() const;
    /// A decode_error naming the file and this section.
    [[nodiscard]] decode_error fail(std::string_view what) const;

private:
    void drop_buffer() {
        buf_begin_ = buf_end_ = 0;
    }
    const binfile& file_;
    section_info s_;
    uint64_t pos_ = 0;  // within the section
    std::vector<uint8_t> buf_;
    size_t buf_begin_ = 0, buf_end_ = 0;  // unread bytes in buf_ start at section position pos_
    static constexpr size_t buffer_size = size_t(1) << 16;
};

/// A parsed section table over a byte_source. Readers of the concrete formats build on it.
class binfile {
public:
    /// Human-readable name of a section id, for error messages (may return "").
    using section_namer = std::string (*)(uint32_t id);

    /// Parses the header and section table. Checks the 4-byte magic and the version, that the
    /// sections tile the source exactly, and that no id repeats.
    binfile(std::shared_ptr<const byte_source> src, std::string_view magic, uint32_t version,
            section_namer namer = nullptr)
        : src_(std::move(src)), namer_(namer) {
        const uint64_t total = src_->size();
        if (total < 12)
            throw decode_error(src_->name() + ": file too short for a header (" + std::to_string(total) +
                               " bytes, need 12)");
        uint8_t head[12];
        src_->read_at(0, head, 12);
        if (std::memcmp(head, magic.data(), 4) != 0)
            throw decode_error(src_->name() + ": bad magic '" + printable(head, 4) + "', expected '" +
                               std::string(magic) + "'");
        version_ = le32(head + 4);
        if (version_ != version)
            throw decode_error(src_->name() + ": unsupported " + std::string(magic) + " version " +
                               std::to_string(version_) + " (supported: " + std::to_string(version) + ")");
        const uint32_t n = le32(head + 8);
        // Each section needs at least its 12-byte header: bound the count before allocating.
        if (n > (total - 12) / 12)
            throw decode_error(src_->name() + ": header claims " + std::to_string(n) +
                               " sections, more than the file can hold");
        sections_.reserve(n);
        // Time linear in the table: section headers are read through a window (a table of
        // empty sections is one read per window, not one per header), and repeated ids are
        // found by sorting them once (a pairwise check took minutes on a 12 MB file of a
        // million empty sections).
        std::vector<uint8_t> window;
        uint64_t window_at = 0;
        uint64_t pos = 12;
        for (uint32_t i = 0; i < n; ++i) {
            if (total - pos < 12)
                throw decode_error(src_->name() + ": truncated: section header " + std::to_string(i) + " of " +
                                   std::to_string(n) + " at byte " + std::to_string(pos) + " is cut off");
            if (pos < window_at || pos + 12 > window_at + window.size()) {
                window.resize(size_t(std::min<uint64_t>(header_window, total - pos)));
                window_at = pos;
                src_->read_at(pos, window.data(), window.size());
            }
            const uint8_t* sh = window.data() + (pos - window_at);
            section_info s{le32(sh), pos + 12, le64(sh + 4)};
            if (s.size > total - s.offset)
                throw decode_error(where(s.id) + ": truncated: section size " + std::to_string(s.size) +
                                   " runs past the end of the file (" + std::to_string(total - s.offset) +
                                   " bytes left)");
            sections_.push_back(s);
            pos = s.offset + s.size;
        }
        if (pos != total)
            throw decode_error(src_->name() + ": " + std::to_string(total - pos) +
                               " unexpected bytes after the last section");
        std::vector<uint32_t> ids(sections_.size());
        for (size_t i = 0; i < ids.size(); ++i) ids[i] = sections_[i].id;
        std::sort(ids.begin(), ids.end());
        if (auto d = std::adjacent_find(ids.begin(), ids.end()); d != ids.end())
            throw decode_error(where(*d) + ": duplicate section");
    }

    /// Opens and parses a file.
    static binfile open(const std::string& path, std::string_view magic, uint32_t version,
                        section_namer namer = nullptr) {
        return binfile(std::make_shared<file_source>(path), magic, version, namer);
    }

    const byte_source& source() const { return *src_; }
    /// The source, shared: what a view of its stable_bytes holds to keep them alive.
    std::shared_ptr<const byte_source> shared_source() const { return src_; }
    const std::string& name() const { return src_->name(); }
    uint32_t version() const { return version_; }
    const std::vector<section_info>& sections() const { return sections_; }

    bool has(uint32_t id) const {
        return std::any_of(sections_.begin(), sections_.end(), [&](const auto& s) { return s.id == id; });
    }
    /// The section with this id; throws decode_error if it is missing.
    const section_info& section(uint32_t id) const {
        for (const auto& s : sections_)
            if (s.id == id) return s;
        throw decode_error(where(id) + ": missing section");
    }
    /// A reader over the section with this id (throws if missing).
    section_reader reader(uint32_t id) const { return section_reader(*this, section(id)); }

    /// Throws decode_error for any section id not in `known`.
    void require_known_sections(std::initializer_list<uint32_t> known) const {
        for (const auto& s : sections_)
            if (std::find(known.begin(), known.end(), s.id) == known.end())
                throw decode_error(where(s.id) + ": unknown section id");
    }

    /// "file: section N (name)" for messages.
    std::string where(uint32_t id) const {
        std::string w = src_->name() + ": section " + std::to_string(id);
        if (namer_) {
            std::string n = namer_(id);
            if (!n.empty()) w += " (" + n + ")";
        }
        return w;
    }

    static uint32_t le32(const uint8_t* p) {
        return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
    }
    static uint64_t le64(const uint8_t* p) { return uint64_t(le32(p)) | uint64_t(le32(p + 4)) << 32; }

private:
    static std::string printable(const uint8_t* p, size_t n) {
        std::string s;
        for (size_t i = 0; i < n; ++i) s += (p[i] >= 0x20 && p[i] < 0x7f) ? char(p[i]) : '?';
        return s;
    }

    /// Bytes of the section table read at once (a window holds 5461 empty sections' headers).
    static constexpr size_t header_window = size_t(1) << 16;

    std::shared_ptr<const byte_source> src_;
    section_namer namer_;
    uint32_t version_ = 0;
    std::vector<section_info> sections_;
};

// ---- section_reader (needs binfile) ---------------------------------------------------------

inline section_reader::section_reader(const binfile& file, const section_info& s) : file_(file), s_(s) {}

inline const byte_source& section_reader::source() const { return file_.source(); }

inline decode_error section_reader::fail(std::string_view what) const {
    return decode_error(file_.where(s_.id) + ": " + std::string(what));
}

inline void section_reader::need(uint64_t n, std::string_view what) const {
    if (n > remaining())
        throw fail("truncated: needs " + std::to_string(n) + " more bytes for " + std::string(what) + " at offset " +
                   std::to_string(pos_) + ", section has " + std::to_string(remaining()) + " left");
}

inline void section_reader::expect_end() const {
    if (remaining() != 0)
        throw fail("section size " + std::to_string(s_.size) + " disagrees with its content (" +
                   std::to_string(remaining()) + " bytes left over)");
}

inline void section_reader::read(void* dst, size_t n) {
    need(n, "data");
    auto* out = static_cast<uint8_t*>(dst);
    // Serve what the buffer holds.
    size_t avail = buf_end_ - buf_begin_;
    size_t take = std::min(avail, n);
    if (take) {
        std::memcpy(out, buf_.data() + buf_begin_, take);
        buf_begin_ += take;
        pos_ += take;
        out += take;
        n -= take;
    }
    if (n == 0) return;
    if (n >= buffer_size) {  // large: straight into the destination
        file_.source().read_at(s_.offset + pos_, out, n);
        pos_ += n;
        return;
    }
    if (buf_.empty()) buf_.resize(buffer_size);
    size_t fill = size_t(std::min<uint64_t>(buffer_size, remaining()));
    file_.source().read_at(s_.offset + pos_, buf_.data(), fill);
    buf_begin_ = 0;
    buf_end_ = fill;
    std::memcpy(out, buf_.data(), n);
    buf_begin_ = n;
    pos_ += n;
}

// ---- writing ----------------------------------------------------------------------------------

/// Writes an iden3 container to a file: magic, version, section count, then sections written
/// one at a time (begin_section, content, end_section; the size is patched in at the end).
/// Every failure throws cuzk::error naming the file. The file is written under a temporary name
/// (io/atomic_file.hpp) and appears under its own only at close(), complete: a writer destroyed
/// before close() (an exception, a kill) leaves the old file, or none, in place.
class binfile_writer {
public:
    /// Creates the temporary file beside path and writes the 12-byte header.
    binfile_writer(const std::string& path, std::string_view magic, uint32_t version, uint32_t n_sections)
        : path_(path), f_(checked_magic(path, magic)) {
        write(magic.data(), 4);
        u32(version);
        u32(n_sections);
        sections_left_ = n_sections;
    }
    binfile_writer(const binfile_writer&) = delete;
    binfile_writer& operator=(const binfile_writer&) = delete;

    /// Starts section `id` (a placeholder size is written now and patched by end_section).
    void begin_section(uint32_t id) {
        if (in_section_) throw error(path_ + ": binfile_writer: section " + std::to_string(id) + " begun inside another");
        if (sections_left_ == 0) throw error(path_ + ": binfile_writer: more sections than the header announced");
        u32(id);
        size_pos_ = pos_;
        u64(0);
        in_section_ = true;
    }
    /// Ends the current section and writes its size.
    void end_section() {
        if (!in_section_) throw error(path_ + ": binfile_writer: end_section without begin_section");
        const uint64_t end = pos_, size = end - size_pos_ - 8;
        f_.seek(size_pos_);
        u64(size);
        pos_ = end;
        f_.seek(end);
        in_section_ = false;
        --sections_left_;
    }
    /// Raw bytes.
    void write(const void* p, size_t n) {
        f_.write(p, n);
        pos_ += n;
    }
    void u32(uint32_t v) {
        uint8_t b[4];
        for (int i = 0; i < 4; ++i) b[i] = uint8_t(v >> (8 * i));
        write(b, 4);
    }
    void u64(uint64_t v) {
        u32(uint32_t(v));
        u32(uint32_t(v >> 32));
    }
    /// Flushes the file to disk and puts it in place; throws if a section is open, fewer
    /// sections than announced were written, or the data could not be written.
    void close() {
        if (in_section_) throw error(path_ + ": binfile_writer: closed inside a section");
        if (sections_left_ != 0)
            throw error(path_ + ": binfile_writer: " + std::to_string(sections_left_) + " announced sections not written");
        f_.commit();
    }

private:
    static std::string checked_magic(const std::string& path, std::string_view magic) {
        if (magic.size() != 4) throw invalid_argument("binfile_writer: magic must be 4 bytes");
        return path;
    }
    std::string path_;
    atomic_file f_;
    uint64_t pos_ = 0, size_pos_ = 0;
    uint32_t sections_left_ = 0;
    bool in_section_ = false;
};

}  // namespace cuzk::io
