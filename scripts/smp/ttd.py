#!/usr/bin/env python3
"""Time to depth of Lazy SMP: `fianchetto bench` with 1 thread, 2 threads, and 2
threads under each extra set of switches, alternating round by round so that a
drift of the computer's speed hits every setting alike.

    scripts/smp/ttd.py BIN [--depth 17] [--rounds 10] [--hash 64] [--variant "--enable NAME"] ...

Prints every round, then per setting the mean and median time and the speed-up
over one thread, and the mean of all threads' nodes to reach the depth. The
node counts do not depend on the computer's speed: where that varies, one thread's nodes over the setting's nodes per thread
(`node speed-up`) says what the helpers' duplicated work costs, on the
assumption that two threads search twice as many nodes a second as one.
Stop other jobs first: time to depth on a loaded computer measures the load.
"""
import argparse
import re
import statistics
import subprocess


def bench(binary, depth, hash_mb, threads, extra):
    """One bench run: (seconds, nodes of all threads)."""
    lines = subprocess.run(
        [binary, "bench", "--depth", str(depth), "--hash", str(hash_mb), "--threads", str(threads)] + extra,
        capture_output=True, text=True, check=True,
    ).stdout.splitlines()
    time = re.search(r"([0-9.]+) s\s*$", lines[-2]) if len(lines) >= 2 else None
    nodes = re.match(r"(\d+) nodes", lines[-1]) if lines else None
    if not time or not nodes:
        raise SystemExit("no time or node count in bench's output:\n" + "\n".join(lines))
    return float(time.group(1)), int(nodes.group(1))


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
    nodes = {name: [] for name, _, _ in settings}
    for r in range(1, args.rounds + 1):
        row = []
        for name, threads, extra in settings:
            t, n = bench(args.binary, args.depth, args.hash, threads, extra)
            times[name].append(t)
            nodes[name].append(n)
            row.append(f"{name} {t:.3f} s {n / 1e6:.2f} M")
        print(f"round {r}: " + " | ".join(row), flush=True)
    one_t = times["1 thread"]
    one_n = statistics.mean(nodes["1 thread"])
    for name, threads, _ in settings:
        t = times[name]
        n = statistics.mean(nodes[name])
        print(f"{name:40} mean {statistics.mean(t):.3f} s  median {statistics.median(t):.3f} s  "
              f"range {min(t):.3f}-{max(t):.3f}  speed-up {statistics.mean(one_t) / statistics.mean(t):.2f}x "
              f"(medians {statistics.median(one_t) / statistics.median(t):.2f}x)  "
              f"nodes {n / 1e6:.3f} M, node speed-up {one_n * threads / n:.2f}x")


if __name__ == "__main__":
    main()
