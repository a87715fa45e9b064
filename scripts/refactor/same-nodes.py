#!/usr/bin/env python3
"""Check that two builds search identically: for every search switch, flipped from its
default one at a time, both builds search the same positions to the same depth and must
report the same node counts (a refactor that removes dead code keeps every count).

  same-nodes.py OLD_BINARY NEW_BINARY [--depth 8] [--skip name,name]

Switches the new build no longer has are reported and skipped. Uses the engines' `uci`
option list (`type check` options other than the engine's own) and `go depth`.
"""
import argparse
import subprocess
import sys

FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "8/2k5/3p4/p2P1p2/P2P1P2/8/8/4K3 w - - 0 1",
]
ENGINE_CHECKS = {"Ponder", "UCI_Chess960", "UCI_LimitStrength", "UCI_ShowWDL", "OwnBook", "BookBestMove", "Syzygy50MoveRule"}


class Engine:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, word):
        lines = []
        for line in self.p.stdout:
            lines.append(line.rstrip("\n"))
            if line.split()[:1] == [word]:
                return lines
        raise RuntimeError("engine closed its output")

    def checks(self):
        self.send("uci")
        out = {}
        for line in self.until("uciok"):
            t = line.split()
            if t[:2] == ["option", "name"] and "type" in t:
                name = " ".join(t[2:t.index("type")])
                if t[t.index("type") + 1] == "check" and name not in ENGINE_CHECKS:
                    out[name] = t[t.index("default") + 1] == "true"
        return out

    def nodes(self, options, depth):
        counts = []
        for fen in FENS:
            self.send("ucinewgame")
            for name, value in options.items():
                self.send(f"setoption name {name} value {'true' if value else 'false'}")
            self.send(f"position fen {fen}")
            self.send(f"go depth {depth}")
            n = 0
            for line in self.until("bestmove"):
                t = line.split()
                if "nodes" in t:
                    n = int(t[t.index("nodes") + 1])
            counts.append(n)
        return counts

    def close(self):
        self.send("quit")
        self.p.wait()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--skip", default="")
    a = ap.parse_args()
    old, new = Engine(a.old), Engine(a.new)
    oc, nc = old.checks(), new.checks()
    skip = set(filter(None, a.skip.split(",")))
    for name in sorted(set(oc) - set(nc)):
        print(f"gone from the new build: {name}")
    bad = 0
    runs = [("defaults", {})] + [
        (f"{n}={'false' if nc[n] else 'true'}", {n: not nc[n]}) for n in nc if n in oc and n not in skip
    ]
    for label, opts in runs:
        # Reset every switch to its default before flipping one.
        base = {n: nc[n] for n in nc if n in oc}
        base.update(opts)
        a_n, b_n = old.nodes(base, a.depth), new.nodes(base, a.depth)
        same = a_n == b_n
        bad += not same
        print(f"{'same' if same else 'DIFFERENT'}  {label}: {a_n}" + ("" if same else f" vs {b_n}"), flush=True)
    old.close()
    new.close()
    print(f"{len(runs)} settings, {bad} different")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
