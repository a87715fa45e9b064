#!/usr/bin/env python3
"""Continue a fixed-node SPRT that stopped undecided at its cap, on games it has not played.

At a fixed node count the engine is deterministic, so playing an opening again replays the
same games. `match.py` plays opening k of its book (shuffled by --seed) in games 2k and
2k + 1; a run of N games has used the first N / 2 openings of that order.

  continue.py rest BOOK SEED GAMES OUT
      write to OUT the openings of BOOK that a `match.py --seed SEED` run of GAMES games
      did not reach; give OUT as --openings to the continuation.
  continue.py sum LOG[:N] [LOG[:N] ...] [--sprt E0,E1] [--watch PATTERN]
      sum the counts of the logs' last game lines (LOG:N: of game N, to leave out the
      games after it, such as an unfinished pair and a "crash" written when a session's
      end killed the match), print Elo and the LLR; with --watch, repeat every minute and
      stop the processes matching PATTERN (`pkill -f`) once the summed LLR reaches a bound.
      --prior W,D,L adds the counts of earlier runs whose logs are gone (a new machine
      keeps no data/), as docs/search.md recorded them.

The Elo and the LLR are match.py's own `elo` and `sprt_llr` (../shared/tools/match.py, or --match PATH).
"""
import argparse
import math
import os
import random
import re
import subprocess
import sys
import time
from importlib.machinery import SourceFileLoader

HERE = os.path.dirname(os.path.abspath(__file__))
MATCH = os.path.join(HERE, "..", "..", "..", "shared", "tools", "match.py")
COUNTS = re.compile(r"^game\s+(\d+):.*A: \+(\d+) =(\d+) -(\d+)")
BOUND = math.log(0.95 / 0.05)


def book_order(book, seed):
    """The openings of `book` in the order `match.py --seed seed` plays them."""
    fens = [l.split(" bm ")[0].strip() for l in open(book) if l.strip()]
    fens = [f if len(f.split()) >= 6 else f + " 0 1" for f in fens]
    random.Random(seed).shuffle(fens)
    return fens


def last_counts(spec):
    """W, D, L of the last game line of `spec`, a log or LOG:N for its game N at most
    (0, 0, 0 before the first game). A log that never reached game N is an error, not
    a smaller count."""
    log, upto = spec, None
    head, _, tail = spec.rpartition(":")
    if head and tail.isdigit():
        log, upto = head, int(tail)
    counts, reached = (0, 0, 0), 0
    with open(log, errors="replace") as f:
        for line in f:
            m = COUNTS.match(line)
            if m:
                game = int(m.group(1))
                if upto is not None and game > upto:
                    break
                counts, reached = tuple(int(x) for x in m.groups()[1:]), game
    if upto is not None and reached < upto:
        sys.exit(f"continue.py: {log} ends at game {reached}, before game {upto} of {spec}")
    return counts


def report(logs, sprt, match, prior=(0, 0, 0)):
    """Print the logs' summed counts (and `prior`'s) with match.py's Elo and LLR; return
    the LLR."""
    w, d, l = (sum(c) for c in zip(prior, *(last_counts(log) for log in logs)))
    n = w + d + l
    s = (w + d / 2) / max(n, 1)
    se = math.sqrt((w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s ** 2) / max(n, 1) / max(n, 1))
    elo = match.elo
    llr = match.sprt_llr(w, d, l, *sprt)
    print(f"{time.strftime('%H:%M', time.gmtime())} +{w} ={d} -{l} ({n} games) "
          f"Elo {elo(s):+.1f} [{elo(s - 1.96 * se):+.1f}, {elo(s + 1.96 * se):+.1f}] "
          f"LLR {llr:.2f} for [{sprt[0]:g}, {sprt[1]:g}]", flush=True)
    return llr


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    rest = sub.add_parser("rest")
    rest.add_argument("book")
    rest.add_argument("seed", type=int)
    rest.add_argument("games", type=int)
    rest.add_argument("out")
    total = sub.add_parser("sum")
    total.add_argument("logs", nargs="+")
    total.add_argument("--sprt", default="-5,0")
    total.add_argument("--watch", metavar="PATTERN")
    total.add_argument("--match", default=MATCH)
    total.add_argument("--prior", default="0,0,0", metavar="W,D,L")
    args = ap.parse_args()

    if args.cmd == "rest":
        used = (args.games + 1) // 2
        left = book_order(args.book, args.seed)[used:]
        if not left:
            sys.exit(f"every opening of {args.book} was reached by {args.games} games")
        with open(args.out, "w") as f:
            f.write("\n".join(left) + "\n")
        print(f"{len(left)} openings not reached by {args.games} games with --seed {args.seed}: {args.out}")
        return

    match = SourceFileLoader("match", args.match).load_module()
    sprt = tuple(float(x) for x in args.sprt.split(","))
    try:
        prior = tuple(int(x) for x in args.prior.split(","))
    except ValueError:
        prior = ()
    if len(prior) != 3 or min(prior) < 0:
        sys.exit(f"continue.py: --prior wants three counts W,D,L, not {args.prior}")
    while True:
        llr = report(args.logs, sprt, match, prior)
        if not args.watch:
            return
        if abs(llr) >= BOUND:
            print("bound reached: stopping the match", flush=True)
            subprocess.run(["pkill", "-f", args.watch])
            return
        time.sleep(60)


if __name__ == "__main__":
    main()
