#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Draws the figures of docs/PERFORMANCE.md and README.md from the result files in docs/results/.

    scripts/plot-figures.py                   # rewrite docs/figures/*.svg from docs/results/*.json
    scripts/plot-figures.py --out DIR         # write them into DIR instead
    scripts/plot-figures.py --check           # exit 1 if a committed figure differs from its data
    scripts/plot-figures.py --check --results DIR   # the same, from other result files (the test's)

Figures (one per result file):
    docs/results/msm-h200.json            -> docs/figures/msm-h200.svg
    docs/results/groth16-stages-h200.json -> docs/figures/groth16-stages-h200.svg
    docs/results/cpu-prover.json          -> docs/figures/cpu-prover.svg

Why a small SVG writer of its own and not matplotlib: the ctest `figures_up_to_date` regenerates
every figure and compares it byte for byte with the committed one, so the output must depend on
the data and on nothing else. matplotlib's SVG (even with svg.hashsalt fixed and no date) changes
with its version and with the fonts it finds, which lays out ticks and legends differently: a
Debian upgrade or another machine would mark every figure stale with the data unchanged, and CI
would need the package. This writer uses the standard library only, emits text as <text> (the
viewer's sans-serif font draws it), and formats every coordinate with two decimals, so the same
data gives the same bytes on any python3.
"""
import argparse
import json
import math
import os
import sys

FIGURES = [
    ("msm-h200.json", "msm-h200.svg"),
    ("groth16-stages-h200.json", "groth16-stages-h200.svg"),
    ("cpu-prover.json", "cpu-prover.svg"),
]

# Colour-blind-safe palette (Okabe and Ito).
BLUE, ORANGE, GREEN, VERMILION, PURPLE, SKY, YELLOW, GREY = (
    "#0072b2", "#e69f00", "#009e73", "#d55e00", "#cc79a7", "#56b4e9", "#f0e442", "#999999")


def num(x):
    """A coordinate as text: two decimals, no trailing zeros, never '-0'."""
    s = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def esc(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class Svg:
    def __init__(self, width, height, title):
        self.width, self.height = width, height
        self.parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="12">',
            f"<title>{esc(title)}</title>",
            f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>',
        ]

    def add(self, element):
        self.parts.append(element)

    def line(self, x1, y1, x2, y2, stroke="#000000", width=1, dash=None):
        d = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(f'<line x1="{num(x1)}" y1="{num(y1)}" x2="{num(x2)}" y2="{num(y2)}" '
                 f'stroke="{stroke}" stroke-width="{num(width)}"{d}/>')

    def rect(self, x, y, w, h, fill, stroke="none"):
        self.add(f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" fill="{fill}" stroke="{stroke}"/>')

    def text(self, x, y, s, anchor="start", size=None, weight=None, fill="#000000", rotate=None):
        attrs = f' text-anchor="{anchor}"' if anchor != "start" else ""
        attrs += f' font-size="{size}"' if size else ""
        attrs += f' font-weight="{weight}"' if weight else ""
        attrs += f' fill="{fill}"' if fill != "#000000" else ""
        attrs += f' transform="rotate({rotate} {num(x)} {num(y)})"' if rotate is not None else ""
        self.add(f'<text x="{num(x)}" y="{num(y)}"{attrs}>{esc(s)}</text>')

    def polyline(self, points, stroke, width=2, dash=None):
        d = f' stroke-dasharray="{dash}"' if dash else ""
        pts = " ".join(f"{num(x)},{num(y)}" for x, y in points)
        self.add(f'<polyline points="{pts}" fill="none" stroke="{stroke}" stroke-width="{num(width)}"{d}/>')

    def marker(self, x, y, kind, colour):
        if kind == "circle":
            self.add(f'<circle cx="{num(x)}" cy="{num(y)}" r="3.5" fill="{colour}"/>')
        else:  # square, hollow: the peer
            self.add(f'<rect x="{num(x - 3.5)}" y="{num(y - 3.5)}" width="7" height="7" fill="#ffffff" '
                     f'stroke="{colour}" stroke-width="1.5"/>')

    def render(self):
        return "\n".join(self.parts + ["</svg>"]) + "\n"


def log_ticks(lo, hi):
    """Decades 1, 2, 5 x 10^k covering [lo, hi]."""
    ticks = []
    k = math.floor(math.log10(lo))
    while 10 ** k <= hi * 1.0001:
        for m in (1, 2, 5):
            v = m * 10 ** k
            if lo * 0.9999 <= v <= hi * 1.0001:
                ticks.append(v)
        k += 1
    return ticks


def tick_label(v):
    if v >= 1000:
        return f"{v / 1000:g} k" if v % 1000 else f"{v // 1000:g}k"
    return f"{v:g}"


class LogLogPanel:
    """x: log2 of the size (labelled 2^k), y: a time on a log scale."""

    def __init__(self, svg, x, y, w, h, xlo, xhi, ylo, yhi, title, ylabel):
        self.svg, self.x, self.y, self.w, self.h = svg, x, y, w, h
        self.xlo, self.xhi, self.ylo, self.yhi = xlo, xhi, ylo, yhi
        svg.rect(x, y, w, h, "#ffffff", "#000000")
        for v in log_ticks(ylo, yhi):
            py = self.py(v)
            svg.line(x, py, x + w, py, "#dddddd", 1)
            svg.text(x - 6, py + 4, tick_label(v), anchor="end", size=10)
        for k in range(xlo, xhi + 1, 2):
            px = self.px(k)
            svg.line(px, y, px, y + h, "#eeeeee", 1)
            svg.text(px, y + h + 14, f"2^{k}", anchor="middle", size=10)
        svg.text(x + w / 2, y - 8, title, anchor="middle", weight="bold")
        svg.text(x - 38, y + h / 2, ylabel, anchor="middle", size=10, rotate=-90)

    def px(self, k):
        return self.x + (k - self.xlo) / (self.xhi - self.xlo) * self.w

    def py(self, v):
        f = (math.log10(v) - math.log10(self.ylo)) / (math.log10(self.yhi) - math.log10(self.ylo))
        return self.y + self.h - f * self.h

    def series(self, ks, values, colour, kind, dash=None):
        pts = [(self.px(k), self.py(v)) for k, v in zip(ks, values)]
        self.svg.polyline(pts, colour, 2, dash)
        for px, py in pts:
            self.svg.marker(px, py, kind, colour)


def legend(svg, x, y, entries):
    """entries: (label, colour, marker kind, dash) in one row."""
    for label, colour, kind, dash in entries:
        svg.polyline([(x, y), (x + 26, y)], colour, 2, dash)
        svg.marker(x + 13, y, kind, colour)
        svg.text(x + 32, y + 4, label, size=11)
        x += 40 + 6.5 * len(label)


def msm_figure(data):
    svg = Svg(900, 660, data["title"])
    svg.text(450, 24, "MSM time against size, one H200, device-resident (lower is better)", anchor="middle",
             size=15, weight="bold")
    series = {(s["impl"], s["curve"], s["group"]): s for s in data["series"]}
    panels = [("BLS12-381", "G1"), ("BN254", "G1"), ("BLS12-381", "G2"), ("BN254", "G2")]
    pw, ph = 340, 210
    for i, (curve, group) in enumerate(panels):
        x = 80 + (i % 2) * (pw + 100)
        y = 80 + (i // 2) * (ph + 80)
        ours = series.get(("cuzk", curve, group))
        peer = series.get(("sppark", curve, group))
        every = [v for s in (ours, peer) if s for v in s["ms"]]
        ylo = 10 ** math.floor(math.log10(min(every)))
        yhi = 10 ** math.ceil(math.log10(max(every)))
        panel = LogLogPanel(svg, x, y, pw, ph, 10, 26, ylo, yhi, f"{curve} {group}", "ms")
        if peer:
            panel.series(peer["log2_n"], peer["ms"], ORANGE, "square", "5,3")
        else:
            svg.text(x + 10, y + 18, "sppark: not measured", size=10, fill="#666666")
        if ours:
            panel.series(ours["log2_n"], ours["ms"], BLUE, "circle")
        svg.text(x + pw / 2, y + ph + 30, "points (n)", anchor="middle", size=10)
    ours = next(s for s in data["series"] if s["impl"] == "cuzk")
    peer = next(s for s in data["series"] if s["impl"] == "sppark")
    legend(svg, 200, 640, [(f"cuzk ({ours['commit']}, {ours['date']})", BLUE, "circle", None),
                           (f"sppark ({peer['commit'].replace('sppark ', '')}, {peer['date']})", ORANGE, "square", "5,3")])
    return svg.render()


STAGE_COLOURS = {"upload z": GREY, "NTTs": YELLOW, "MSM A": BLUE, "MSM B G1": SKY, "MSM B G2": VERMILION,
                 "MSM L": GREEN, "MSM H": PURPLE, "the rest": "#dddddd"}


def stages_figure(data):
    proofs = data["proofs"]
    svg = Svg(880, 56 + 56 * len(proofs) + 64, data["title"])
    svg.text(440, 24, "Where a 2^24 Groth16 proof's time goes, one H200 (ms)", anchor="middle", size=15,
             weight="bold")
    x0, width = 190, 600
    top = 56
    longest = max(p["prove_ms"] for p in proofs)
    scale = width / (math.ceil(longest / 100) * 100)
    for t in range(0, int(math.ceil(longest / 100) * 100) + 1, 100):
        px = x0 + t * scale
        svg.line(px, top - 4, px, top + 56 * len(proofs), "#eeeeee", 1)
        svg.text(px, top + 56 * len(proofs) + 14, f"{t}", anchor="middle", size=10)
    names = []
    for i, p in enumerate(proofs):
        y = top + 56 * i
        svg.text(x0 - 8, y + 17, p["label"], anchor="end", size=12)
        svg.text(x0 - 8, y + 31, f"{p['commit']}, {p['date']}", anchor="end", size=10, fill="#666666")
        stages = list(p["stages"])
        rest = p["prove_ms"] - sum(ms for _, ms in stages)
        if rest > 0.05:
            stages.append(["the rest", rest])
        x = x0
        for name, ms in stages:
            w = ms * scale
            svg.rect(x, y + 6, w, 28, STAGE_COLOURS[name], "#ffffff")
            if w > 34:
                svg.text(x + w / 2, y + 24, f"{ms:.0f}", anchor="middle", size=10,
                         fill="#ffffff" if name in ("MSM A", "MSM B G2", "MSM H", "MSM L", "upload z") else "#000000")
            x += w
            if name not in names:
                names.append(name)
        svg.text(x + 6, y + 24, f"{p['prove_ms']:g} ms", size=11, weight="bold")
    y = top + 56 * len(proofs) + 40
    x = 60
    for name in [n for n in STAGE_COLOURS if n in names]:
        svg.rect(x, y - 9, 12, 12, STAGE_COLOURS[name], "#999999")
        svg.text(x + 17, y + 1, name, size=11)
        x += 30 + 7 * len(name)
    return svg.render()


def cpu_figure(data):
    rs = next(c for c in data["comparisons"] if c["peer"] == "rapidsnark")
    sj = next(c for c in data["comparisons"] if c["peer"] == "snarkjs")
    svg = Svg(880, 400, data["title"])
    svg.text(440, 24, "CPU proof time, two cores, whole command (lower is better)", anchor="middle", size=15,
             weight="bold")
    # Left: rapidsnark, grouped bars per fixture.
    x0, y0, w, h = 70, 70, 360, 240
    top = math.ceil(max(rs["peer_s"] + rs["cuzk_s"]))
    svg.rect(x0, y0, w, h, "#ffffff", "#000000")
    for t in range(0, top + 1):
        py = y0 + h - t / top * h
        svg.line(x0, py, x0 + w, py, "#dddddd", 1)
        svg.text(x0 - 6, py + 4, f"{t}", anchor="end", size=10)
    svg.text(x0 - 34, y0 + h / 2, "s", anchor="middle", size=10, rotate=-90)
    slot = w / len(rs["fixtures"])
    for i, name in enumerate(rs["fixtures"]):
        bx = x0 + i * slot + slot * 0.15
        bw = slot * 0.33
        for j, (value, colour) in enumerate(((rs["peer_s"][i], ORANGE), (rs["cuzk_s"][i], BLUE))):
            bh = value / top * h
            svg.rect(bx + j * bw, y0 + h - bh, bw, bh, colour)
            svg.text(bx + j * bw + bw / 2, y0 + h - bh - 4, f"{value:.2f}", anchor="middle", size=9)
        svg.text(x0 + i * slot + slot / 2, y0 + h + 14, name, anchor="middle", size=10)
        ratio = rs["peer_s"][i] / rs["cuzk_s"][i]
        svg.text(x0 + i * slot + slot / 2, y0 + h + 28, f"{ratio:.2f}x faster", anchor="middle", size=10,
                 fill="#444444")
    svg.text(x0 + w / 2, y0 - 22, "against rapidsnark, BN254", anchor="middle", weight="bold")
    svg.text(x0 + w / 2, y0 - 8, f"{rs['machine_short']}, {rs['date']}, cuzk {rs['commit']}", anchor="middle",
             size=10, fill="#666666")
    svg.rect(x0 + 10, y0 + 10, 12, 12, ORANGE)
    svg.text(x0 + 27, y0 + 20, "rapidsnark", size=11)
    svg.rect(x0 + 105, y0 + 10, 12, 12, BLUE)
    svg.text(x0 + 122, y0 + 20, "cuzk-prove (CPU)", size=11)
    # Right: snarkjs, time against size, both curves.
    every = [v for c in sj["curves"].values() for v in c["peer_s"] + c["cuzk_s"]]
    sizes = [k for c in sj["curves"].values() for k in c["log2_n"]]
    lo, hi = min(sizes), max(sizes)
    panel = LogLogPanel(svg, 510, y0, 300, h, lo, hi, 10 ** math.floor(math.log10(min(every))),
                        10 ** math.ceil(math.log10(max(every))), "", "s")
    svg.text(510 + 150, y0 - 22, "against snarkjs", anchor="middle", weight="bold")
    svg.text(510 + 150, y0 - 8, f"{sj['machine_short']}, {sj['date']}, cuzk {sj['commit']}",
             anchor="middle", size=10, fill="#666666")
    for curve, dash in (("BN254", None), ("BLS12-381", "2,2")):
        c = sj["curves"][curve]
        panel.series(c["log2_n"], c["peer_s"], ORANGE, "square", dash or "5,3")
        panel.series(c["log2_n"], c["cuzk_s"], BLUE, "circle", dash)
        svg.text(panel.px(hi) + 6, panel.py(c["peer_s"][-1]) + 4, curve, size=9, fill="#444444")
    svg.text(510 + 150, y0 + h + 30, "constraints (domain size)", anchor="middle", size=10)
    legend(svg, 520, y0 + h + 56, [("snarkjs", ORANGE, "square", "5,3"), ("cuzk-prove (CPU)", BLUE, "circle", None)])
    svg.text(520, y0 + h + 76, "dotted lines: BLS12-381", size=10, fill="#666666")
    return svg.render()


DRAW = {"msm-h200.json": msm_figure, "groth16-stages-h200.json": stages_figure, "cpu-prover.json": cpu_figure}


def render_all(results_dir):
    out = {}
    for source, figure in FIGURES:
        with open(os.path.join(results_dir, source), encoding="utf-8") as f:
            out[figure] = DRAW[source](json.load(f))
    return out


def main():
    repo = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--results", default=os.path.join(repo, "docs", "results"))
    ap.add_argument("--figures", default=os.path.join(repo, "docs", "figures"), help="the committed figures")
    ap.add_argument("--out", help="write the figures here instead of --figures")
    ap.add_argument("--check", action="store_true", help="compare with --figures, write nothing")
    args = ap.parse_args()
    figures = render_all(args.results)
    if args.check:
        stale = []
        for name, text in figures.items():
            path = os.path.join(args.figures, name)
            try:
                with open(path, encoding="utf-8") as f:
                    committed = f.read()
            except FileNotFoundError:
                committed = None
            if committed != text:
                stale.append(name)
        for name in stale:
            print(f"plot-figures: {name} is stale against {args.results}: run scripts/plot-figures.py and commit it")
        if stale:
            return 1
        print(f"plot-figures: {len(figures)} figures match their data")
        return 0
    out = args.out or args.figures
    os.makedirs(out, exist_ok=True)
    for name, text in figures.items():
        with open(os.path.join(out, name), "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        print(f"plot-figures: wrote {os.path.join(out, name)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
