// SPDX-License-Identifier: MIT OR Apache-2.0
// The process's own resources as the soak tests measure them between proofs (Linux /proc, glibc).
#pragma once

#include <dirent.h>
#include <unistd.h>

#include <cstdio>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace cuzk::test {

/// Entries in a /proc directory (without . and ..).
inline long count_entries(const char* dir) {
    DIR* d = opendir(dir);
    if (!d) return -1;
    long n = 0;
    while (dirent* e = readdir(d))
        if (e->d_name[0] != '.') ++n;
    closedir(d);
    return n;
}

struct process_resources {
    long rss_bytes = -1;   ///< resident set, /proc/self/statm
    long heap_bytes = -1;  ///< malloc'ed bytes in use (mallinfo2), -1 where unavailable
    long fds = -1;         ///< open descriptors (the one opendir holds is counted every time)
    long threads = -1;     ///< tasks of the process

    static process_resources now() {
        process_resources r;
        if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
            long size = 0, resident = 0;
            if (std::fscanf(f, "%ld %ld", &size, &resident) == 2) r.rss_bytes = resident * sysconf(_SC_PAGESIZE);
            std::fclose(f);
        }
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
        struct mallinfo2 mi = mallinfo2();
        // Sanitizer runtimes replace malloc and report zeros here: then this measure is skipped.
        if (mi.uordblks + mi.hblkhd > 0) r.heap_bytes = long(mi.uordblks + mi.hblkhd);
#endif
        r.fds = count_entries("/proc/self/fd");
        r.threads = count_entries("/proc/self/task");
        return r;
    }
};

}  // namespace cuzk::test
