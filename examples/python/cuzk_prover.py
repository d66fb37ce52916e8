#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""A Python binding of libcuzk_prover (include/cuzk/c/cuzk_prover.h) with ctypes, and a small CLI.

    from cuzk_prover import Library, ProverError
    lib = Library("build/src/c_api/libcuzk_prover.so")
    with lib.prover("circuit.zkey", threads=0) as prover:         # the key is read once
        proof_json, public_json = prover.prove(open("witness.wtns", "rb").read())

    python3 cuzk_prover.py --lib LIB circuit.zkey witness.wtns proof.json public.json [--proofs N]
                           [--backend auto|cpu|gpu] [--threads N] [--no-verify] [--one-shot]

Every proof is verified by the library before it is returned; a witness that does not satisfy the
circuit raises ProverError with code CUZK_PROVER_ERROR_VERIFY_FAILED and writes nothing. The CLI
exits 0 on success, with the library's error code (1..13) on a prover error, 2 on bad usage. It
writes public.json, then proof.json, each to a temporary file in the same folder, flushed to disk
and renamed into place (docs/LIMITS.md): a proof.json that exists is complete and its public.json
is the one beside it.
"""
import argparse
import ctypes
import os
import sys
import tempfile
import time

OK = 0
ERROR_SHORT_BUFFER = 2
BACKENDS = {"auto": 0, "cpu": 1, "gpu": 2}

_ull = ctypes.c_ulonglong
_ERR = 1024


class ProverError(Exception):
    """A non-zero code from the library: .code, .name (CUZK_PROVER_...), .message."""

    def __init__(self, code, name, message):
        super().__init__(f"{name}: {message}")
        self.code, self.name, self.message = code, name, message


class _Options(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint), ("backend", ctypes.c_int), ("verify", ctypes.c_int),
                ("threads", ctypes.c_uint), ("gpu_device", ctypes.c_int), ("vram_budget_bytes", _ull),
                ("max_concurrent_proofs", ctypes.c_uint)]


class _Info(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint), ("curve", ctypes.c_uint), ("curve_name", ctypes.c_char_p),
                ("backend", ctypes.c_int), ("verify", ctypes.c_int), ("threads", ctypes.c_uint),
                ("max_concurrent_proofs", ctypes.c_uint), ("n_vars", _ull), ("n_public", _ull),
                ("domain_size", _ull), ("proof_size", _ull), ("public_size", _ull), ("host_key_bytes", _ull),
                ("host_proof_bytes", _ull), ("gpu_device", ctypes.c_int), ("key_resident_on_gpu", ctypes.c_int),
                ("vram_budget_bytes", _ull), ("device_key_bytes", _ull), ("device_proof_bytes", _ull),
                ("note", ctypes.c_char_p)]


class Library:
    """The loaded shared library."""

    def __init__(self, path):
        self._lib = lib = ctypes.CDLL(path)
        out = [ctypes.c_char_p, ctypes.POINTER(_ull), ctypes.c_char_p, ctypes.POINTER(_ull), ctypes.c_char_p, _ull]
        lib.cuzk_prover_version.restype = ctypes.c_char_p
        lib.cuzk_prover_error_name.restype = ctypes.c_char_p
        lib.cuzk_prover_error_name.argtypes = [ctypes.c_int]
        lib.cuzk_prover_options_init.argtypes = [ctypes.POINTER(_Options)]
        lib.cuzk_groth16_prover_zkey_file.argtypes = [ctypes.c_char_p, ctypes.c_void_p, _ull] + out
        lib.cuzk_groth16_prover_create_zkey_file_with_options.argtypes = [
            ctypes.POINTER(ctypes.c_void_p), ctypes.c_char_p, ctypes.POINTER(_Options), ctypes.c_char_p, _ull]
        lib.cuzk_groth16_prover_prove.argtypes = [ctypes.c_void_p, ctypes.c_void_p, _ull] + out
        lib.cuzk_groth16_prover_destroy.argtypes = [ctypes.c_void_p]
        lib.cuzk_groth16_prover_destroy.restype = None
        lib.cuzk_groth16_prover_get_info.argtypes = [ctypes.c_void_p, ctypes.POINTER(_Info), ctypes.c_char_p, _ull]
        lib.cuzk_groth16_proof_size.argtypes = [ctypes.POINTER(_ull)]
        lib.cuzk_groth16_proof_size.restype = None
        self.version = lib.cuzk_prover_version().decode()

    def _check(self, code, err):
        if code != OK:
            raise ProverError(code, self._lib.cuzk_prover_error_name(code).decode(), err.value.decode(errors="replace"))

    def _call_with_outputs(self, call, proof_size, public_size):
        """Runs call(proof, &proof_size, public, &public_size, err, err_size), growing the buffers on
        CUZK_PROVER_ERROR_SHORT_BUFFER as rapidsnark's callers do."""
        for _ in range(3):
            proof, pub = ctypes.create_string_buffer(proof_size), ctypes.create_string_buffer(public_size)
            ps, us = _ull(proof_size), _ull(public_size)
            err = ctypes.create_string_buffer(_ERR)
            code = call(proof, ctypes.byref(ps), pub, ctypes.byref(us), err, _ERR)
            if code == ERROR_SHORT_BUFFER:
                proof_size, public_size = max(proof_size, ps.value), max(public_size, us.value)
                continue
            self._check(code, err)
            return proof.value.decode(), pub.value.decode()
        raise ProverError(ERROR_SHORT_BUFFER, "CUZK_PROVER_ERROR_SHORT_BUFFER", "the buffers kept being too small")

    def prove_once(self, zkey_path, wtns):
        """One-shot: reads the key, proves, verifies (cuzk_groth16_prover_zkey_file)."""
        bound = _ull()
        self._lib.cuzk_groth16_proof_size(ctypes.byref(bound))
        return self._call_with_outputs(
            lambda *out: self._lib.cuzk_groth16_prover_zkey_file(zkey_path.encode(), wtns, len(wtns), *out),
            bound.value, 64)

    def prover(self, zkey_path, backend="auto", verify=True, threads=0):
        return Prover(self, zkey_path, backend, verify, threads)


class Prover:
    """A resident prover: the key is read once; prove() may be called from several threads."""

    def __init__(self, library, zkey_path, backend="auto", verify=True, threads=0):
        self._library, lib = library, library._lib
        opts = _Options()
        lib.cuzk_prover_options_init(ctypes.byref(opts))
        opts.backend, opts.verify, opts.threads = BACKENDS[backend], int(verify), threads
        self._handle = ctypes.c_void_p()
        err = ctypes.create_string_buffer(_ERR)
        code = lib.cuzk_groth16_prover_create_zkey_file_with_options(
            ctypes.byref(self._handle), zkey_path.encode(), ctypes.byref(opts), err, _ERR)
        library._check(code, err)
        self.info = _Info()
        self.info.struct_size = ctypes.sizeof(_Info)
        library._check(lib.cuzk_groth16_prover_get_info(self._handle, ctypes.byref(self.info), err, _ERR), err)

    def prove(self, wtns):
        """(proof.json, public.json) for the bytes of a .wtns file."""
        lib = self._library._lib
        return self._library._call_with_outputs(
            lambda *out: lib.cuzk_groth16_prover_prove(self._handle, wtns, len(wtns), *out),
            self.info.proof_size, self.info.public_size)

    def close(self):
        if self._handle:
            self._library._lib.cuzk_groth16_prover_destroy(self._handle)
            self._handle = ctypes.c_void_p()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def write_atomic(path, text):
    """Writes text to path so that path is either its old content or all of text: a temporary file
    in the same folder, fsync, rename, fsync of the folder; the temporary file is removed on failure."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=os.path.basename(path) + ".tmp.", dir=folder)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    dfd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def main(argv):
    ap = argparse.ArgumentParser(description="prove a circom/snarkjs witness with libcuzk_prover")
    ap.add_argument("--lib", required=True, help="path of libcuzk_prover.so")
    ap.add_argument("zkey")
    ap.add_argument("wtns")
    ap.add_argument("proof")
    ap.add_argument("public")
    ap.add_argument("--proofs", type=int, default=1, help="proofs with the resident key (the last is written)")
    ap.add_argument("--backend", choices=sorted(BACKENDS), default="auto")
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--no-verify", action="store_true", help="return proofs unchecked")
    ap.add_argument("--one-shot", action="store_true", help="cuzk_groth16_prover_zkey_file instead of a handle")
    a = ap.parse_args(argv)
    if os.path.abspath(a.proof) == os.path.abspath(a.public):
        ap.error(f"proof and public are the same file ({a.proof}): one would overwrite the other")
    lib = Library(a.lib)
    wtns = open(a.wtns, "rb").read()
    try:
        if a.one_shot:
            t0 = time.perf_counter()
            proof, pub = lib.prove_once(a.zkey, wtns)
            print(f"cuzk_prover.py: one-shot proof in {1e3 * (time.perf_counter() - t0):.1f} ms")
        else:
            with lib.prover(a.zkey, a.backend, not a.no_verify, a.threads) as p:
                i = p.info
                print(f"cuzk_prover.py: libcuzk_prover {lib.version}, {i.curve_name.decode()}, {i.n_vars} variables, "
                      f"domain {i.domain_size}, {'GPU' if i.backend == 2 else 'CPU'}"
                      f"{', ' + i.note.decode() if i.note else ''}")
                for k in range(a.proofs):
                    t0 = time.perf_counter()
                    proof, pub = p.prove(wtns)
                    print(f"cuzk_prover.py: proof {k + 1}/{a.proofs} in {1e3 * (time.perf_counter() - t0):.1f} ms")
    except ProverError as e:
        print(f"cuzk_prover.py: {e}", file=sys.stderr)
        return e.code
    # A stale proof.json must not sit beside the new public.json: it goes first, and the new one
    # is renamed in last, so a proof.json that exists always matches its public.json.
    try:
        os.unlink(a.proof)
    except FileNotFoundError:
        pass
    write_atomic(a.public, pub)
    write_atomic(a.proof, proof)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
