// SPDX-License-Identifier: MIT OR Apache-2.0
// libFuzzer target: the readers' bounds. Each input is a recipe (recipe.hpp) for one of:
// 0. a section container (wtns, zkey, r1cs or a raw magic) of up to 16,384 sections whose ids,
//    sizes, count field and tail come from the input: the section scan (io/binfile.hpp) must
//    accept exactly the tables that tile the file with unique ids (a naive parser here, with a
//    std::set, is the oracle), list the same sections, read no more than about the file's bytes
//    (a scan that re-reads its window per section reads hundreds of times more), and the
//    format readers on top must refuse or read the file with a decode_error, nothing else;
// 1. read_text_file with a limit at, just below or above the text's size, from a regular file,
//    a pipe fed by a thread, /dev/zero or a directory: the text comes back whole when it fits,
//    else the error names the limit, and an endless input is refused at it;
// 2. the JSON readers on text that may be nested (up to 100,000 levels: the parser's depth
//    limit, not the stack, must stop it) or an array of up to 2,000 signals: parse or decode_error.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "cuzk/io/binfile.hpp"
#include "cuzk/io/r1cs.hpp"
#include "cuzk/io/snarkjs_json.hpp"
#include "cuzk/io/wtns.hpp"
#include "cuzk/io/zkey.hpp"
#include "recipe.hpp"

namespace {

namespace fs = std::filesystem;
using bytes = std::vector<uint8_t>;

constexpr uint32_t max_sections = 16384;
fs::path work_dir;

[[noreturn]] void bug(const std::string& what) {
    std::fprintf(stderr, "fuzz_bounded_readers: %s\n", what.c_str());
    std::abort();
}

void put32(bytes& b, uint32_t v) {
    for (int i = 0; i < 4; ++i) b.push_back(uint8_t(v >> (8 * i)));
}
void put64(bytes& b, uint64_t v) {
    for (int i = 0; i < 8; ++i) b.push_back(uint8_t(v >> (8 * i)));
}
uint32_t get32(const uint8_t* p) { return p[0] | p[1] << 8 | p[2] << 16 | uint32_t(p[3]) << 24; }
uint64_t get64(const uint8_t* p) { return get32(p) | uint64_t(get32(p + 4)) << 32; }

/// A memory source that counts the bytes read from it.
class counting_source final : public cuzk::io::byte_source {
public:
    explicit counting_source(std::span<const uint8_t> b) : byte_source("fuzz.bin"), b_(b) {}
    uint64_t size() const override { return b_.size(); }
    void read_at(uint64_t offset, void* dst, size_t n) const override {
        if (offset > b_.size() || n > b_.size() - offset) throw cuzk::decode_error("fuzz.bin: read past the end");
        std::memcpy(dst, b_.data() + offset, n);
        read_ += n;
    }
    uint64_t bytes_read() const { return read_; }

private:
    std::span<const uint8_t> b_;
    mutable uint64_t read_ = 0;
};

struct section {
    uint32_t id;
    uint64_t offset, size;
};

/// The oracle: the section table if it tiles the file exactly with unique ids, else nothing.
bool naive_table(const bytes& f, const char* magic, uint32_t version, std::vector<section>& out) {
    if (f.size() < 12 || std::memcmp(f.data(), magic, 4) != 0 || get32(f.data() + 4) != version) return false;
    const uint32_t n = get32(f.data() + 8);
    std::set<uint32_t> ids;
    uint64_t pos = 12;
    for (uint32_t i = 0; i < n; ++i) {
        if (f.size() - pos < 12) return false;
        const section s{get32(f.data() + pos), pos + 12, get64(f.data() + pos + 4)};
        if (s.size > f.size() - s.offset || !ids.insert(s.id).second) return false;
        out.push_back(s);
        pos = s.offset + s.size;
    }
    return pos == f.size();
}

template <class F>
void decode_or_refuse(F&& f) {
    try {
        f();
    } catch (const cuzk::decode_error&) {
    }
}

void sections(fuzz::recipe& in) {
    static constexpr const char* magics[] = {"wtns", "zkey", "r1cs"};
    static constexpr uint32_t versions[] = {2, 1, 1};
    const uint8_t which = in.byte() % 4;
    char magic[5] = "wtns";
    uint32_t version = 2;
    if (which < 3) {
        std::memcpy(magic, magics[which], 4);
        version = versions[which];
    } else {
        for (int i = 0; i < 4; ++i) magic[i] = char(in.byte());
        version = in.take<uint32_t>();
    }
    const uint32_t n = in.take<uint16_t>() % (max_sections + 1);
    const uint8_t count_edit = in.byte();  // the count field: n, or off by a little or a lot
    const uint32_t claimed = count_edit % 8 == 1   ? n + 1
                             : count_edit % 8 == 2 ? n - 1
                             : count_edit % 8 == 3 ? 0xffffffffu
                                                   : n;
    const uint8_t ids = in.byte() % 4;  // from the input, 0..n-1, 0..n-1 with the last repeating the first, all 7
    const uint8_t sizes = in.byte() % 3;  // all 0, from the input (0..15), one large claimed size
    bytes f(magic, magic + 4);
    put32(f, version);
    put32(f, claimed);
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t id = ids == 0 ? in.byte() : ids == 1 ? i : ids == 2 ? (i + 1 == n ? 0 : i) : 7;
        uint64_t size = sizes == 1 ? in.byte() % 16 : 0;
        if (sizes == 2 && i == n / 2) size = in.pick<uint64_t>({1u << 20, ~0ull, 12});
        put32(f, id);
        put64(f, size);
        if (size <= 16)
            for (uint64_t k = 0; k < size; ++k) f.push_back(in.byte());
    }
    for (uint8_t k = 0, extra = in.byte() % 4; k < extra; ++k) f.push_back(in.byte());  // a tail
    if (const uint8_t cut = in.byte() % 8; cut < 4 && cut <= f.size()) f.resize(f.size() - cut);

    std::vector<section> want;
    const bool tiles = naive_table(f, magic, version, want);
    auto src = std::make_shared<counting_source>(std::span<const uint8_t>(f));
    bool parsed = false;
    try {
        const cuzk::io::binfile b(src, std::string_view(magic, 4), version);
        parsed = true;
        const auto& got = b.sections();
        if (got.size() != want.size()) bug("the scan lists another number of sections than the table holds");
        for (size_t i = 0; i < got.size(); ++i)
            if (got[i].id != want[i].id || got[i].offset != want[i].offset || got[i].size != want[i].size)
                bug("the scan lists section " + std::to_string(i) + " differently");
    } catch (const cuzk::decode_error&) {
    }
    if (parsed != tiles) bug(tiles ? "a well-formed section table was refused" : "a malformed section table was accepted");
    // Linear reading: the headers once, through windows that overlap by at most a header.
    if (src->bytes_read() > 2 * f.size() + 64 * 1024) bug("the scan read " + std::to_string(src->bytes_read()) +
                                                         " bytes of a " + std::to_string(f.size()) + "-byte file");
    const std::span<const uint8_t> view(f);
    auto mem = [&] { return std::make_shared<cuzk::io::memory_source>(view, "fuzz.bin"); };
    decode_or_refuse([&] { (void)cuzk::io::wtns<cuzk::io::bn128>::read(mem()); });
    decode_or_refuse([&] { (void)cuzk::io::r1cs<cuzk::io::bn128>::read(mem()); });
    decode_or_refuse([&] {
        (void)cuzk::io::zkey<cuzk::io::bls12381>::read(mem(), cuzk::io::zkey_read_options{.check_points = false});
    });
}

void text_files(fuzz::recipe& in) {
    const uint8_t kind = in.byte() % 4;  // regular file, pipe, /dev/zero, directory
    const uint8_t repeat = in.byte() % 16;
    const auto piece = in.bytes(4096);
    std::string text;
    for (int r = 0; r <= repeat * 16; ++r) text.append(reinterpret_cast<const char*>(piece.data()), piece.size());
    const size_t limit = in.pick<size_t>({text.size(), text.size() + 1, text.size() ? text.size() - 1 : 0, 0,
                                          size_t(1) << 16}) % (size_t(1) << 20);
    std::string path;
    int fds[2] = {-1, -1};
    std::thread writer;
    if (kind == 0) {
        path = (work_dir / "text").string();
        FILE* f = std::fopen(path.c_str(), "wb");
        if (!f || std::fwrite(text.data(), 1, text.size(), f) != text.size() || std::fclose(f) != 0)
            bug("cannot write the text file");
    } else if (kind == 1) {
        if (::pipe(fds) != 0) bug("pipe failed");
        path = "/dev/fd/" + std::to_string(fds[0]);
        writer = std::thread([&] {  // stops when the reader closes its end (EPIPE)
            for (size_t at = 0; at < text.size();) {
                const ssize_t w = ::write(fds[1], text.data() + at, text.size() - at);
                if (w <= 0) break;
                at += size_t(w);
            }
            ::close(fds[1]);
        });
    } else if (kind == 2) {
        path = "/dev/zero";
    } else {
        path = work_dir.string();
    }
    std::string got, error;
    bool ok = false;
    try {
        got = cuzk::io::read_text_file(path, limit);
        ok = true;
    } catch (const cuzk::error& e) {
        error = e.what();
    }
    if (kind == 1) {
        ::close(fds[0]);  // /dev/fd/N was opened again: this closes the original
        writer.join();
    }
    const std::string named = std::to_string(limit);
    if (kind >= 2) {
        if (ok) bug("read_text_file returned for " + path);
        if (kind == 2 && error.find(named) == std::string::npos) bug("/dev/zero's error does not name the limit: " + error);
        return;
    }
    const bool fits = text.size() <= limit;
    if (ok != fits) bug(fits ? "a text within the limit was refused: " + error : "a text over the limit was read");
    if (ok && got != text) bug("read_text_file returned other bytes than the file's");
    if (!ok && error.find(named) == std::string::npos) bug("the error does not name the limit: " + error);
}

template <class Curve>
void json_readers(std::string_view text) {
    using namespace cuzk::io;
    decode_or_refuse([&] { (void)proof_from_json<Curve>(text); });
    decode_or_refuse([&] { (void)public_from_json<Curve>(text); });
    decode_or_refuse([&] { (void)vk_from_json<Curve>(text); });
}

void json_texts(fuzz::recipe& in) {
    const uint8_t shape = in.byte() % 3;  // as given, nested, a long array of signals
    const uint32_t count = in.take<uint32_t>() % 100001;
    const auto piece = in.bytes(1024);
    const std::string p(reinterpret_cast<const char*>(piece.data()), piece.size());
    std::string text;
    if (shape == 0) {
        text = p;
    } else if (shape == 1) {
        text.assign(count, '[');
        text += p;
        text.append(count, ']');
    } else {
        text = "[";
        for (uint32_t i = 0; i < count % 2001; ++i) text += (i ? ",\"" : "\"") + std::to_string(i) + "\"";
        text += p + "]";
    }
    bool parsed = false;
    decode_or_refuse([&] {
        (void)cuzk::io::json::parse(text);
        parsed = true;
    });
    if (shape == 1 && count > 64 && parsed) bug("text nested " + std::to_string(count) + " deep was parsed");
    json_readers<cuzk::io::bn128>(text);
    json_readers<cuzk::io::bls12381>(text);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    ::signal(SIGPIPE, SIG_IGN);  // the pipe's writer sees EPIPE when the reader stops at the limit
    work_dir = fs::temp_directory_path() / ("cuzk_fuzz_bounded_" + std::to_string(::getpid()));
    fs::create_directories(work_dir);
    std::atexit([] {
        std::error_code ec;
        fs::remove_all(work_dir, ec);
    });
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fuzz::recipe in(data, size);
    switch (in.byte() % 3) {
        case 0: sections(in); break;
        case 1: text_files(in); break;
        default: json_texts(in); break;
    }
    return 0;
}
