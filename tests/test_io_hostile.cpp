// SPDX-License-Identifier: MIT OR Apache-2.0
// io/ against hostile files: time and memory bounded by the input, special files refused at
// once, outputs written atomically.
// - a container of a million empty sections (12 MB) is scanned in well under a second (the
//   section table's duplicate check must be linear, not pairwise), and the readers of every
//   format refuse it;
// - a FIFO (no writer: opening it for reading would block forever) and other non-regular files
//   are refused by the file readers without blocking;
// - read_text_file stops at its limit on an endless input (/dev/zero) and on a large file, with a
//   message naming the limit, and reads a file of exactly the limit;
// - atomic_file: the destination holds the old content or all of the new, the temporary file is
//   removed on failure, the mode is the umask's; write_files_atomically's commit mark (the last
//   file) never stands beside another file's old content, and two names of one file are refused.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <iterator>
#include <string>
#include <vector>

#include "cuzk/io/atomic_file.hpp"
#include "cuzk/io/binfile.hpp"
#include "cuzk/io/r1cs.hpp"
#include "cuzk/io/snarkjs_json.hpp"
#include "cuzk/io/wtns.hpp"
#include "cuzk/io/zkey.hpp"

using namespace cuzk;
using namespace cuzk::io;
namespace fs = std::filesystem;

namespace {

/// Runs f on another thread; fails the test and ends the process (a blocked call cannot be
/// joined) if it has not returned within `limit`.
template <class F>
auto within(std::chrono::seconds limit, const char* what, F&& f) {
    auto done = std::async(std::launch::async, std::forward<F>(f));
    if (done.wait_for(limit) != std::future_status::ready) {
        ADD_FAILURE() << what << " did not return within " << limit.count() << " s";
        std::fprintf(stderr, "%s: hung, exiting\n", what);
        std::_Exit(1);
    }
    return done.get();
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

class IoHostile : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("cuzk_test_io_hostile_" + std::to_string(::getpid()));
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }
    std::string path(const std::string& name) const { return (dir_ / name).string(); }
    static std::string slurp(const std::string& p) {
        std::ifstream f(p, std::ios::binary);
        return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
    }
    static void put(const std::string& p, const std::string& text) {
        std::ofstream f(p, std::ios::binary);
        f << text;
    }
    /// Names in the folder (to find temporary files left behind).
    std::vector<std::string> listing() const {
        std::vector<std::string> v;
        for (const auto& e : fs::directory_iterator(dir_)) v.push_back(e.path().filename().string());
        std::sort(v.begin(), v.end());
        return v;
    }
    fs::path dir_;
};

/// An iden3 container: magic, version, n empty sections with ids first_id, first_id + 1, ...
std::vector<uint8_t> empty_sections(std::string_view magic, uint32_t version, uint32_t n, uint32_t first_id = 1) {
    std::vector<uint8_t> b(12 + size_t(n) * 12, 0);
    std::memcpy(b.data(), magic.data(), 4);
    std::memcpy(b.data() + 4, &version, 4);
    std::memcpy(b.data() + 8, &n, 4);
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t id = first_id + i;
        std::memcpy(b.data() + 12 + size_t(i) * 12, &id, 4);  // size (8 bytes) stays 0
    }
    return b;
}

TEST_F(IoHostile, AMillionEmptySectionsAreScannedInLinearTime) {
    constexpr uint32_t n = 1'000'000;
    const auto bytes = empty_sections("wtns", 2, n);
    const auto t0 = std::chrono::steady_clock::now();
    const size_t sections = within(std::chrono::seconds(60), "the section scan", [&] {
        return binfile(std::make_shared<memory_source>(bytes), "wtns", 2).sections().size();
    });
    EXPECT_EQ(sections, n);
    EXPECT_LT(seconds_since(t0), 2.0) << "a 12 MB section table";

    // The same through every file reader, from disk: refused (unknown or empty sections), fast.
    const auto write = [&](const std::string& name, std::string_view magic, uint32_t version) {
        const auto b = empty_sections(magic, version, n);
        std::ofstream(path(name), std::ios::binary).write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
        return path(name);
    };
    const std::string wtns_path = write("many.wtns", "wtns", 2), zkey_path = write("many.zkey", "zkey", 1),
                      r1cs_path = write("many.r1cs", "r1cs", 1);
    const auto t1 = std::chrono::steady_clock::now();
    within(std::chrono::seconds(60), "the readers", [&] {
        EXPECT_THROW((void)wtns<bn128>::read(wtns_path), decode_error);
        EXPECT_THROW((void)zkey<bn128>::read(zkey_path), decode_error);
        EXPECT_THROW((void)r1cs<bn128>::read(r1cs_path), decode_error);
        EXPECT_THROW((void)zkey_curve_name(zkey_path), decode_error);
        return 0;
    });
    EXPECT_LT(seconds_since(t1), 6.0) << "three readers of 12 MB files";
}

TEST_F(IoHostile, DuplicateSectionsFarApartAreStillFound) {
    auto bytes = empty_sections("wtns", 2, 100'000);
    const uint32_t id = 77;
    std::memcpy(bytes.data() + bytes.size() - 12, &id, 4);  // the last section repeats id 77
    try {
        binfile f(std::make_shared<memory_source>(bytes), "wtns", 2);
        ADD_FAILURE() << "a duplicate section was accepted";
    } catch (const decode_error& e) {
        EXPECT_NE(std::string(e.what()).find("section 77"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("duplicate"), std::string::npos) << e.what();
    }
}

TEST_F(IoHostile, SpecialFilesAreRefusedWithoutBlocking) {
    const std::string fifo = path("witness.fifo");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    for (const std::string& p : {fifo, std::string("/dev/zero"), dir_.string()}) {
        const std::string msg = within(std::chrono::seconds(20), "opening a special file", [&]() -> std::string {
            try {
                (void)wtns<bn128>::read(p);
            } catch (const error& e) {
                return e.what();
            }
            return "";
        });
        EXPECT_NE(msg.find("not a regular file"), std::string::npos) << p << ": " << msg;
    }
}

TEST_F(IoHostile, TextFilesAreReadUpToTheirLimit) {
    // An endless input: refused at the limit, naming it.
    const std::string msg = within(std::chrono::seconds(20), "reading /dev/zero", []() -> std::string {
        try {
            (void)read_text_file("/dev/zero");
        } catch (const error& e) {
            return e.what();
        }
        return "";
    });
    EXPECT_NE(msg.find(std::to_string(default_text_file_limit)), std::string::npos) << msg;
    // A regular file one byte over a given limit, and one of exactly the limit.
    put(path("big.json"), std::string(1001, ' '));
    try {
        (void)read_text_file(path("big.json"), 1000);
        ADD_FAILURE() << "a file over the limit was read";
    } catch (const error& e) {
        EXPECT_NE(std::string(e.what()).find("1000"), std::string::npos) << e.what();
    }
    put(path("limit.json"), std::string(1000, ' '));
    EXPECT_EQ(read_text_file(path("limit.json"), 1000).size(), 1000u);
    // The default admits far more than any proof.json or public.json of a real circuit.
    EXPECT_GE(default_text_file_limit, size_t(1) << 20);
}

TEST_F(IoHostile, AtomicFileReplacesCompletelyOrNotAtAll) {
    const std::string p = path("proof.json");
    put(p, "old");
    {
        atomic_file f(p);
        f.write("new content");
        EXPECT_EQ(slurp(p), "old") << "the destination changes only at commit";
        // destroyed without commit: a failed write
    }
    EXPECT_EQ(slurp(p), "old");
    EXPECT_EQ(listing(), std::vector<std::string>{"proof.json"}) << "the temporary file is removed";
    write_file_atomically(p, "new content");
    EXPECT_EQ(slurp(p), "new content");
    EXPECT_EQ(listing(), std::vector<std::string>{"proof.json"});

    // The mode a plain create gives: 0666 less the umask.
    const mode_t mask = ::umask(022);
    write_file_atomically(path("mode.json"), "x");
    ::umask(mask);
    struct stat st {};
    ASSERT_EQ(::stat(path("mode.json").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0644u);

    // A folder that does not exist: an error, nothing created.
    EXPECT_THROW(write_file_atomically(path("missing/proof.json"), "x"), error);
    // A rename that fails (the destination is a non-empty folder): an error, no temporary left.
    fs::create_directories(dir_ / "busy" / "inner");
    EXPECT_THROW(write_file_atomically(path("busy"), "x"), error);
    EXPECT_TRUE(fs::is_directory(dir_ / "busy"));
    for (const auto& name : listing()) EXPECT_EQ(name.find(".tmp."), std::string::npos) << name << " left behind";
}

TEST_F(IoHostile, TheCommitMarkNeverStandsBesideOldFiles) {
    const std::string pub = path("w.public.json"), proof = path("w.proof.json");
    write_files_atomically({{pub, "public 1"}, {proof, "proof 1"}});
    EXPECT_EQ(slurp(pub), "public 1");
    EXPECT_EQ(slurp(proof), "proof 1");
    // The second file cannot be created (its folder is missing): the first keeps its old
    // content, the mark too, nothing else is left.
    EXPECT_THROW(write_files_atomically({{pub, "public 2"}, {path("none/w.proof.json"), "proof 2"}}), error);
    EXPECT_EQ(slurp(pub), "public 1");
    EXPECT_EQ(slurp(proof), "proof 1");
    // The mark cannot be replaced (it is a non-empty folder now): an error, and no new public
    // file stands without its proof.
    fs::remove(proof);
    fs::create_directories(dir_ / "w.proof.json" / "inner");
    EXPECT_THROW(write_files_atomically({{pub, "public 3"}, {proof, "proof 3"}}), error);
    EXPECT_TRUE(!fs::exists(pub) || slurp(pub) == "public 1") << "a new public file without its proof";
    for (const auto& name : listing()) EXPECT_EQ(name.find(".tmp."), std::string::npos) << name << " left behind";
    // Two names of one file are refused before anything is written.
    fs::remove_all(dir_ / "w.proof.json");
    EXPECT_THROW(write_files_atomically({{pub, "a"}, {pub, "b"}}), invalid_argument);
    EXPECT_THROW(write_files_atomically({{pub, "a"}, {(dir_ / "." / "w.public.json").string(), "b"}}),
                 invalid_argument);
    EXPECT_TRUE(!fs::exists(pub) || slurp(pub) == "public 1");
}

TEST_F(IoHostile, WrittenContainersAreAtomicToo) {
    // binfile_writer (the .wtns, .zkey writers): an unfinished file never appears.
    const std::string p = path("w.wtns");
    {
        binfile_writer w(p, "wtns", 2, 2);
        w.begin_section(1);
        w.u32(32);
        w.end_section();
        EXPECT_FALSE(fs::exists(p));
        // destroyed before close(): fewer sections than announced
    }
    EXPECT_FALSE(fs::exists(p));
    EXPECT_EQ(listing(), std::vector<std::string>{});
}

}  // namespace
