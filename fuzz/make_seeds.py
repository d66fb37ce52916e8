#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Writes the committed seed corpora of the recipe fuzz targets (recipe.hpp reads them front to
back: one byte per choice, little-endian integers, 2-byte lengths before byte strings).

    fuzz/make_seeds.py [OUT]      # default: the seeds/ folder beside this script

seeds/c_api_options/ (fuzz_c_api_options) and seeds/bounded/ (fuzz_bounded_readers): a few
bytes each, one per path through the target, so that fuzzing starts at every check. An empty
recipe takes the first choice everywhere: valid CPU options, the good key, one good proof.
"""
import os
import struct
import sys

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "seeds")


def write(folder, name, data):
    d = os.path.join(out, folder)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name + ".bin"), "wb") as f:
        f.write(bytes(data))


def u16(v):
    return list(struct.pack("<H", v))


def u32(v):
    return list(struct.pack("<I", v))


# fuzz_c_api_options: the option fields in struct order (one pick each: the index of an edge
# value), NULL options, the key's variant, NULL key, the error buffer, get_info's struct_size,
# the number of proves; then per prove the witness's variant, the two capacities, the error
# buffer and the randomness source.
def options(struct_size=0, backend=0, verify=0, threads=0, gpu=0, vram=0, mco=0):
    return [struct_size, backend, verify, threads, gpu, vram, mco, 0]


def create(opts, key=(0,), err=0, info=0, proves=0):
    return opts + list(key) + [0, err, info, proves]


def prove(wtns=(0,), proof_cap=0, public_cap=0, err=0, rnd=(0,)):
    return list(wtns) + [proof_cap, public_cap, err] + list(rnd)


seeds = {
    "good": create(options()) + prove(),
    "struct_size_older": create(options(struct_size=3)),  # 20 bytes: an older, smaller struct
    "struct_size_field_only": create(options(struct_size=2)),  # 4 bytes
    "struct_size_newer": create(options(struct_size=7)),  # sizeof + 8
    "threads_all_ones": create(options(threads=8)),
    "threads_limit": create(options(threads=3)) + prove(),
    "backend_gpu": create(options(backend=2)),
    "backend_raw": create(options(backend=7)) + u32(0x80000001),
    "verify_off_flipped_witness": create(options(verify=1), proves=0) + prove(wtns=[2] + u32(300) + [3]),
    "truncated_key": create(options(), key=[1] + u32(1000)),
    "flipped_key": create(options(), key=[2] + u32(700) + [5]) + prove(),
    # a flip that create accepts (a changed coefficient: another, well-formed circuit), where the
    # good witness no longer satisfies and the prove must fail cleanly, not count as a bug
    "flipped_key_accepted": create(options(), key=[2] + u32(0x0A090807) + [3]) + prove(),
    "short_proof_buffer": create(options()) + prove(proof_cap=3),
    "tiny_error_buffers": create(options(), err=2) + prove(err=2, proof_cap=1),
    "random_from_input": create(options()) + prove(rnd=[1] + u16(16) + list(range(1, 17))),
    "random_zero": create(options()) + prove(rnd=[2]),
    "random_fails": create(options(), proves=1) + prove(rnd=[3]) + prove(),
    "info_struct_size": create(options(), info=2) + prove(),
}
for name, data in seeds.items():
    write("c_api_options", name, data)


# fuzz_bounded_readers: the mode (0 sections, 1 text file, 2 JSON), then its recipe.
def table(which=0, n=0, count_edit=0, ids=1, sizes=0, body=(), tail=0, cut=7):
    return [0, which] + u16(n) + [count_edit, ids, sizes] + list(body) + [tail, cut]


def text(kind=0, repeat=0, piece=b"", limit=0):
    return [1, kind, repeat] + u16(len(piece)) + list(piece) + [limit]


def json(shape=0, count=0, piece=b""):
    return [2, shape] + u32(count) + u16(len(piece)) + list(piece)


bounded = {
    "sections_16384_empty": table(n=16384),
    "sections_16384_duplicate_last": table(n=16384, ids=2),
    "sections_all_one_id": table(n=1000, ids=3),
    "sections_count_all_ones": table(n=10, count_edit=3),
    "sections_count_one_more": table(which=2, n=10, count_edit=1),
    "sections_sizes_from_input": table(which=1, n=4, ids=0, sizes=1, body=[1, 2, 0xAA, 0xBB, 2, 0, 3, 1, 9]),
    "sections_huge_size": table(n=8, sizes=2, body=[1]),
    "sections_raw_magic": [0, 3] + list(b"wtns") + u32(2) + u16(3) + [0, 1, 0, 0, 7],
    "text_at_limit": text(piece=b'{"a": [1, 2, 3]}' * 6),
    "text_one_over": text(piece=b"[1]" * 30, limit=2),
    "text_pipe": text(kind=1, repeat=15, piece=b"0123456789abcdef" * 4, limit=4),
    "text_pipe_over": text(kind=1, repeat=3, piece=b"x" * 64, limit=2),
    "text_dev_zero": text(kind=2, limit=4),
    "text_directory": text(kind=3),
    "json_deep": json(shape=1, count=100000, piece=b"1"),
    "json_depth_64": json(shape=1, count=64, piece=b"1"),
    "json_signals": json(shape=2, count=2000),
    "json_proof": json(piece=b'{"pi_a": ["1", "2", "1"], "pi_b": [["1", "0"], ["1", "0"], ["1", "0"]], '
                       b'"pi_c": ["1", "2", "1"], "protocol": "groth16", "curve": "bn128"}'),
}
for name, data in bounded.items():
    write("bounded", name, data)
