#!/usr/bin/env python3
"""Check that two builds search identically: `fianchetto bench` (its fixed positions, the
table cleared before each) on both builds, with the defaults and with every search switch
flipped from its default one at a time, must report the same node counts (a refactor that
removes dead code keeps every count).

  same-nodes.py OLD_BINARY NEW_BINARY [--depth 12] [--skip name,name]

The switches and their defaults are read from the new build's `uci` option list (its
`type check` options other than the engine's own); those the old build lacks are skipped,
and those the new build no longer has are listed.
"""
import argparse
import re
import subprocess
import sys

ENGINE_CHECKS = {"Ponder", "UCI_Chess960", "UCI_LimitStrength", "UCI_ShowWDL", "OwnBook",
                 "BookBestMove", "Syzygy50MoveRule"}


def switches(binary):
    """The search switches of `binary` and their defaults, from its `uci` option list."""
    out = subprocess.run([binary], input="uci\nquit\n", capture_output=True, text=True,
                         check=True).stdout
    found = {}
    for m in re.finditer(r"^option name (\S+) type check default (true|false)$", out, re.M):
        if m.group(1) not in ENGINE_CHECKS:
            found[m.group(1)] = m.group(2) == "true"
    return found


def bench_nodes(binary, depth, extra):
    """The node count of one `bench` run (its last line: `N nodes … nps`)."""
    lines = subprocess.run([binary, "bench", "--depth", str(depth)] + extra,
                           capture_output=True, text=True, check=True).stdout.splitlines()
    m = re.match(r"(\d+) nodes", lines[-1]) if lines else None
    if not m:
        raise SystemExit(f"no node count in {binary} bench's output:\n" + "\n".join(lines))
    return int(m.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--skip", default="")
    a = ap.parse_args()
    old, new = switches(a.old), switches(a.new)
    for name in sorted(set(old) - set(new)):
        print(f"gone from the new build: {name}")
    skip = set(filter(None, a.skip.split(",")))
    runs = [("defaults", [])] + [
        (f"{n}={'false' if on else 'true'}", ["--disable" if on else "--enable", n])
        for n, on in new.items() if n in old and n not in skip
    ]
    different = 0
    for label, extra in runs:
        a_n, b_n = bench_nodes(a.old, a.depth, extra), bench_nodes(a.new, a.depth, extra)
        different += a_n != b_n
        print(f"{'same' if a_n == b_n else 'DIFFERENT'}  {label}: {a_n}"
              + ("" if a_n == b_n else f" vs {b_n}"), flush=True)
    print(f"{len(runs)} settings, {different} different")
    sys.exit(1 if different else 0)


if __name__ == "__main__":
    main()
