#!/usr/bin/env python3
"""Two figures of `fianchetto gui` (docs/gui.md):

1. startup: the time from starting `fianchetto gui` to the first answer of
   its page (process start, network load, bind), the median of --starts runs;
2. speed: the engine inside the app against `fianchetto bench`. The app
   plays an engine move (PVS, NNUE, one thread, 16 MB table, as bench) to
   the same depth on each of bench's positions, each in a new tab (a fresh
   table, as bench clears it); the node counts must equal bench's, and the
   times are compared. Runs alternate between the two, and the best time
   of --rounds rounds of each is kept (the machine may be busy).

    python3 scripts/gui/measure.py --exe target/release/fianchetto --depth 12

Only the standard library is needed.
"""

import argparse
import json
import re
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request


def start_app(exe, stderr=None):
    """Starts `fianchetto gui` on a free port and waits for its page; returns
    the process, its address and how long that took. `stderr` is passed to
    Popen (e.g. subprocess.PIPE to read the app's messages)."""
    started = time.monotonic()
    proc = subprocess.Popen([exe, "gui", "--port", "0", "--no-open"], stdout=subprocess.PIPE,
                            stderr=stderr, text=True)
    url = re.search(r"(http://\S+/)", proc.stdout.readline()).group(1)
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as reply:
                reply.read()
                break
        except OSError:
            time.sleep(0.002)
    return proc, url, time.monotonic() - started


def call(url, path, **params):
    data = urllib.parse.urlencode(params).encode()
    try:
        with urllib.request.urlopen(url + path.lstrip("/"), data=data, timeout=600) as reply:
            return json.loads(reply.read())
    except urllib.error.HTTPError as e:
        sys.exit(f"{path} {params}: {e.code} {e.read().decode()}")


def get_state(url, session):
    query = urllib.parse.urlencode({"session": session})
    with urllib.request.urlopen(f"{url}api/state?{query}", timeout=60) as reply:
        return json.loads(reply.read())


def bench_positions(exe, depth):
    """bench's positions with its nodes and seconds for each."""
    out = subprocess.run([exe, "bench", "--depth", str(depth)], capture_output=True, text=True, check=True).stdout
    rows = []
    for line in out.splitlines():
        m = re.match(r"\s*\d+\s+(\d+) nodes\s+([\d.]+) s\s+\S+ \S+\s+\S+\s+(.+)$", line)
        if m:
            rows.append((m.group(3).strip(), int(m.group(1)), float(m.group(2))))
    return rows


def app_round(url, fens, depth):
    """(nodes, seconds) of an engine move to `depth` for each FEN."""
    rows = []
    for fen in fens:
        session = call(url, "/api/session")["session"]
        call(url, "/api/settings", session=session, engine="none", algo="pvs", eval="nnue", limit="depth", value=depth)
        call(url, "/api/new", session=session, fen=fen)
        call(url, "/api/go", session=session)
        while True:
            state = get_state(url, session)
            if not state["thinking"]:
                break
            time.sleep(0.05)
        line = state["analysis"]["lines"][0]
        rows.append((line["nodes"], line["time_ms"] / 1000))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--exe", default="target/release/fianchetto")
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--starts", type=int, default=5)
    args = ap.parse_args()

    times = []
    for _ in range(args.starts):
        proc, url, seconds = start_app(args.exe)
        times.append(seconds)
        proc.kill()
        proc.wait()
    print(f"start to first answer: median {statistics.median(times) * 1000:.0f} ms "
          f"(min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f}) over {len(times)} starts")

    proc, url, _ = start_app(args.exe)
    try:
        best_bench = best_app = None
        for r in range(args.rounds):
            bench = bench_positions(args.exe, args.depth)
            fens = [fen for fen, _, _ in bench]
            app = app_round(url, fens, args.depth)
            for (fen, bn, _), (an, _) in zip(bench, app):
                if bn != an:
                    sys.exit(f"node counts differ on {fen}: bench {bn}, app {an}")
            bench_total = (sum(n for _, n, _ in bench), sum(t for _, _, t in bench))
            app_total = (sum(n for n, _ in app), sum(t for _, t in app))
            print(f"round {r + 1}: bench {bench_total[0]} nodes {bench_total[1]:.3f} s, "
                  f"app {app_total[0]} nodes {app_total[1]:.3f} s")
            best_bench = bench_total if best_bench is None or bench_total[1] < best_bench[1] else best_bench
            best_app = app_total if best_app is None or app_total[1] < best_app[1] else best_app
        nps = lambda total: total[0] / total[1]
        print(f"depth {args.depth}, {len(fens)} positions, same {best_bench[0]} nodes: "
              f"bench {nps(best_bench):,.0f} nps, app {nps(best_app):,.0f} nps "
              f"({(nps(best_app) / nps(best_bench) - 1) * 100:+.1f}%), best of {args.rounds}")
    finally:
        proc.kill()
        proc.wait()


if __name__ == "__main__":
    main()
