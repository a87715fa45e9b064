#!/usr/bin/env python3
"""Check that two builds search identically: `fianchetto bench` (its fixed positions, the
table cleared before each) on both builds, with the defaults and with every search switch
flipped from its default one at a time, must report the same node counts (a refactor that
removes dead code keeps every count).

  same-nodes.py OLD_BINARY NEW_BINARY [--depth 12] [--skip name,name] [--alias new=old,old]

The switches and their defaults are read from each build's `bench --help`, whose
`--disable` list is generated from the search's switch registry (a name per line, `(off)`
after those off by default); those the old build lacks are skipped, and those the new
build no longer has are listed.

A switch that absorbed others (a refinement folded into the feature it refines) is
checked with `--alias corrhist=corrhist-pieces,corrhist-cont` (repeatable): flipping
`corrhist` in the new build must give the nodes of flipping `corrhist`, `corrhist-pieces`
and `corrhist-cont` together in the old one. A switch the old build lacks (an umbrella
over several old switches: `--alias history-extras=threat-history,pawn-history,…`) is
checked against flipping its aliases alone.
"""
import argparse
import re
import subprocess
import sys


def switches(binary):
    """The search switches of `binary` and whether each is on by default, from the
    `--disable` list of its `bench --help`."""
    help_text = subprocess.run([binary, "bench", "--help"], capture_output=True, text=True,
                               check=True).stdout
    listing = help_text.split("--disable <DISABLE>", 1)[-1].split("\n      --", 1)[0]
    found = {m.group(1): m.group(2) is None
             for m in re.finditer(r"^ {10}([a-z0-9-]+): .*?( \(off\))?$", listing, re.M)}
    if not found:
        raise SystemExit(f"no switch list in {binary} bench --help")
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
    ap.add_argument("--alias", action="append", default=[],
                    help="new=old1,old2: flipping `new` in the new build flips these too in the old")
    a = ap.parse_args()
    alias = {}
    for spec in a.alias:
        name, _, olds = spec.partition("=")
        alias[name] = [o for o in olds.split(",") if o]
    old, new = switches(a.old), switches(a.new)
    for name in sorted(set(old) - set(new)):
        print(f"gone from the new build: {name}")
    skip = set(filter(None, a.skip.split(",")))
    for name in sorted(set(alias) - set(new)):
        raise SystemExit(f"--alias {name}: no such switch in the new build")
    for name in sorted(set(new) - set(old) - set(alias)):
        print(f"new in the new build, not checked (no --alias): {name}")
    # A switch new in the new build (an umbrella over several old ones) is checked
    # against its aliases alone; one the old build has, against itself and its aliases.
    runs = [("defaults", [], [])] + [
        (f"{n}={'false' if on else 'true'}"
         + (f" (old: {'also ' if n in old else ''}{','.join(alias[n])})" if n in alias else ""),
         ["--disable" if on else "--enable", ",".join(([n] if n in old else []) + alias.get(n, []))],
         ["--disable" if on else "--enable", n])
        for n, on in new.items() if (n in old or n in alias) and n not in skip
    ]
    different = 0
    for label, old_extra, new_extra in runs:
        a_n, b_n = bench_nodes(a.old, a.depth, old_extra), bench_nodes(a.new, a.depth, new_extra)
        different += a_n != b_n
        print(f"{'same' if a_n == b_n else 'DIFFERENT'}  {label}: {a_n}"
              + ("" if a_n == b_n else f" vs {b_n}"), flush=True)
    print(f"{len(runs)} settings, {different} different")
    sys.exit(1 if different else 0)


if __name__ == "__main__":
    main()
