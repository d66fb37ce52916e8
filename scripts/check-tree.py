#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Comments say why, not when; no file names a path of a development machine.

    scripts/check-tree.py [REPO]        # check the files git tracks (or, outside git, every file)
    scripts/check-tree.py --files F...  # check these files only (the checker's own test)

Fails (exit 1, one line per finding, file:line: what) on:
  - an issue or pull-request number in a code comment ("issue 12", "issues 4 and 7", "PR 9",
    "(#12)"): the tracker is not part of the code, and a reader needs the reason, not the ticket.
    Another project's issue, written repo#N (snarkjs#479), is a reference and stays allowed.
  - a date in a code comment (2026-12-04): a comment says what holds now; dated runs belong to
    docs/log/.
  - an absolute path of a machine in any file: home folders, /root/, /work/, /Users/, /mnt/, and
    /tmp/ in comments and docs (a test that creates a temporary file in code may use /tmp).
  - a source file (C, C++, CUDA, JavaScript, TypeScript, Go, shell, CMake, Python) without the
    project's licence line, `SPDX-License-Identifier: MIT OR Apache-2.0`, in its first five lines.

Code comments are those of C, C++, CUDA and JavaScript (// and /* */), and of shell, CMake,
Python and YAML (#). Files under docs/log/ and tests/vectors/ are records of their time, and
their dates and third-party issue numbers are data; they are checked for machine paths only.
Standard library only (ctest `tree_hygiene`; `tree_hygiene_detects` runs it on bad samples).
"""
import os
import re
import subprocess
import sys

C_LIKE = (".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".cu", ".cuh", ".inc", ".js", ".cjs", ".mjs", ".ts", ".go")
LICENCE = "SPDX-License-Identifier: MIT OR Apache-2.0"
HASH_LIKE = (".sh", ".bash", ".cmake", ".py", ".yml", ".yaml", ".toml", ".cfg")
RECORDS = ("docs/log/", "tests/vectors/")
SKIP_DIRS = {".git", "node_modules"}

ISSUE = re.compile(r"\b(?:issues?|PRs?|pull requests?)\s+#?\d+\b|(?<![\w/&#.-])#\d+\b", re.IGNORECASE)
DATE = re.compile(r"\b(?:19|20)\d\d-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])\b")
# A machine path starts a word: after the line's start, a blank, a quote, '=', '(', ':', or ','.
MACHINE = re.compile(r"(?:^|(?<=[\s\"'`=(:,]))/(?:home|root|work|Users|mnt)/[\w.-]")
TMP = re.compile(r"(?:^|(?<=[\s\"'`=(:,]))/tmp/[\w.-]")


def kind(path):
    name = os.path.basename(path)
    if name == "CMakeLists.txt":
        return "hash"
    if path.endswith(C_LIKE):
        return "c"
    if path.endswith(HASH_LIKE):
        return "hash"
    if path.endswith(".md"):
        return "doc"
    return None


def shebang_kind(text):
    first = text.split("\n", 1)[0]
    if first.startswith("#!") and re.search(r"\b(ba)?sh\b|python", first):
        return "hash"
    return None


def c_comments(text):
    """(line number, comment text) of every // and /* */ comment, skipping string and char literals."""
    out = []
    i, n, line = 0, len(text), 1
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append((line, text[i + 2:j]))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j
            for k, part in enumerate(text[i + 2:j].split("\n")):
                out.append((line + k, part))
            line += text.count("\n", i, j)
            i = j + 2
        elif ch == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(\s]{0,16})\(', text[i:])
            if not m:
                i += 1
                continue
            end = text.find(")" + m.group(1) + '"', i)
            end = n if end < 0 else end
            line += text.count("\n", i, end)
            i = end + len(m.group(1)) + 2
        elif ch in "\"'":
            # A digit separator (1'000) is not a character literal.
            if ch == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum():
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != ch and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        else:
            i += 1
    return out


def hash_comments(text):
    """(line number, comment text) of # comments outside quotes; a shebang line is not one."""
    out = []
    for number, raw in enumerate(text.split("\n"), 1):
        if number == 1 and raw.startswith("#!"):
            continue
        quote = None
        for k, ch in enumerate(raw):
            if quote:
                if ch == "\\" and quote == '"':
                    continue
                if ch == quote:
                    quote = None
            elif ch in "\"'":
                quote = ch
            elif ch == "#" and (k == 0 or raw[k - 1] in " \t;(|&"):
                # ${#array[@]}, $# and "#" inside a word are not comments.
                out.append((number, raw[k + 1:]))
                break
    return out


def check_file(repo, rel):
    path = os.path.join(repo, rel)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (UnicodeDecodeError, OSError):
        return []  # binary files hold no comments
    findings = []
    record = rel.replace(os.sep, "/").startswith(RECORDS)
    for number, line in enumerate(text.split("\n"), 1):
        if MACHINE.search(line):
            findings.append(f"{rel}:{number}: an absolute machine path: {line.strip()[:120]}")
    k = kind(rel) or shebang_kind(text)
    if k == "doc":
        for number, line in enumerate(text.split("\n"), 1):
            if TMP.search(line):
                findings.append(f"{rel}:{number}: a /tmp path in the docs (use a relative one): {line.strip()[:120]}")
        return findings
    if k is None:
        return findings
    if not record and LICENCE not in "\n".join(text.split("\n")[:5]):
        findings.append(f"{rel}:1: no licence line ('{LICENCE}') in the first five lines")
    comments = c_comments(text) if k == "c" else hash_comments(text)
    for number, comment in comments:
        if TMP.search(comment):
            findings.append(f"{rel}:{number}: a /tmp path in a comment: {comment.strip()[:120]}")
        if record:
            continue
        m = ISSUE.search(comment)
        if m:
            findings.append(f"{rel}:{number}: an issue number in a comment ('{m.group(0)}'): say the reason instead")
        m = DATE.search(comment)
        if m:
            findings.append(f"{rel}:{number}: a date in a comment ('{m.group(0)}'): dated runs belong in docs/log/")
    return findings


def tracked_files(repo):
    try:
        out = subprocess.run(["git", "-C", repo, "ls-files", "-z"], capture_output=True, check=True)
        files = [f for f in out.stdout.decode("utf-8", "replace").split("\0") if f]
        if files:
            return [f for f in files if os.path.isfile(os.path.join(repo, f))]
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []
    for root, dirs, names in os.walk(repo):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.startswith("build")]
        for name in names:
            files.append(os.path.relpath(os.path.join(root, name), repo))
    return sorted(files)


def main(argv):
    if len(argv) > 1 and argv[1] == "--files":
        repo, files = os.getcwd(), argv[2:]
    else:
        repo = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
        files = tracked_files(repo)
    findings = []
    for rel in files:
        findings += check_file(repo, rel)
    for f in findings:
        print(f)
    if findings:
        print(f"check-tree: {len(findings)} finding(s) in {len(files)} files")
        return 1
    print(f"check-tree: {len(files)} files: no issue numbers or dates in comments, no machine paths, licence lines present")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
