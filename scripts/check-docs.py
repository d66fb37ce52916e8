#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Checks the manual's links, so that a number's source stays one click away.

    scripts/check-docs.py [REPO]

1. Every relative link in the Markdown files of REPO (README.md, CONTRIBUTING.md, docs/**) names a
   file that exists, and a link with an anchor (page.md#section) names a heading of that page, with
   the anchor GitHub makes of it.
2. Every "source" of a result file (docs/results/*.json) that names a page of the repository
   (docs/...md#anchor) resolves the same way.
3. Every row of the results table in docs/PERFORMANCE.md (the table under "## Current numbers")
   links to a log entry (docs/log/) or a result file (docs/results/): no number without its run.

Exit status 0 when both hold, 1 with one line per broken link or unsourced row. Standard library
only: it runs wherever python3 does (ctest `docs_links`).
"""
import os
import re
import sys

# Pages that other branches add; a link to one of them may dangle until they land.
PENDING: set[str] = set()

LINK = re.compile(r"(?<!!)\[([^\]]*)\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")
REF_USE = re.compile(r"\[([^\]]+)\]\[([^\]]+)\]")
REF_DEF = re.compile(r"^ {0,3}\[([^\]]+)\]: +(\S+)")


def reference_definitions(path):
    """[id]: target lines of a page, by lower-cased id."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            m = REF_DEF.match(line)
            if m:
                out[m.group(1).lower()] = (number, m.group(2))
    return out


def slug(heading):
    """GitHub's anchor for a heading: lower case, markup and punctuation dropped, spaces to '-'."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # [text](url) -> text
    text = text.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    seen = {}
    out = set()
    fence = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("```"):
                fence = not fence
                continue
            m = None if fence else re.match(r"^#{1,6} +(.*?) *#* *$", line)
            if not m:
                continue
            s = slug(m.group(1))
            n = seen.get(s, 0)
            seen[s] = n + 1
            out.add(s if n == 0 else f"{s}-{n}")
    return out


def markdown_files(repo):
    for top in ("README.md", "CONTRIBUTING.md"):
        if os.path.isfile(os.path.join(repo, top)):
            yield top
    for root, _, files in os.walk(os.path.join(repo, "docs")):
        for name in sorted(files):
            if name.endswith(".md"):
                yield os.path.relpath(os.path.join(root, name), repo)


def links_of(path):
    """(line number, target, line) of every inline link, image and reference definition."""
    for number, target in reference_definitions(path).values():
        yield number, target, ""
    fence = False
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.startswith("```"):
                fence = not fence
                continue
            if fence:
                continue
            plain = re.sub(r"`[^`]*`", "", line)  # code spans are not links
            for m in LINK.finditer(plain):
                yield number, (m.group(2) or m.group(3)), line


def check_links(repo):
    problems = []
    cache = {}
    for page in markdown_files(repo):
        defined = reference_definitions(os.path.join(repo, page))
        with open(os.path.join(repo, page), encoding="utf-8") as f:
            fence = False
            for number, line in enumerate(f, 1):
                if line.startswith("```"):
                    fence = not fence
                if fence:
                    continue
                for m in REF_USE.finditer(re.sub(r"`[^`]*`", "", line)):
                    if m.group(2).lower() not in defined:
                        problems.append(f"{page}:{number}: reference [{m.group(2)}] is not defined")
        for number, target, _ in links_of(os.path.join(repo, page)):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                continue
            file_part, _, anchor = target.partition("#")
            if file_part:
                resolved = os.path.normpath(os.path.join(os.path.dirname(page), file_part))
            else:
                resolved = page
            full = os.path.join(repo, resolved)
            if not os.path.exists(full):
                if resolved not in PENDING:
                    problems.append(f"{page}:{number}: link to a missing file: {target}")
                continue
            if anchor and resolved.endswith(".md"):
                if resolved not in cache:
                    cache[resolved] = anchors(full)
                if anchor not in cache[resolved]:
                    problems.append(f"{page}:{number}: no heading for #{anchor} in {resolved}")
    return problems


def check_result_sources(repo):
    import json
    problems = []
    folder = os.path.join(repo, "docs", "results")
    if not os.path.isdir(folder):
        return problems

    def sources(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "source" and isinstance(value, str):
                    yield value
                else:
                    yield from sources(value)
        elif isinstance(node, list):
            for value in node:
                yield from sources(value)

    for name in sorted(os.listdir(folder)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            try:
                data = json.load(f)
            except ValueError as e:
                problems.append(f"docs/results/{name}: not JSON: {e}")
                continue
        for source in sources(data):
            if not source.startswith("docs/"):
                continue  # a peer's file outside the repository, named in words
            page, _, anchor = source.partition("#")
            if not os.path.isfile(os.path.join(repo, page)):
                problems.append(f"docs/results/{name}: source names a missing page: {source}")
            elif anchor and anchor not in anchors(os.path.join(repo, page)):
                problems.append(f"docs/results/{name}: no heading for #{anchor} in {page}")
    return problems


def check_results_table(repo):
    page = os.path.join(repo, "docs", "PERFORMANCE.md")
    if not os.path.isfile(page):
        return ["docs/PERFORMANCE.md is missing"]
    problems = []
    refs = reference_definitions(page)
    inside = False
    rows = 0
    with open(page, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.startswith("## "):
                inside = line.strip() == "## Current numbers"
                continue
            if not inside or not line.startswith("|") or re.match(r"^\|[-| :]+\|\s*$", line):
                continue
            if line.startswith("| metric"):
                continue
            rows += 1
            targets = [m.group(2) or m.group(3) or "" for m in LINK.finditer(line)]
            targets += [refs.get(m.group(2).lower(), (0, ""))[1] for m in REF_USE.finditer(line)]
            if not any(re.match(r"^(log|results)/", t) for t in targets):
                problems.append(f"docs/PERFORMANCE.md:{number}: a results row without a link to log/ or results/")
    if rows == 0:
        problems.append('docs/PERFORMANCE.md: no rows under "## Current numbers"')
    return problems


def main():
    repo = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    problems = check_links(repo) + check_result_sources(repo) + check_results_table(repo)
    for p in problems:
        print(p)
    if problems:
        print(f"check-docs: {len(problems)} problem(s)")
        return 1
    print("check-docs: every link resolves and every results row names its run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
