#!/usr/bin/env python3
"""Time to depth of Lazy SMP: `fianchetto bench` with 1 thread, 2 threads, and 2
threads under each extra set of switches, alternating round by round so that a
drift of the machine's speed hits every setting alike.

    scripts/smp/ttd.py BIN [--depth 17] [--rounds 10] [--hash 64] [--variant "--enable smp-adopt"] ...

Prints every round, then per setting the mean and median time and the speed-up
over one thread. Stop other jobs first: time to depth on a loaded machine
measures the load.
"""
import argparse
import re
import statistics
import subprocess


def bench(binary, depth, hash_mb, threads, extra):
    out = subprocess.run(
        [binary, "bench", "--depth", str(depth), "--hash", str(hash_mb), "--threads", str(threads)] + extra,
        capture_output=True, text=True, check=True,
    ).stdout
    m = re.search(r"([0-9.]+) s\s*$", out.splitlines()[-2])
    if not m:
        raise SystemExit(f"no time in bench's output:\n{out}")
    return float(m.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary")
    ap.add_argument("--depth", type=int, default=17)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--variant", action="append", default=[],
                    help="extra bench arguments for another 2-thread setting (repeatable)")
    args = ap.parse_args()
    settings = [("1 thread", 1, []), ("2 threads", 2, [])]
    settings += [(f"2 threads {v}", 2, v.split()) for v in args.variant]
    times = {name: [] for name, _, _ in settings}
    for r in range(1, args.rounds + 1):
        row = []
        for name, threads, extra in settings:
            t = bench(args.binary, args.depth, args.hash, threads, extra)
            times[name].append(t)
            row.append(f"{name} {t:.3f} s")
        print(f"round {r}: " + " | ".join(row), flush=True)
    one = times["1 thread"]
    for name, _, _ in settings:
        t = times[name]
        print(f"{name:40} mean {statistics.mean(t):.3f} s  median {statistics.median(t):.3f} s  "
              f"range {min(t):.3f}-{max(t):.3f}  speed-up {statistics.mean(one) / statistics.mean(t):.2f}x "
              f"(medians {statistics.median(one) / statistics.median(t):.2f}x)")


if __name__ == "__main__":
    main()
