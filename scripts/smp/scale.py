#!/usr/bin/env python3
"""How Lazy SMP scales on this computer, in about ten minutes: time to depth on the
bench positions at 1, 2, 4, ... threads (up to the core count, or --threads), several
rounds with the order of the thread counts alternating, then a short match of N threads
against 1 thread at 10+0.1 with `fianchetto match`, as many games at a time as the cores
hold (N + 1 threads a game).

    python3 scripts/smp/scale.py target/release/fianchetto
    python3 scripts/smp/scale.py BIN [--threads 1,2,4,8,16] [--depth 18] [--hash 256]
                                     [--rounds 3] [--match-threads 4] [--minutes 10]

For each thread count it prints the median time to the depth and its speed-up over one
thread, the nodes all threads searched (mean over the rounds), the node overhead (those
nodes over one thread's: the work the helpers duplicate) and the nodes per second per
thread (which falls when threads outnumber the cores or wait on each other). The node
overhead does not depend on the computer's speed, so a machine with fewer cores than
threads still measures it. The match's last line is its Elo for N threads with its 95 %
interval. Stop other jobs first: time to depth on a loaded computer measures the load.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ttd import bench  # noqa: E402  (the one bench runner of scripts/smp)

HERE = os.path.dirname(os.path.abspath(__file__))
OPENINGS = os.path.join(HERE, "..", "openings", "balanced-6000.epd")


def game_seconds(tc):
    """About how long a game at `tc` (`base+increment`) lasts: both clocks, some 60 moves
    each, less what adjudication saves (25 s at 10+0.1)."""
    base, _, inc = tc.partition("+")
    return 0.8 * 2 * (float(base) + 60 * float(inc or 0))


def powers_of_two(limit):
    """1, 2, 4, ... up to `limit`."""
    out, t = [], 1
    while t <= limit:
        out.append(t)
        t *= 2
    return out


def time_to_depth(args, threads):
    """Rounds of bench at each thread count: {threads: [(seconds, nodes)]}."""
    runs = {t: [] for t in threads}
    for r in range(1, args.rounds + 1):
        order = threads if r % 2 else list(reversed(threads))
        row = []
        for t in order:
            seconds, nodes = bench(args.binary, args.depth, args.hash, t, [])
            runs[t].append((seconds, nodes))
            row.append(f"{t}T {seconds:.2f} s")
        print(f"round {r}: " + " | ".join(row), flush=True)
    return runs


def report(runs):
    one_time = statistics.median(s for s, _ in runs[1])
    one_nodes = statistics.mean(n for _, n in runs[1])
    print(f"{'threads':>7} {'median time':>12} {'speed-up':>9} {'nodes':>10} "
          f"{'node overhead':>14} {'M nodes/s/thread':>17}")
    for t, rs in runs.items():
        seconds = statistics.median(s for s, _ in rs)
        nodes = statistics.mean(n for _, n in rs)
        nps = statistics.mean(n / s for s, n in rs) / t
        print(f"{t:>7} {seconds:>10.2f} s {one_time / seconds:>8.2f}x {nodes / 1e6:>8.2f} M "
              f"{nodes / one_nodes:>13.2f}x {nps / 1e6:>17.2f}")


def match(args, cores, seconds_left):
    n = args.match_threads
    concurrency = max(1, cores // (n + 1))
    games = max(2, int(seconds_left / game_seconds(args.tc)) * concurrency // 2 * 2)
    print(f"\nmatch: {n} threads against 1 at {args.tc}, {games} games, {concurrency} at a time",
          flush=True)
    cmd = [args.binary, "match", "--a", args.binary, "--b", args.binary,
           "--a-opt", f"Threads={n}", "--a-opt", "Hash=64", "--b-opt", "Hash=64",
           "--tc", args.tc, "--games", str(games), "--concurrency", str(concurrency),
           "--openings", args.openings, "--quiet"]
    out = subprocess.run(cmd, capture_output=True, text=True)
    print(out.stdout.strip() or out.stderr.strip())
    if out.returncode != 0:
        raise SystemExit(f"match failed ({out.returncode}): {out.stderr.strip()[-2000:]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary")
    cores = os.cpu_count() or 1
    ap.add_argument("--threads", default=",".join(map(str, powers_of_two(min(cores, 16)))),
                    help="thread counts to time, 1 first (default: 1, 2, 4, ... up to the cores, at most 16)")
    ap.add_argument("--depth", type=int, default=18)
    ap.add_argument("--hash", type=int, default=256)
    ap.add_argument("--rounds", type=int, default=3)
    default_n = max(2, powers_of_two(max(1, cores // 4))[-1])
    ap.add_argument("--match-threads", type=int, default=default_n,
                    help=f"threads of the match's first engine (default here: {default_n})")
    ap.add_argument("--tc", default="10+0.1")
    ap.add_argument("--openings", default=OPENINGS)
    ap.add_argument("--minutes", type=float, default=10, help="the whole run's budget")
    ap.add_argument("--no-match", action="store_true", help="time to depth only")
    args = ap.parse_args()
    threads = sorted({int(t) for t in args.threads.split(",")} | {1})
    start = time.monotonic()
    print(f"{cores} cores; bench --depth {args.depth} --hash {args.hash}, {args.rounds} rounds, "
          f"threads {', '.join(map(str, threads))}", flush=True)
    report(time_to_depth(args, threads))
    if not args.no_match:
        left = args.minutes * 60 - (time.monotonic() - start)
        match(args, cores, max(left, 2 * game_seconds(args.tc)))


if __name__ == "__main__":
    main()
