// SPDX-License-Identifier: MIT OR Apache-2.0
/* test_c_api: the C interface (include/cuzk/c/cuzk_prover.h) from a C program that uses only the
 * header, on the snarkjs interop fixtures of both curves (tests/interop/make_fixtures.sh):
 *
 *   test_c_api FIXTURE_DIR NODE SNARKJS_CLI VERIFY_SCRIPT (tests/c_api/snarkjs_verify_all.cjs)
 *
 * For each curve and circuit: the one-shot calls (zkey buffer and zkey file), a resident prover
 * from the file and one from a buffer that is freed before proving, all with snarkjs's own zkey
 * and witness. Every proof is verified by snarkjs (groth16.verify, in one node process for all of
 * them) with snarkjs's verification key, and every public.json must equal the one snarkjs wrote, byte for byte. Also: the size
 * queries bound what is written, a too-small buffer returns the sizes needed (and a retry with
 * them under the same randomness succeeds), a tampered witness gives
 * CUZK_PROVER_ERROR_VERIFY_FAILED and leaves the buffers untouched, and a witness of another
 * curve or circuit is refused with its code.
 * Exits 77 (skipped) when the fixtures are absent, 1 on any failure. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/c/cuzk_prover.h"

static int failures = 0;
static const char *node_exe, *snarkjs_cli;
static char work_dir[] = "/tmp/cuzk_test_c_api.XXXXXX";

#define CHECK(cond, ...)                                                       \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: FAILED: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                      \
            fputc('\n', stderr);                                               \
            ++failures;                                                        \
        }                                                                      \
    } while (0)

/* The whole file, NUL-terminated (for text), or NULL. */
static char* read_file(const char* path, unsigned long long* size) {
    FILE* f = fopen(path, "rb");
    char* buf;
    long n;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return NULL;
    }
    buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) buf[n] = '\0';
    if (size) *size = (unsigned long long)n;
    return buf;
}

static int write_file(const char* path, const char* text) {
    FILE* f = fopen(path, "wb");
    size_t n = strlen(text);
    int ok;
    if (!f) return 0;
    ok = fwrite(text, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

/* snarkjs's verdicts, gathered: each proof is written to work_dir and queued with the verdict it
 * must get; snarkjs_check_all() then asks snarkjs about all of them in one node process
 * (tests/c_api/snarkjs_verify_all.cjs: snarkjs's groth16.verify, what `snarkjs groth16 verify`
 * calls) and checks every verdict. One process instead of one per proof: 42 node start-ups cost
 * ~60 s. The files of a proof whose verdict is wrong stay in work_dir. */
enum { max_queued = 64 };
static struct queued {
    char label[200], proof_path[512], public_path[512];
    int expect; /* 1: accepted, 0: rejected */
    int answered;
} queue[max_queued];
static int queued_count = 0;
static FILE* verify_list = NULL;
static char verify_list_path[600];
static const char* verify_script;

static void snarkjs_expect(int expect, const char* vk_path, const char* proof, const char* pub, const char* label) {
    struct queued* q;
    CHECK(queued_count < max_queued, "more than %d proofs queued for snarkjs", max_queued);
    if (queued_count >= max_queued) return;
    q = &queue[queued_count++];
    snprintf(q->label, sizeof q->label, "%s", label);
    snprintf(q->proof_path, sizeof q->proof_path, "%s/%s.proof.json", work_dir, label);
    snprintf(q->public_path, sizeof q->public_path, "%s/%s.public.json", work_dir, label);
    q->expect = expect;
    CHECK(write_file(q->proof_path, proof) && write_file(q->public_path, pub), "%s: cannot write the proof", label);
    if (!verify_list) {
        snprintf(verify_list_path, sizeof verify_list_path, "%s/verify.list", work_dir);
        verify_list = fopen(verify_list_path, "w");
        CHECK(verify_list != NULL, "cannot write %s", verify_list_path);
        if (!verify_list) return;
    }
    fprintf(verify_list, "%s\t%s\t%s\t%s\n", label, vk_path, q->public_path, q->proof_path);
}

static void snarkjs_check_all(void) {
    char cmd[2048], line[512];
    FILE* p;
    int i, accepted = 0, rejected = 0;
    if (!verify_list) return;
    CHECK(fclose(verify_list) == 0, "writing %s", verify_list_path);
    verify_list = NULL;
    snprintf(cmd, sizeof cmd, "'%s' '%s' '%s' '%s'", node_exe, verify_script, snarkjs_cli, verify_list_path);
    p = popen(cmd, "r");
    CHECK(p != NULL, "cannot run %s", cmd);
    if (!p) return;
    while (fgets(line, sizeof line, p)) {
        char* space = strrchr(line, ' ');
        if (!space) continue;
        *space = '\0';
        for (i = 0; i < queued_count; ++i)
            if (strcmp(queue[i].label, line) == 0) {
                int ok = strncmp(space + 1, "OK", 2) == 0;
                queue[i].answered = 1;
                ok ? ++accepted : ++rejected;
                CHECK(ok == queue[i].expect, "%s: snarkjs %s the proof (kept in %s)", queue[i].label,
                      ok ? "accepts" : "rejects", work_dir);
                if (ok == queue[i].expect) {
                    remove(queue[i].proof_path);
                    remove(queue[i].public_path);
                }
            }
    }
    CHECK(pclose(p) == 0, "%s failed", cmd);
    for (i = 0; i < queued_count; ++i) CHECK(queue[i].answered, "%s: snarkjs gave no verdict", queue[i].label);
    printf("test_c_api: snarkjs verified %d proofs: %d accepted, %d rejected\n", queued_count, accepted, rejected);
    remove(verify_list_path);
}

/* A deterministic randomness source for reproducible proofs (splitmix64; tests only). */
static int counter_random(void* ctx, unsigned char* out, size_t len) {
    unsigned long long* state = ctx;
    size_t i;
    for (i = 0; i < len; ++i) {
        unsigned long long z = (*state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        out[i] = (unsigned char)(z ^ (z >> 31));
    }
    return 0;
}

/* Offset of witness value k in .wtns bytes (section 2 found by walking the section table). */
static size_t wtns_value_offset(const unsigned char* w, unsigned long long size, unsigned k) {
    size_t pos = 12;
    unsigned n8 = 0;
    while (pos + 12 <= size) {
        unsigned id = w[pos] | (unsigned)w[pos + 1] << 8 | (unsigned)w[pos + 2] << 16 | (unsigned)w[pos + 3] << 24;
        unsigned long long len = 0;
        int b;
        for (b = 7; b >= 0; --b) len = len << 8 | w[pos + 4 + b];
        if (id == 1) n8 = w[pos + 12];
        if (id == 2) return pos + 12 + (size_t)k * n8;
        pos += 12 + (size_t)len;
    }
    return 0;
}

enum { big = 1 << 16 };
static char proof[big], pub[big], err[1024];

struct fixture {
    const char *curve, *name;
    char zkey_path[512], vk_path[512];
    char *zkey, *wtns, *public_json;
    unsigned long long zkey_size, wtns_size, public_len;
};

static int load(struct fixture* f, const char* dir, const char* curve, const char* name) {
    char path[512];
    f->curve = curve;
    f->name = name;
    snprintf(f->zkey_path, sizeof f->zkey_path, "%s/%s/%s/%s.zkey", dir, curve, name, name);
    snprintf(f->vk_path, sizeof f->vk_path, "%s/%s/%s/verification_key.json", dir, curve, name);
    f->zkey = read_file(f->zkey_path, &f->zkey_size);
    snprintf(path, sizeof path, "%s/%s/%s/%s.wtns", dir, curve, name, name);
    f->wtns = read_file(path, &f->wtns_size);
    snprintf(path, sizeof path, "%s/%s/%s/public.json", dir, curve, name);
    f->public_json = read_file(path, &f->public_len);
    return f->zkey && f->wtns && f->public_json && access(f->vk_path, R_OK) == 0;
}

static void reset_outputs(unsigned long long* proof_size, unsigned long long* public_size) {
    memset(proof, 'X', sizeof proof);
    memset(pub, 'X', sizeof pub);
    *proof_size = sizeof proof;
    *public_size = sizeof pub;
}

/* A successful proof: sizes are the lengths, public.json is snarkjs's, snarkjs accepts it. */
static void expect_proof(const struct fixture* f, int rc, unsigned long long proof_size, unsigned long long public_size,
                         const char* what) {
    char label[256];
    CHECK(rc == CUZK_PROVER_OK, "%s/%s %s: %s: %s", f->curve, f->name, what, cuzk_prover_error_name(rc), err);
    if (rc != CUZK_PROVER_OK) return;
    CHECK(proof_size == strlen(proof) && public_size == strlen(pub), "%s/%s %s: sizes %llu %llu", f->curve, f->name,
          what, proof_size, public_size);
    CHECK(err[0] == '\0', "%s: message on success: %s", what, err);
    CHECK(strcmp(pub, f->public_json) == 0, "%s/%s %s: public.json differs from snarkjs's:\n%s", f->curve, f->name,
          what, pub);
    snprintf(label, sizeof label, "%s_%s_%s", f->curve, f->name, what);
    snarkjs_expect(1, f->vk_path, proof, pub, label);
}

static void test_fixture(const struct fixture* f, const struct fixture* other_curve,
                         const struct fixture* other_circuit, const cuzk_prover_capabilities* caps) {
    unsigned long long ps, us, public_bound = 0, public_bound_file = 0, proof_bound = 0, seed;
    cuzk_prover *p = NULL, *q = NULL;
    cuzk_prover_info info;
    char* copy;
    char first[big];
    int rc;

    /* Size queries (header only) bound what snarkjs wrote. */
    rc = cuzk_groth16_public_size_for_zkey_buf(f->zkey, f->zkey_size, &public_bound, err, sizeof err);
    CHECK(rc == CUZK_PROVER_OK, "public_size_for_zkey_buf: %s", err);
    rc = cuzk_groth16_public_size_for_zkey_file(f->zkey_path, &public_bound_file, err, sizeof err);
    CHECK(rc == CUZK_PROVER_OK, "public_size_for_zkey_file: %s", err);
    CHECK(public_bound == public_bound_file && public_bound >= f->public_len + 1,
          "public bounds %llu %llu, length %llu", public_bound, public_bound_file, f->public_len);
    cuzk_groth16_proof_size(&proof_bound);

    /* One-shot, zkey buffer and zkey file. */
    reset_outputs(&ps, &us);
    rc = cuzk_groth16_prover(f->zkey, f->zkey_size, f->wtns, f->wtns_size, proof, &ps, pub, &us, err, sizeof err);
    expect_proof(f, rc, ps, us, "oneshot_buffer");
    CHECK(ps + 1 <= proof_bound, "proof of %llu bytes beyond the bound %llu", ps, proof_bound);
    reset_outputs(&ps, &us);
    rc = cuzk_groth16_prover_zkey_file(f->zkey_path, f->wtns, f->wtns_size, proof, &ps, pub, &us, err, sizeof err);
    expect_proof(f, rc, ps, us, "oneshot_file");

    /* Resident from the file: two proofs, both accepted, different (fresh randomisers). */
    rc = cuzk_groth16_prover_create_zkey_file(&p, f->zkey_path, err, sizeof err);
    CHECK(rc == CUZK_PROVER_OK && p, "create_zkey_file: %s", err);
    if (!p) return;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    rc = cuzk_groth16_prover_get_info(p, &info, err, sizeof err);
    CHECK(rc == CUZK_PROVER_OK, "get_info: %s", err);
    CHECK(strcmp(info.curve_name, f->curve) == 0, "info.curve_name %s for a %s key", info.curve_name, f->curve);
    CHECK(info.curve == (strcmp(f->curve, "bn128") == 0 ? CUZK_PROVER_CURVE_BN254 : CUZK_PROVER_CURVE_BLS12_381),
          "info.curve %u", info.curve);
    CHECK(info.verify == 1, "verification is not on by default");
    CHECK(
        info.backend == (caps->gpu_backend && caps->gpu_count > 0 ? CUZK_PROVER_BACKEND_GPU : CUZK_PROVER_BACKEND_CPU),
        "backend %d (gpu backend %d, %d GPUs; note: %s)", info.backend, caps->gpu_backend, caps->gpu_count, info.note);
    CHECK(info.public_size == public_bound, "info.public_size %llu, the size query said %llu", info.public_size,
          public_bound);
    CHECK(info.proof_size <= proof_bound, "info.proof_size %llu above the global bound %llu", info.proof_size,
          proof_bound);

    reset_outputs(&ps, &us);
    rc = cuzk_groth16_prover_prove(p, f->wtns, f->wtns_size, proof, &ps, pub, &us, err, sizeof err);
    expect_proof(f, rc, ps, us, "resident_1");
    CHECK(ps + 1 <= info.proof_size, "proof of %llu bytes beyond info.proof_size %llu", ps, info.proof_size);
    memcpy(first, proof, sizeof first);
    if (rc == CUZK_PROVER_OK) { /* the oracle says no too: the same proof for another first public signal */
        char tweaked[big];
        char* digit;
        memcpy(tweaked, pub, sizeof tweaked);
        digit = strchr(strchr(tweaked, '"') + 1, '"') - 1;
        *digit = *digit == '9' ? '8' : (char)(*digit + 1);
        char label[256];
        snprintf(label, sizeof label, "%s_%s_negative_control", f->curve, f->name);
        snarkjs_expect(0, f->vk_path, proof, tweaked, label); /* a changed public signal: rejected */
    }
    reset_outputs(&ps, &us);
    rc = cuzk_groth16_prover_prove(p, f->wtns, f->wtns_size, proof, &ps, pub, &us, err, sizeof err);
    expect_proof(f, rc, ps, us, "resident_2");
    CHECK(strcmp(first, proof) != 0, "two proofs of the same witness are equal: the randomisers repeat");

    /* Too-small buffers: the sizes needed, nothing written; the same randomness then fits. */
    reset_outputs(&ps, &us);
    ps = 16;
    seed = 7;
    rc = cuzk_groth16_prover_prove_with_random(p, f->wtns, f->wtns_size, counter_random, &seed, proof, &ps, pub, &us,
                                               err, sizeof err);
    CHECK(rc == CUZK_PROVER_ERROR_SHORT_BUFFER, "a 16-byte proof buffer gave %s", cuzk_prover_error_name(rc));
    CHECK(ps > 16 && ps <= info.proof_size && us == f->public_len + 1, "sizes needed %llu %llu", ps, us);
    CHECK(proof[0] == 'X' && pub[0] == 'X', "a buffer was written on SHORT_BUFFER");
    CHECK(strstr(err, "too small") != NULL, "message: %s", err);
    {
        unsigned long long need = ps;
        seed = 7;
        rc = cuzk_groth16_prover_prove_with_random(p, f->wtns, f->wtns_size, counter_random, &seed, proof, &ps, pub,
                                                   &us, err, sizeof err);
        expect_proof(f, rc, ps, us, "exact_size_retry");
        CHECK(rc != CUZK_PROVER_OK || ps + 1 == need, "retry wrote %llu bytes, %llu were asked for", ps, need);
    }

    /* A tampered witness (public output w[1] changed by one): an error and no proof. */
    copy = malloc(f->wtns_size);
    memcpy(copy, f->wtns, f->wtns_size);
    copy[wtns_value_offset((const unsigned char*)copy, f->wtns_size, 1)] ^= 1;
    reset_outputs(&ps, &us);
    rc = cuzk_groth16_prover_prove(p, copy, f->wtns_size, proof, &ps, pub, &us, err, sizeof err);
    CHECK(rc == CUZK_PROVER_ERROR_VERIFY_FAILED, "tampered witness: %s: %s", cuzk_prover_error_name(rc), err);
    CHECK(strstr(err, "does not satisfy the circuit") != NULL, "message: %s", err);
    CHECK(proof[0] == 'X' && pub[0] == 'X' && ps == sizeof proof && us == sizeof pub, "outputs touched on an error");
    reset_outputs(&ps, &us);
    rc = cuzk_groth16_prover(f->zkey, f->zkey_size, copy, f->wtns_size, proof, &ps, pub, &us, err, sizeof err);
    CHECK(rc == CUZK_PROVER_ERROR_VERIFY_FAILED, "tampered witness, one-shot: %s", cuzk_prover_error_name(rc));
    CHECK(proof[0] == 'X' && pub[0] == 'X', "outputs touched on an error");
    free(copy);

    /* Another curve's witness, another circuit's witness. */
    reset_outputs(&ps, &us);
    rc = cuzk_groth16_prover_prove(p, other_curve->wtns, other_curve->wtns_size, proof, &ps, pub, &us, err, sizeof err);
    CHECK(rc == CUZK_PROVER_ERROR_CURVE_MISMATCH, "other curve's witness: %s: %s", cuzk_prover_error_name(rc), err);
    rc = cuzk_groth16_prover_prove(p, other_circuit->wtns, other_circuit->wtns_size, proof, &ps, pub, &us, err,
                                   sizeof err);
    CHECK(rc == CUZK_PROVER_INVALID_WITNESS_LENGTH, "other circuit's witness: %s: %s", cuzk_prover_error_name(rc), err);
    CHECK(strstr(err, "Invalid witness length") != NULL, "message: %s", err);
    cuzk_groth16_prover_destroy(p);

    /* Resident from a buffer that is gone before the proof: the prover holds its own copy. */
    copy = malloc(f->zkey_size);
    memcpy(copy, f->zkey, f->zkey_size);
    rc = cuzk_groth16_prover_create(&q, copy, f->zkey_size, err, sizeof err);
    memset(copy, 0xa5, f->zkey_size);
    free(copy);
    CHECK(rc == CUZK_PROVER_OK && q, "create from a buffer: %s", err);
    if (!q) return;
    reset_outputs(&ps, &us);
    rc = cuzk_groth16_prover_prove(q, f->wtns, f->wtns_size, proof, &ps, pub, &us, err, sizeof err);
    expect_proof(f, rc, ps, us, "resident_buffer");
    cuzk_groth16_prover_destroy(q);
}

int main(int argc, char** argv) {
    static const char* curves[] = {"bn128", "bls12381"};
    static const char* circuits[] = {"multi_public", "poseidon_cmp", "mul_chain"};
    struct fixture fx[2][3];
    cuzk_prover_capabilities caps;
    int c, k;
    if (argc != 5) {
        fprintf(stderr, "usage: %s FIXTURE_DIR NODE SNARKJS_CLI VERIFY_SCRIPT\n", argv[0]);
        return 2;
    }
    node_exe = argv[2];
    snarkjs_cli = argv[3];
    verify_script = argv[4];

    CHECK(cuzk_prover_abi_version() == CUZK_PROVER_ABI_VERSION, "library ABI %d, header %d", cuzk_prover_abi_version(),
          CUZK_PROVER_ABI_VERSION);
    memset(&caps, 0, sizeof caps);
    caps.struct_size = sizeof caps;
    CHECK(cuzk_prover_get_capabilities(&caps) == CUZK_PROVER_OK, "capabilities");
    CHECK(caps.curves == (CUZK_PROVER_CURVE_BN254 | CUZK_PROVER_CURVE_BLS12_381), "curves %u", caps.curves);
    printf("test_c_api: libcuzk_prover %s (%s), %d GPU(s)\n", cuzk_prover_version(), caps.build_options,
           caps.gpu_count);

    for (c = 0; c < 2; ++c)
        for (k = 0; k < 3; ++k)
            if (!load(&fx[c][k], argv[1], curves[c], circuits[k])) {
                printf("test_c_api: SKIPPED: no snarkjs fixture %s/%s under %s\n", curves[c], circuits[k], argv[1]);
                return 77;
            }
    if (access(snarkjs_cli, R_OK) != 0) {
        printf("test_c_api: SKIPPED: no snarkjs at %s\n", snarkjs_cli);
        return 77;
    }
    if (!mkdtemp(work_dir)) {
        perror("mkdtemp");
        return 1;
    }
    for (c = 0; c < 2; ++c)
        for (k = 0; k < 3; ++k) {
            test_fixture(&fx[c][k], &fx[1 - c][k], &fx[c][(k + 1) % 3], &caps);
            printf("test_c_api: %s/%s done (%d failures so far)\n", curves[c], circuits[k], failures);
        }
    snarkjs_check_all();
    for (c = 0; c < 2; ++c)
        for (k = 0; k < 3; ++k) {
            free(fx[c][k].zkey);
            free(fx[c][k].wtns);
            free(fx[c][k].public_json);
        }
    if (failures == 0) rmdir(work_dir);
    printf("test_c_api: %s (%d failures)\n", failures ? "FAILED" : "all passed", failures);
    return failures ? 1 : 0;
}
