#!/usr/bin/env python3
"""Runs a UCI engine that believes it has a fraction of its clock.

    time-odds.py FRACTION ENGINE [ARGS...]

Every `go` command's wtime, btime, winc and binc are multiplied by FRACTION
before the engine sees them; everything else passes through unchanged. On a
real 20+0.2 clock it plays an engine that budgets 10+0.1 against one that
budgets 20+0.2 (so the slower side never forfeits): the Elo of doubling the
time, which bounds what a second thread can gain (docs/search.md, "Lazy SMP"):

    B=target/release/fianchetto
    $B match --a $B --b "python3 scripts/smp/time-odds.py 0.5 $B" --tc 20+0.2 \
        --games 200 --concurrency 2 --openings scripts/openings/balanced-6000.epd
"""
import subprocess
import sys
import threading

SCALED = {"wtime", "btime", "winc", "binc"}


def scale(line, fraction):
    words = line.split()
    if not words or words[0] != "go":
        return line
    out = []
    for i, w in enumerate(words):
        if i > 0 and words[i - 1] in SCALED and w.lstrip("-").isdigit():
            w = str(int(int(w) * fraction))
        out.append(w)
    return " ".join(out) + "\n"


def main():
    if len(sys.argv) < 3 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        sys.exit(0 if len(sys.argv) > 1 else 2)
    if len(sys.argv) < 3:
        sys.exit("usage: time-odds.py FRACTION ENGINE [ARGS...]")
    fraction = float(sys.argv[1])
    engine = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=sys.stdout, text=True, bufsize=1)

    def pump():
        for line in sys.stdin:
            engine.stdin.write(scale(line, fraction))
            engine.stdin.flush()
        engine.stdin.close()

    threading.Thread(target=pump, daemon=True).start()
    sys.exit(engine.wait())


if __name__ == "__main__":
    main()
