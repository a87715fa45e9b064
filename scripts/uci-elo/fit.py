#!/usr/bin/env python3
"""Fits the UCI_Elo map from the logs of `calibrate.sh` (the match runner's output).

    scripts/uci-elo/fit.py calib [--stockfish calib-sf] [--map 2037 1.057]

Logs read from the calibration folder:
  <engine>-sf<Y>[-s<seed>].log  the Debian engine (A) against Stockfish at UCI_Elo Y
  ours<L>-<engine>[-s<seed>].log  ours at UCI_Elo L (A) against the Debian engine
and, with --stockfish, ours directly against Stockfish:
  nnue-elo<L>-sf<Y>.log  ours at UCI_Elo L (A) against Stockfish at UCI_Elo Y

An engine's rating on Stockfish's scale is Y + Elo(A - B); ours at L measured the
engine's rating + Elo(A - B). The map that was in use (--map, the constants of
`strength_limits`) says which strength level L played at; the fit is
measured = a + b (level - 2000), least squares weighted by 1/error^2, and the new
constants are a and b. Games lost to a crash or a time forfeit are left out: our
engine had none, and the Debian engines' (GNU Chess crashes now and then,
Glaurung oversteps 10+0.1 now and then) say nothing about strength.
"""
import argparse
import glob
import math
import os
import re


def tally(path):
    """W/D/L of A from the game lines, crashes and time forfeits left out."""
    w = d = l = 0
    prev = (0, 0, 0)
    with open(path, errors="replace") as f:
        for line in f:
            m = re.match(r"game\s+\d+: .*A: \+(\d+) =(\d+) -(\d+)", line)
            if not m:
                continue
            cur = tuple(map(int, m.groups()))
            dw, dd, dl = (c - p for c, p in zip(cur, prev))
            prev = cur
            if "crash" in line or "forfeit" in line:
                continue
            w, d, l = w + dw, d + dd, l + dl
    return w, d, l


def elo_of(w, d, l):
    """Score, Elo difference and its standard error (per-game variance: draws count)."""
    n = w + d + l
    s = (w + d / 2) / n
    s_c = min(max(s, 0.5 / n), 1 - 0.5 / n)
    elo = -400 * math.log10(1 / s_c - 1)
    var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s**2) / n
    se_s = math.sqrt(max(var, 1e-9) / n)
    return s, elo, 400 / math.log(10) * se_s / (s_c * (1 - s_c))


def collect(folder, regex):
    """Tallies of the logs whose names match `regex`, summed per key (its groups):
    a pair played twice with different --seed counts once."""
    out = {}
    for p in sorted(glob.glob(os.path.join(folder, "*.log"))):
        m = re.fullmatch(regex, os.path.basename(p))
        if not m:
            continue
        old = out.get(m.groups(), (0, 0, 0))
        out[m.groups()] = tuple(a + b for a, b in zip(old, tally(p)))
    return {k: v for k, v in out.items() if sum(v) > 0}


def wfit(points):
    """Weighted least squares of measured on level - 2000: (a, b)."""
    ws = [1 / e**2 for *_, e in points]
    xs = [lv - 2000 for _, lv, _, _ in points]
    ys = [m for _, _, m, _ in points]
    sw = sum(ws)
    mx = sum(w * x for w, x in zip(ws, xs)) / sw
    my = sum(w * y for w, y in zip(ws, ys)) / sw
    b = sum(w * (x - mx) * (y - my) for w, x, y in zip(ws, xs, ys)) / sum(
        w * (x - mx) ** 2 for w, x in zip(ws, xs)
    )
    return my - b * mx, b


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("calib")
    ap.add_argument("--stockfish", help="folder with ours-against-Stockfish logs")
    ap.add_argument("--svg", help="draw the points and the fits into this SVG file")
    ap.add_argument("--map", nargs=2, type=float, default=(2037.0, 1.057),
                    metavar=("AT_2000", "SLOPE"),
                    help="the map the logs were played with: MEASURED_AT_2000 and "
                         "MEASURED_SLOPE of the build (default: the current ones)")
    args = ap.parse_args()
    at_2000, slope = args.map

    def level(l_set):
        return 2000 + (l_set - at_2000) / slope

    def cells(w, d, l, s, value, se):
        """The cells every table ends with: W/D/L, score, value with its 95% interval."""
        return f"+{w} ={d} −{l} | {s:.1%} | {value:.0f} ± {1.96 * se:.0f} |"

    by_setting = lambda kv: int(kv[0][0])  # noqa: E731  (sorts by UCI_Elo)

    rating = {}
    print("| engine | against | W/D/L | score | rating on Stockfish's scale (95%) |")
    print("|---|---|---|---:|---:|")
    for (eng, y), (w, d, l) in collect(args.calib, r"(\w+?)-sf(\d+)(?:-s\d+)?\.log").items():
        s, elo, se = elo_of(w, d, l)
        rating[eng] = (int(y) + elo, se)
        print(f"| {eng} | Stockfish UCI_Elo {y} | {cells(w, d, l, s, int(y) + elo, se)}")

    debian = []
    print("\n| UCI_Elo | level | opponent (its rating) | W/D/L | score | measured (95%) |")
    print("|---:|---:|---|---|---:|---:|")
    ours = collect(args.calib, r"ours(\d+)-(\w+?)(?:-s\d+)?\.log")
    for (l_set, eng), (w, d, l) in sorted(ours.items(), key=by_setting):
        if eng not in rating:
            continue
        s, elo, se = elo_of(w, d, l)
        r, rse = rating[eng]
        point = (int(l_set), level(int(l_set)), r + elo, math.hypot(se, rse))
        debian.append(point)
        print(f"| {l_set} | {point[1]:.0f} | {eng} ({r:.0f}) | {cells(w, d, l, s, point[2], point[3])}")

    direct = []
    if args.stockfish:
        print("\n| UCI_Elo | level | opponent | W/D/L | score | measured (95%) |")
        print("|---:|---:|---|---|---:|---:|")
        sf = collect(args.stockfish, r"nnue-elo(\d+)-sf(\d+)\.log")
        for (x, y), (w, d, l) in sorted(sf.items(), key=by_setting):
            s, elo, se = elo_of(w, d, l)
            point = (int(x), level(int(x)), int(y) + elo, se)
            direct.append(point)
            print(f"| {x} | {point[1]:.0f} | Stockfish UCI_Elo {y} | {cells(w, d, l, s, point[2], se)}")

    print()
    fits = {}
    for name, pts in (("Debian engines", debian), ("Stockfish directly", direct),
                      ("both", debian + direct)):
        if len(pts) < 2:
            continue
        a, b = wfit(pts)
        fits[name] = (a, b)
        print(f"fit on {name} ({len(pts)} points): measured = {a:.0f} + {b:.3f}·(level − 2000); "
              f"the map in use plays UCI_Elo 2000 at {a + b * (level(2000) - 2000):.0f}; "
              f"the refit plays it at level {2000 + (2000 - a) / b:.0f}")

    if args.svg:
        with open(args.svg, "w") as f:
            f.write(svg(debian, direct, fits, level))


def svg(debian, direct, fits, level):
    """Measured Elo against the UCI_Elo setting: the points with their 95% bars, the
    diagonal (a perfect map) and each fit, as a small self-contained SVG."""
    lo, hi = 1200, 3000
    w, h, m = 640, 480, 60

    def px(x):
        return m + (x - lo) / (hi - lo) * (w - 2 * m)

    def py(y):
        return h - m - (y - lo) / (hi - lo) * (h - 2 * m)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>']
    for v in range(lo, hi + 1, 200):
        out.append(f'<line x1="{px(v):.1f}" y1="{py(lo):.1f}" x2="{px(v):.1f}" y2="{py(hi):.1f}" stroke="#eee"/>')
        out.append(f'<line x1="{px(lo):.1f}" y1="{py(v):.1f}" x2="{px(hi):.1f}" y2="{py(v):.1f}" stroke="#eee"/>')
        out.append(f'<text x="{px(v):.1f}" y="{h - m + 16}" text-anchor="middle">{v}</text>')
        out.append(f'<text x="{m - 6}" y="{py(v) + 4:.1f}" text-anchor="end">{v}</text>')
    out.append(f'<text x="{w / 2}" y="{h - 16}" text-anchor="middle">UCI_Elo setting</text>')
    out.append(f'<text x="16" y="{h / 2}" text-anchor="middle" transform="rotate(-90 16 {h / 2})">measured Elo (Stockfish 15.1 scale)</text>')
    out.append(f'<line x1="{px(lo):.1f}" y1="{py(lo):.1f}" x2="{px(hi):.1f}" y2="{py(hi):.1f}" stroke="#999" stroke-dasharray="4 4"/>')
    out.append(f'<clipPath id="area"><rect x="{px(lo):.1f}" y="{py(hi):.1f}" width="{px(hi) - px(lo):.1f}" height="{py(lo) - py(hi):.1f}"/></clipPath>')
    out.append('<g clip-path="url(#area)">')
    colours = {"Debian engines": "#c0392b", "Stockfish directly": "#2e86c1", "both": "#333"}
    for name, (a, b) in fits.items():
        ys = [a + b * (level(x) - 2000) for x in (lo, hi)]
        out.append(f'<line x1="{px(lo):.1f}" y1="{py(ys[0]):.1f}" x2="{px(hi):.1f}" y2="{py(ys[1]):.1f}" stroke="{colours[name]}" stroke-width="1.5"/>')
    for pts, colour in ((debian, colours["Debian engines"]), (direct, colours["Stockfish directly"])):
        for x, _, y, e in pts:
            out.append(f'<line x1="{px(x):.1f}" y1="{py(y - 1.96 * e):.1f}" x2="{px(x):.1f}" y2="{py(y + 1.96 * e):.1f}" stroke="{colour}"/>')
            out.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="4" fill="{colour}"/>')
    out.append("</g>")
    legend = [("against the Debian engines, and its fit", colours["Debian engines"]),
              ("against Stockfish directly, and its fit", colours["Stockfish directly"]),
              ("fit on both", colours["both"]), ("measured = setting", "#999")]
    for i, (text, colour) in enumerate(legend):
        y = m + 10 + 18 * i
        out.append(f'<rect x="{m + 10}" y="{y - 9}" width="10" height="10" fill="{colour}"/>')
        out.append(f'<text x="{m + 26}" y="{y}">{text}</text>')
    out.append("</svg>\n")
    return "\n".join(out)


if __name__ == "__main__":
    main()
