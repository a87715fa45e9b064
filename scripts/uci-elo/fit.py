#!/usr/bin/env python3
"""Fits the UCI_Elo map (node budget -> Elo) from the calibration results.

    scripts/uci-elo/fit.py tally calib/*.log >> scripts/uci-elo/results.csv
    scripts/uci-elo/fit.py fit scripts/uci-elo/results.csv [--check check.csv] [--svg calibration.svg]

`results.csv` holds one row per pairing: player, opponent, wins, draws, losses (from
the player's side) and where the games come from. A player or opponent is
  phalanx, gnuchess, glaurung, toga  a Debian engine at full strength,
  sf<Y>                              Stockfish 15.1 at UCI_Elo Y (the ruler),
  n<N>                               our engine with a budget of N nodes a move.

`tally` reads the logs of `fianchetto match` (its last lines: `Score of A vs B: W - L - D`
and `Faults: … (A x, B y)`), named `<player>-vs-<opponent>[-s<seed>].log` by
`calibrate.sh`, and prints their rows (a pairing played with several seeds is summed).
Games the player won because the opponent crashed, hung, moved illegally or overstepped
its clock (the opponent's faults, `B y`) are left out: GNU Chess crashes now and then and
Glaurung oversteps 10+0.1 now and then, which says nothing about strength; a fault of
the player counts as its loss.

`fit` first rates each Debian engine on Stockfish's scale (Y + its Elo difference
against sf<Y>), then each of our budgets (the opponent's rating + our difference),
and fits measured = a + b * (log2(N) - 13), least squares weighted by 1/error^2:
a is the Elo at 8192 nodes (ELO_AT_REFERENCE) and b the Elo of a doubling
(ELO_PER_DOUBLING), the constants of `strength_nodes`. `--check` rates the rows of
another file (games played after the fit, with the shipped map) without fitting them.
"""
import argparse
import csv
import glob
import math
import os
import re
import sys

REFERENCE_LOG2 = 13  # 8192 nodes: REFERENCE_NODES in strength_nodes
LOG_NAME = re.compile(r"(\w+?)-vs-(\w+?)(?:-s(\d+))?\.log")


def tally_log(path):
    """W/D/L of A from a `fianchetto match` log; games A won by the opponent's fault are left out."""
    score = faults = None
    with open(path, errors="replace") as f:
        for line in f:
            m = re.match(r"Score of .* vs .*: (\d+) - (\d+) - (\d+)", line)
            if m:
                score = tuple(map(int, m.groups()))
            m = re.match(r"Faults: .*\(A \d+, B (\d+)\)", line)
            if m:
                faults = int(m.group(1))
    if score is None:
        sys.exit(f"{path}: no `Score of` line (did the match finish?)")
    w, l, d = score
    return max(w - (faults or 0), 0), d, l


def tally(paths):
    """Prints one CSV row per (player, opponent), summed over the seeds found."""
    rows = {}
    for p in sorted(paths):
        m = LOG_NAME.fullmatch(os.path.basename(p))
        if not m:
            sys.exit(f"{p}: not named <player>-vs-<opponent>[-s<seed>].log")
        key = m.group(1), m.group(2)
        old = rows.get(key, ((0, 0, 0), []))
        counts = tuple(a + b for a, b in zip(old[0], tally_log(p)))
        rows[key] = counts, old[1] + [m.group(3) or "1"]
    out = csv.writer(sys.stdout, lineterminator="\n")
    for (player, opponent), ((w, d, l), seeds) in rows.items():
        seeds = " ".join(sorted(seeds, key=int))
        out.writerow([player, opponent, w, d, l, f"10+0.1, seeds {seeds}"])


def elo_of(w, d, l):
    """Score, Elo difference and its standard error (per-game variance: draws count)."""
    n = w + d + l
    s = (w + d / 2) / n
    s_c = min(max(s, 0.5 / n), 1 - 0.5 / n)
    elo = -400 * math.log10(1 / s_c - 1)
    var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s**2) / n
    se_s = math.sqrt(max(var, 1e-9) / n)
    return s, elo, 400 / math.log(10) * se_s / (s_c * (1 - s_c))


def wfit(points):
    """Weighted least squares of y on x for (x, y, error) points: (a, b) of a + b x."""
    ws = [1 / e**2 for _, _, e in points]
    sw = sum(ws)
    mx = sum(w * x for w, (x, _, _) in zip(ws, points)) / sw
    my = sum(w * y for w, (_, y, _) in zip(ws, points)) / sw
    b = sum(w * (x - mx) * (y - my) for w, (x, y, _) in zip(ws, points)) / sum(
        w * (x - mx) ** 2 for w, (x, _, _) in zip(ws, points)
    )
    return my - b * mx, b


def cells(w, d, l, s, value, se):
    """The cells every table ends with: W/D/L, score, value with its 95% interval."""
    return f"+{w} ={d} −{l} | {s:.1%} | {value:.0f} ± {1.96 * se:.0f} |"


def read_rows(path):
    """The rows of a results file, as dicts with their W/D/L as integers."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        r["wdl"] = int(r["wins"]), int(r["draws"]), int(r["losses"])
    return rows


def fit(path, check_path, svg_path):
    rows = read_rows(path)

    print("| engine | against | W/D/L | score | rating on Stockfish's scale (95%) |")
    print("|---|---|---|---:|---:|")
    # An engine rated against several Stockfish levels gets their mean,
    # weighted by 1/error^2, as its rating.
    placements = {}
    for r in rows:
        m = re.fullmatch(r"sf(\d+)", r["opponent"])
        if not m or r["player"].startswith("n"):
            continue
        s, elo, se = elo_of(*r["wdl"])
        value = int(m.group(1)) + elo
        placements.setdefault(r["player"], []).append((value, se))
        print(f"| {r['player']} | Stockfish UCI_Elo {m.group(1)} | {cells(*r['wdl'], s, value, se)}")
    rating = {}
    for eng, ps in placements.items():
        ws = [1 / se**2 for _, se in ps]
        rating[eng] = (sum(w * v for w, (v, _) in zip(ws, ps)) / sum(ws), sum(ws) ** -0.5)

    points = ours_table(rows, rating, path)

    if len(points) < 2:
        sys.exit("fewer than two budgets: nothing to fit")
    a, b = wfit(points)
    at_2000 = 2 ** (REFERENCE_LOG2 + (2000 - a) / b)
    print(f"\nfit ({len(points)} points): measured = {a:.0f} + {b:.0f}·log2(nodes / 8192); "
          f"ELO_AT_REFERENCE = {a:.0f}, ELO_PER_DOUBLING = {b:.0f}; "
          f"UCI_Elo 2000 plays with {at_2000:.0f} nodes a move")
    checked = []
    if check_path:
        print("\nCheck (games the fit did not see):")
        checked = ours_table(read_rows(check_path), rating, check_path)
    if svg_path:
        with open(svg_path, "w") as f:
            f.write(svg(points, checked, a, b))


def ours_table(rows, rating, path):
    """Prints our budgets' results as a table and returns them as fit points
    (log2(nodes) - REFERENCE_LOG2, measured Elo, its standard error)."""
    print("\n| nodes a move | opponent (its rating) | W/D/L | score | measured (95%) |")
    print("|---:|---|---|---:|---:|")
    points = []
    ours = sorted((r for r in rows if re.fullmatch(r"n\d+", r["player"])),
                  key=lambda r: (int(r["player"][1:]), r["opponent"]))
    for r in ours:
        nodes, opp = int(r["player"][1:]), r["opponent"]
        m = re.fullmatch(r"sf(\d+)", opp)
        if m:
            r_opp, rse, name = int(m.group(1)), 0.0, f"Stockfish UCI_Elo {m.group(1)}"
        elif opp in rating:
            (r_opp, rse), name = rating[opp], f"{opp} ({rating[opp][0]:.0f})"
        else:
            sys.exit(f"{path}: {opp} has no rating (no row against sf<Y>)")
        s, elo, se = elo_of(*r["wdl"])
        err = math.hypot(se, rse)
        points.append((math.log2(nodes) - REFERENCE_LOG2, r_opp + elo, err))
        print(f"| {nodes} | {name} | {cells(*r['wdl'], s, r_opp + elo, err)}")
    return points


def svg(points, checked, a, b):
    """Measured Elo against the node budget (log scale): the fitted points and the
    check's, with their 95% bars, and the fitted line, as a small self-contained SVG."""
    x_lo, x_hi = 9, 18  # log2 nodes: 512 .. 262144
    y_lo, y_hi = 1400, 3000
    w, h, m = 640, 480, 60

    def px(x):
        return m + (x - x_lo) / (x_hi - x_lo) * (w - 2 * m)

    def py(y):
        return h - m - (y - y_lo) / (y_hi - y_lo) * (h - 2 * m)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>']
    for x in range(x_lo, x_hi + 1):
        out.append(f'<line x1="{px(x):.1f}" y1="{py(y_lo):.1f}" x2="{px(x):.1f}" y2="{py(y_hi):.1f}" stroke="#eee"/>')
        label = f"{2 ** x // 1024}k" if x >= 10 else f"{2 ** x}"
        out.append(f'<text x="{px(x):.1f}" y="{h - m + 16}" text-anchor="middle">{label}</text>')
    for y in range(y_lo, y_hi + 1, 200):
        out.append(f'<line x1="{px(x_lo):.1f}" y1="{py(y):.1f}" x2="{px(x_hi):.1f}" y2="{py(y):.1f}" stroke="#eee"/>')
        out.append(f'<text x="{m - 6}" y="{py(y) + 4:.1f}" text-anchor="end">{y}</text>')
    out.append(f'<text x="{w / 2}" y="{h - 16}" text-anchor="middle">node budget a move (log scale)</text>')
    out.append(f'<text x="16" y="{h / 2}" text-anchor="middle" transform="rotate(-90 16 {h / 2})">measured Elo (Stockfish 15.1 UCI_Elo scale)</text>')
    out.append(f'<clipPath id="area"><rect x="{px(x_lo):.1f}" y="{py(y_hi):.1f}" width="{px(x_hi) - px(x_lo):.1f}" height="{py(y_lo) - py(y_hi):.1f}"/></clipPath>')
    out.append('<g clip-path="url(#area)">')
    ys = [a + b * (x - REFERENCE_LOG2) for x in (x_lo, x_hi)]
    out.append(f'<line x1="{px(x_lo):.1f}" y1="{py(ys[0]):.1f}" x2="{px(x_hi):.1f}" y2="{py(ys[1]):.1f}" stroke="#333" stroke-width="1.5"/>')
    for pts, colour in ((points, "#c0392b"), (checked, "#2e86c1")):
        for x, y, e in pts:
            x += REFERENCE_LOG2
            out.append(f'<line x1="{px(x):.1f}" y1="{py(y - 1.96 * e):.1f}" x2="{px(x):.1f}" y2="{py(y + 1.96 * e):.1f}" stroke="{colour}"/>')
            out.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="4" fill="{colour}"/>')
    out.append("</g>")
    legend = [("fitted games, with the 95% interval", "#c0392b"),
              ("check: games the fit did not see", "#2e86c1"),
              (f"fit: {a:.0f} + {b:.0f}·log2(nodes / 8192)", "#333")]
    for i, (text, colour) in enumerate(legend):
        y = m + 10 + 18 * i
        out.append(f'<rect x="{m + 10}" y="{y - 9}" width="10" height="10" fill="{colour}"/>')
        out.append(f'<text x="{m + 26}" y="{y}">{text}</text>')
    out.append("</svg>\n")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("tally", help="CSV rows from match logs")
    t.add_argument("logs", nargs="+")
    f = sub.add_parser("fit", help="rate the engines and fit the map")
    f.add_argument("results")
    f.add_argument("--check", help="rows (same format) the fit leaves out, rated as a check")
    f.add_argument("--svg", help="draw the points and the fit into this SVG file")
    args = ap.parse_args()
    if args.cmd == "tally":
        tally(args.logs)
    else:
        fit(args.results, args.check, args.svg)


if __name__ == "__main__":
    main()
