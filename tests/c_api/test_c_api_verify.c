/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* test_c_api_verify: cuzk_groth16_verify and cuzk_groth16_prover_verify (include/cuzk/c/cuzk_prover.h)
 * against snarkjs's groth16.verify, on the snarkjs interop fixtures of both curves
 * (tests/interop/make_fixtures.sh):
 *
 *   test_c_api_verify FIXTURE_DIR NODE SNARKJS_CLI VERIFY_SCRIPT (tests/c_api/snarkjs_verify_all.cjs)
 *
 * For each curve and circuit, snarkjs's own proof.json / public.json, and variants of them: a
 * signal changed by one, pi_a and pi_c swapped, pi_a moved off the curve, the last signal left
 * off, a signal equal to r. Each gets the verdict it must get from cuzk_groth16_verify (valid for
 * snarkjs's proof, invalid for every variant) and snarkjs is asked the same about every one of
 * them (one node process): the two verifiers must agree. The resident prover's verify gives the
 * same verdicts against its zkey's key. Text that is no proof (not JSON, a missing member, the
 * other curve's key, NULL) gives CUZK_VERIFIER_ERROR with a message.
 * Exits 77 (skipped) when the fixtures are absent, 1 on any failure. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/c/cuzk_prover.h"

static int failures = 0;
static const char *node_exe, *snarkjs_cli, *verify_script;
static char work_dir[] = "/tmp/cuzk_test_c_api_verify.XXXXXX";

#define CHECK(cond, ...)                                                       \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: FAILED: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                      \
            fputc('\n', stderr);                                               \
            ++failures;                                                        \
        }                                                                      \
    } while (0)

/* The group orders r, from the curves' specifications (EIP-196 for BN254; the BLS12-381 draft,
 * draft-irtf-cfrg-pairing-friendly-curves). */
static const char* const r_bn254 = "21888242871839275222246405745257275088548364400416034343698204186575808495617";
static const char* const r_bls12_381 =
    "52435875175126190479447740508185965837690552500527637822603658699938581184513";

static char* read_file(const char* path) {
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

/* A copy of s with the first occurrence of `from` replaced by `to` (NULL if absent). */
static char* replace_first(const char* s, const char* from, const char* to) {
    const char* at = strstr(s, from);
    size_t n, head;
    char* out;
    if (!at) return NULL;
    head = (size_t)(at - s);
    n = strlen(s) - strlen(from) + strlen(to);
    out = malloc(n + 1);
    if (!out) return NULL;
    memcpy(out, s, head);
    strcpy(out + head, to);
    strcat(out, at + strlen(from));
    return out;
}

/* A copy of s with the last decimal digit of the first string value after `key` changed by one
 * (down, or up from 0): a value one off, still below the modulus. */
static char* change_first_value_after(const char* s, const char* key) {
    const char* at = strstr(s, key);
    char* out;
    char* q;
    if (!at) return NULL;
    at = strchr(at + strlen(key), '"');
    if (!at) return NULL;
    out = malloc(strlen(s) + 1);
    if (!out) return NULL;
    strcpy(out, s);
    q = strchr(out + (at - s) + 1, '"'); /* the closing quote */
    if (!q || q[-1] < '0' || q[-1] > '9') {
        free(out);
        return NULL;
    }
    q[-1] = q[-1] > '0' ? (char)(q[-1] - 1) : '1';
    return out;
}

/* public.json without its last signal (snarkjs writes one per line). */
static char* drop_last_signal(const char* s) {
    char* out = malloc(strlen(s) + 1);
    char *last_quote, *cut;
    if (!out) return NULL;
    strcpy(out, s);
    last_quote = strrchr(out, '"');
    if (!last_quote) return free(out), NULL;
    *last_quote = '\0';
    cut = strrchr(out, '"'); /* the opening quote of the last signal */
    if (!cut) return free(out), NULL;
    while (cut > out && cut[-1] != ',' && cut[-1] != '[') --cut;
    if (cut > out && cut[-1] == ',') --cut;
    strcpy(cut, "\n]");
    return out;
}

/* public.json with its first signal replaced by `value`. */
static char* first_signal_set_to(const char* s, const char* value) {
    const char* open = strchr(s, '"');
    const char* close = open ? strchr(open + 1, '"') : NULL;
    char* out;
    if (!close) return NULL;
    out = malloc(strlen(s) + strlen(value) + 1);
    if (!out) return NULL;
    memcpy(out, s, (size_t)(open - s) + 1);
    strcpy(out + (open - s) + 1, value);
    strcat(out, close);
    return out;
}

/* snarkjs's verdicts, gathered and asked in one node process (tests/c_api/snarkjs_verify_all.cjs). */
enum { max_queued = 64 };
static struct queued {
    char label[256], proof_path[1024], public_path[1024];
    int expect, answered;
} queue[max_queued];
static int queued_count = 0;
static FILE* verify_list = NULL;
static char verify_list_path[600];

static void snarkjs_expect(int expect, const char* vk_path, const char* proof, const char* pub, const char* label) {
    struct queued* q;
    CHECK(queued_count < max_queued, "more than %d proofs queued", max_queued);
    if (queued_count >= max_queued) return;
    q = &queue[queued_count++];
    snprintf(q->label, sizeof q->label, "%s", label);
    snprintf(q->proof_path, sizeof q->proof_path, "%s/%s.proof.json", work_dir, label);
    snprintf(q->public_path, sizeof q->public_path, "%s/%s.public.json", work_dir, label);
    q->expect = expect;
    CHECK(write_file(q->proof_path, proof) && write_file(q->public_path, pub), "%s: cannot write", label);
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
    snprintf(cmd, sizeof cmd, "'%s' '%s' '%s' '%s' 2>/dev/null", node_exe, verify_script, snarkjs_cli,
             verify_list_path);
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
                CHECK(ok == queue[i].expect, "%s: snarkjs %s the proof, cuzk_groth16_verify does not (kept in %s)",
                      queue[i].label, ok ? "accepts" : "rejects", work_dir);
                if (ok == queue[i].expect) {
                    remove(queue[i].proof_path);
                    remove(queue[i].public_path);
                }
            }
    }
    CHECK(pclose(p) == 0, "%s failed", cmd);
    for (i = 0; i < queued_count; ++i) CHECK(queue[i].answered, "%s: snarkjs gave no verdict", queue[i].label);
    printf("test_c_api_verify: snarkjs checked %d cases: %d accepted, %d rejected\n", queued_count, accepted, rejected);
    remove(verify_list_path);
}

struct fixture {
    const char *curve, *name;
    char vk_path[512], zkey_path[512];
    char *vk, *proof, *pub;
};

static int load(struct fixture* f, const char* dir, const char* curve, const char* name) {
    char path[512];
    f->curve = curve;
    f->name = name;
    snprintf(f->vk_path, sizeof f->vk_path, "%s/%s/%s/verification_key.json", dir, curve, name);
    snprintf(f->zkey_path, sizeof f->zkey_path, "%s/%s/%s/%s.zkey", dir, curve, name, name);
    f->vk = read_file(f->vk_path);
    snprintf(path, sizeof path, "%s/%s/%s/proof.json", dir, curve, name);
    f->proof = read_file(path);
    snprintf(path, sizeof path, "%s/%s/%s/public.json", dir, curve, name);
    f->pub = read_file(path);
    return f->vk && f->proof && f->pub && access(f->zkey_path, R_OK) == 0;
}

static char err[1024];

/* One case: cuzk's verdict from the JSON key and from the resident prover's key must be
 * `expect` (a CUZK_VERIFIER_* code), and snarkjs must agree. */
static void expect_verdict(const struct fixture* f, cuzk_prover* prover, const char* proof, const char* pub,
                           int expect, const char* what) {
    char label[256];
    int rc;
    snprintf(label, sizeof label, "%s_%s_%s", f->curve, f->name, what);
    if (!proof || !pub) {
        CHECK(0, "%s: the variant could not be made", label);
        return;
    }
    rc = cuzk_groth16_verify(proof, pub, f->vk, err, sizeof err);
    CHECK(rc == expect, "%s: cuzk_groth16_verify gives %d, expected %d (%s)", label, rc, expect, err);
    CHECK((rc == CUZK_VERIFIER_VALID_PROOF) == (err[0] == '\0'), "%s: message \"%s\" for code %d", label, err, rc);
    if (prover) {
        rc = cuzk_groth16_prover_verify(prover, proof, pub, err, sizeof err);
        CHECK(rc == expect, "%s: cuzk_groth16_prover_verify gives %d, expected %d (%s)", label, rc, expect, err);
    }
    snarkjs_expect(expect == CUZK_VERIFIER_VALID_PROOF, f->vk_path, proof, pub, label);
}

static void expect_error(const struct fixture* f, const char* proof, const char* pub, const char* vk, const char* what) {
    int rc = cuzk_groth16_verify(proof, pub, vk, err, sizeof err);
    CHECK(rc == CUZK_VERIFIER_ERROR, "%s/%s %s: code %d, expected CUZK_VERIFIER_ERROR (%s)", f->curve, f->name, what,
          rc, err);
    CHECK(err[0] != '\0', "%s/%s %s: no message", f->curve, f->name, what);
}

static void test_fixture(const struct fixture* f, const struct fixture* other_curve) {
    const char* r = strcmp(f->curve, "bn128") == 0 ? r_bn254 : r_bls12_381;
    cuzk_prover* prover = NULL;
    char *v;
    int rc = cuzk_groth16_prover_create_zkey_file(&prover, f->zkey_path, err, sizeof err);
    CHECK(rc == CUZK_PROVER_OK, "%s/%s: create: %s", f->curve, f->name, err);

    expect_verdict(f, prover, f->proof, f->pub, CUZK_VERIFIER_VALID_PROOF, "good");
    v = change_first_value_after(f->pub, "[");
    expect_verdict(f, prover, f->proof, v, CUZK_VERIFIER_INVALID_PROOF, "signal_changed");
    free(v);
    {
        char* a = replace_first(f->proof, "\"pi_a\"", "\"pi_X\"");
        char* ac = a ? replace_first(a, "\"pi_c\"", "\"pi_a\"") : NULL;
        v = ac ? replace_first(ac, "\"pi_X\"", "\"pi_c\"") : NULL;
        expect_verdict(f, prover, v, f->pub, CUZK_VERIFIER_INVALID_PROOF, "a_c_swapped");
        free(a), free(ac), free(v);
    }
    v = change_first_value_after(f->proof, "\"pi_a\"");
    expect_verdict(f, prover, v, f->pub, CUZK_VERIFIER_INVALID_PROOF, "a_off_curve");
    CHECK(v && strstr(err, "not on the curve") != NULL, "%s/%s: off-curve message \"%s\"", f->curve, f->name, err);
    free(v);
    v = drop_last_signal(f->pub);
    expect_verdict(f, prover, f->proof, v, CUZK_VERIFIER_INVALID_PROOF, "signal_left_off");
    CHECK(v && strstr(err, "public signals") != NULL, "%s/%s: count message \"%s\"", f->curve, f->name, err);
    free(v);
    v = first_signal_set_to(f->pub, r);
    expect_verdict(f, prover, f->proof, v, CUZK_VERIFIER_INVALID_PROOF, "signal_r");
    CHECK(v && strstr(err, "not below") != NULL, "%s/%s: range message \"%s\"", f->curve, f->name, err);
    free(v);

    expect_error(f, "not json", f->pub, f->vk, "proof not JSON");
    expect_error(f, "{\"pi_a\": [\"1\", \"2\", \"1\"]}", f->pub, f->vk, "proof without pi_b");
    expect_error(f, f->proof, "{}", f->vk, "public not an array");
    expect_error(f, f->proof, f->pub, "[]", "key not an object");
    expect_error(f, f->proof, f->pub, other_curve->vk, "key of the other curve");
    expect_error(f, NULL, f->pub, f->vk, "NULL proof");
    expect_error(f, f->proof, NULL, f->vk, "NULL inputs");
    expect_error(f, f->proof, f->pub, NULL, "NULL key");
    rc = cuzk_groth16_prover_verify(NULL, f->proof, f->pub, err, sizeof err);
    CHECK(rc == CUZK_VERIFIER_ERROR, "NULL prover: %d", rc);
    CHECK(cuzk_groth16_verify(f->proof, f->pub, f->vk, NULL, 0) == CUZK_VERIFIER_VALID_PROOF, "no error buffer");
    cuzk_groth16_prover_destroy(prover);
}

int main(int argc, char** argv) {
    static const char* curves[] = {"bn128", "bls12381"};
    static const char* circuits[] = {"multi_public", "poseidon_cmp", "mul_chain"};
    struct fixture fx[2][3];
    int c, k;
    if (argc != 5) {
        fprintf(stderr, "usage: %s FIXTURE_DIR NODE SNARKJS_CLI VERIFY_SCRIPT\n", argv[0]);
        return 2;
    }
    node_exe = argv[2];
    snarkjs_cli = argv[3];
    verify_script = argv[4];
    for (c = 0; c < 2; ++c)
        for (k = 0; k < 3; ++k)
            if (!load(&fx[c][k], argv[1], curves[c], circuits[k])) {
                printf("test_c_api_verify: SKIPPED: no snarkjs fixture %s/%s under %s\n", curves[c], circuits[k],
                       argv[1]);
                return 77;
            }
    if (access(snarkjs_cli, R_OK) != 0) {
        printf("test_c_api_verify: SKIPPED: no snarkjs at %s\n", snarkjs_cli);
        return 77;
    }
    if (!mkdtemp(work_dir)) {
        perror("mkdtemp");
        return 1;
    }
    for (c = 0; c < 2; ++c)
        for (k = 0; k < 3; ++k) test_fixture(&fx[c][k], &fx[1 - c][k]);
    snarkjs_check_all();
    for (c = 0; c < 2; ++c)
        for (k = 0; k < 3; ++k) free(fx[c][k].vk), free(fx[c][k].proof), free(fx[c][k].pub);
    if (failures == 0) rmdir(work_dir);
    printf("test_c_api_verify: %s (%d failures)\n", failures ? "FAILED" : "all passed", failures);
    return failures ? 1 : 0;
}
