#!/usr/bin/env python3
"""Writes a book of balanced openings for fixed-node matches.

    python3 scripts/openings/make.py ENGINE OUT.epd [--count 6000] [--plies 8] [--seed 1]

Why: at a fixed node count our engine is deterministic, and match.py plays
opening k of its book for games 2k and 2k + 1 (colours swapped), cycling the
book once the games outnumber it. With the 300 openings of
../shared/data/openings.epd, game i + 600 repeats game i move for move, so a
3 000-game match holds 600 distinct games counted five times each. A book
with at least half as many openings as games avoids that.

Each opening is `--plies` uniformly random legal moves from the start
position (python-chess, seeded), kept when ENGINE's search of `--nodes`
nodes scores it within `--margin` centipawns of equality and no opening
already kept has the same position. The engine's scores make the book depend
on its build: the file is committed, this script records how it was made.
"""
import argparse
import random
import sys

import chess
import chess.engine


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engine")
    ap.add_argument("out")
    ap.add_argument("--count", type=int, default=6000)
    ap.add_argument("--plies", type=int, default=8)
    ap.add_argument("--nodes", type=int, default=2000)
    ap.add_argument("--margin", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    rng = random.Random(args.seed)
    seen = set()
    tried = 0
    with chess.engine.SimpleEngine.popen_uci(args.engine) as engine, open(args.out, "w") as out:
        while len(seen) < args.count:
            tried += 1
            board = chess.Board()
            for _ in range(args.plies):
                moves = list(board.legal_moves)
                if not moves:
                    break
                board.push(rng.choice(moves))
            if board.is_game_over():
                continue
            key = board.epd()
            if key in seen:
                continue
            info = engine.analyse(board, chess.engine.Limit(nodes=args.nodes))
            score = info["score"].white()
            if score.is_mate() or abs(score.score()) > args.margin:
                continue
            seen.add(key)
            out.write(key + "\n")
            if len(seen) % 500 == 0:
                print(f"{len(seen)} openings kept of {tried} tried", file=sys.stderr, flush=True)
    print(f"{len(seen)} openings kept of {tried} tried", file=sys.stderr)


if __name__ == "__main__":
    main()
