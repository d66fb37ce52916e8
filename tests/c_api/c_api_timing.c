// SPDX-License-Identifier: MIT OR Apache-2.0
/* c_api_timing: per-proof latency of libcuzk_prover through the one-shot call against a resident
 * prover (docs/PERFORMANCE.md). Not built by default (target c_api_timing).
 *
 *   c_api_timing ZKEY WTNS [REPS] [BACKEND] [THREADS]    BACKEND: auto (default), cpu, gpu
 *
 * Prints the median of REPS (default 5) one-shot proofs (cuzk_groth16_prover_zkey_file: key read,
 * proof, verification), the time to create a resident prover, and the median of REPS proofs
 * through it (proof and verification), in ms of wall-clock time and of the process's CPU time
 * (all threads; on a shared machine, OMP_NUM_THREADS=1 makes the CPU time the uncontended
 * single-thread latency). Then the throughput of 1, 2, 4, ... up to THREADS (default 4) threads
 * proving REPS proofs each at once on that one handle: proofs per second of wall time. */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuzk/c/cuzk_prover.h"

static double clock_ms(clockid_t id) {
    struct timespec t;
    clock_gettime(id, &t);
    return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
}
static double now_ms(void) { return clock_ms(CLOCK_MONOTONIC); }
static double cpu_ms(void) { return clock_ms(CLOCK_PROCESS_CPUTIME_ID); }

static int by_value(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

static double median(double* v, int n) {
    qsort(v, (size_t)n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One thread of the throughput run: `reps` proofs on the shared handle. */
struct worker {
    cuzk_prover* p;
    const char* wtns;
    unsigned long long wtns_size;
    int reps, rc;
    char proof[1 << 16], pub[1 << 20], err[1024];
};

static void* prove_reps(void* arg) {
    struct worker* w = arg;
    int i;
    for (i = 0; i < w->reps && w->rc == CUZK_PROVER_OK; ++i) {
        unsigned long long ps = sizeof w->proof, us = sizeof w->pub;
        w->rc = cuzk_groth16_prover_prove(w->p, w->wtns, w->wtns_size, w->proof, &ps, w->pub, &us, w->err,
                                          sizeof w->err);
        if (w->rc != CUZK_PROVER_OK)
            fprintf(stderr, "prove (thread): %s: %s\n", cuzk_prover_error_name(w->rc), w->err);
    }
    return NULL;
}

int main(int argc, char** argv) {
    static char proof[1 << 16], pub[1 << 20], err[1024];
    unsigned long long ps, us, wtns_size;
    double t[64], c[64], create_ms, create_cpu;
    cuzk_prover_options o;
    cuzk_prover_info info;
    cuzk_prover* p = NULL;
    char* wtns;
    long n;
    int reps, i, rc, threads, max_threads;
    FILE* f;
    if (argc < 3) {
        fprintf(stderr, "usage: %s ZKEY WTNS [REPS] [auto|cpu|gpu]\n", argv[0]);
        return 2;
    }
    reps = argc > 3 ? atoi(argv[3]) : 5;
    if (reps < 1 || reps > 64) reps = 5;
    cuzk_prover_options_init(&o);
    if (argc > 4)
        o.backend = strcmp(argv[4], "gpu") == 0   ? CUZK_PROVER_BACKEND_GPU
                    : strcmp(argv[4], "cpu") == 0 ? CUZK_PROVER_BACKEND_CPU
                                                  : CUZK_PROVER_BACKEND_AUTO;
    f = fopen(argv[2], "rb");
    if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) return 1;
    wtns = malloc((size_t)n);
    if (!wtns || fread(wtns, 1, (size_t)n, f) != (size_t)n) return 1;
    fclose(f);
    wtns_size = (unsigned long long)n;

    if (o.backend != CUZK_PROVER_BACKEND_GPU) { /* the one-shot call uses the default options */
        for (i = 0; i < reps; ++i) {
            double t0 = now_ms(), c0 = cpu_ms();
            ps = sizeof proof;
            us = sizeof pub;
            rc = cuzk_groth16_prover_zkey_file(argv[1], wtns, wtns_size, proof, &ps, pub, &us, err, sizeof err);
            t[i] = now_ms() - t0;
            c[i] = cpu_ms() - c0;
            if (rc != CUZK_PROVER_OK) {
                fprintf(stderr, "one-shot: %s: %s\n", cuzk_prover_error_name(rc), err);
                return 1;
            }
        }
        printf("one-shot (read key + prove + verify): median %.1f ms wall, %.1f ms CPU, of %d\n", median(t, reps),
               median(c, reps), reps);
    }
    create_ms = now_ms();
    create_cpu = cpu_ms();
    rc = cuzk_groth16_prover_create_zkey_file_with_options(&p, argv[1], &o, err, sizeof err);
    create_ms = now_ms() - create_ms;
    create_cpu = cpu_ms() - create_cpu;
    if (rc != CUZK_PROVER_OK) {
        fprintf(stderr, "create: %s: %s\n", cuzk_prover_error_name(rc), err);
        return 1;
    }
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    cuzk_groth16_prover_get_info(p, &info, NULL, 0);
    for (i = 0; i < reps; ++i) {
        double t0 = now_ms(), c0 = cpu_ms();
        ps = sizeof proof;
        us = sizeof pub;
        rc = cuzk_groth16_prover_prove(p, wtns, wtns_size, proof, &ps, pub, &us, err, sizeof err);
        t[i] = now_ms() - t0;
        c[i] = cpu_ms() - c0;
        if (rc != CUZK_PROVER_OK) {
            fprintf(stderr, "prove: %s: %s\n", cuzk_prover_error_name(rc), err);
            return 1;
        }
    }
    printf(
        "resident (%s, domain %llu, %s): create %.1f ms wall, %.1f ms CPU; prove + verify median %.1f ms wall, "
        "%.1f ms CPU, of %d\n",
        info.curve_name, info.domain_size, info.backend == CUZK_PROVER_BACKEND_GPU ? "GPU" : "CPU", create_ms,
        create_cpu, median(t, reps), median(c, reps), reps);
    max_threads = argc > 5 ? atoi(argv[5]) : 4;
    if (max_threads < 1 || max_threads > 64) max_threads = 4;
    for (threads = 1; threads <= max_threads; threads *= 2) {
        struct worker* w = malloc((size_t)threads * sizeof *w);
        pthread_t id[64];
        double t0, wall;
        if (!w) return 1;
        t0 = now_ms();
        for (i = 0; i < threads; ++i) {
            w[i].p = p;
            w[i].wtns = wtns;
            w[i].wtns_size = wtns_size;
            w[i].reps = reps;
            w[i].rc = CUZK_PROVER_OK;
            if (pthread_create(&id[i], NULL, prove_reps, &w[i]) != 0) return 1;
        }
        for (i = 0; i < threads; ++i) pthread_join(id[i], NULL);
        wall = now_ms() - t0;
        for (i = 0; i < threads; ++i)
            if (w[i].rc != CUZK_PROVER_OK) return 1;
        free(w);
        printf("throughput, %d thread%s on one handle: %d proofs in %.1f ms, %.2f proofs/s (%.1f ms per proof)\n", threads,
               threads == 1 ? "" : "s", threads * reps, wall, 1e3 * threads * reps / wall, wall / (threads * reps));
    }
    cuzk_groth16_prover_destroy(p);
    free(wtns);
    return 0;
}
