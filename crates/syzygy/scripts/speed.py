#!/usr/bin/env python3
"""Probes per second of fianchetto-syzygy against python-chess, one run.

Both probe the same positions (those of tests/reference.txt, as FENs) on
the same table files: python-chess in this process, Fianchetto through
`fianchetto syzygy --bench`. Each opens every table before timing. Prints
WDL and DTZ probes per second of both and the ratios.

    python3 crates/syzygy/scripts/speed.py --engine target/release/fianchetto \
        --tables crates/syzygy/tests/tables
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

import chess
import chess.syzygy

HERE = os.path.dirname(os.path.abspath(__file__))


def reference_fens(path):
    """The positions of reference.txt as FENs."""
    fens = []
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            pieces, side, ep = line.split()[:3]
            board = chess.Board(None)
            for i in range(0, len(pieces), 3):
                board.set_piece_at(chess.parse_square(pieces[i + 1:i + 3]), chess.Piece.from_symbol(pieces[i]))
            board.turn = side == "w"
            board.ep_square = None if ep == "-" else chess.parse_square(ep)
            fens.append(board.fen(en_passant="fen"))
    return fens


def python_rates(tables, fens, rounds):
    boards = [chess.Board(f) for f in fens]
    with chess.syzygy.open_tablebase(tables, max_fds=None) as tb:
        for b in boards:  # open every table
            tb.probe_dtz(b)
        start = time.perf_counter()
        for _ in range(rounds):
            for b in boards:
                tb.probe_wdl(b)
        wdl = rounds * len(boards) / (time.perf_counter() - start)
        start = time.perf_counter()
        for _ in range(rounds):
            for b in boards:
                tb.probe_dtz(b)
        dtz = rounds * len(boards) / (time.perf_counter() - start)
    return wdl, dtz


def fianchetto_rates(engine, tables, fen_file, rounds):
    out = subprocess.run(
        [engine, "syzygy", "--path", tables, "--bench", fen_file, "--rounds", str(rounds)],
        check=True, capture_output=True, text=True).stdout
    rates = {}
    for line in out.splitlines():
        words = line.split()
        if len(words) == 3 and words[2] == "probes/s":
            rates[words[0]] = float(words[1])
    return rates["wdl"], rates["dtz"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", required=True, help="the fianchetto binary (a release build)")
    parser.add_argument("--tables", required=True, help="directory of the tables")
    parser.add_argument("--positions", default=os.path.join(HERE, "..", "tests", "reference.txt"))
    parser.add_argument("--python-rounds", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=20, help="rounds for Fianchetto")
    args = parser.parse_args()

    fens = reference_fens(args.positions)
    with tempfile.NamedTemporaryFile("w", suffix=".fen", delete=False) as f:
        f.write("\n".join(fens) + "\n")
        fen_file = f.name
    try:
        ours = fianchetto_rates(args.engine, args.tables, fen_file, args.rounds)
        theirs = python_rates(args.tables, fens, args.python_rounds)
    finally:
        os.unlink(fen_file)
    print(f"{len(fens)} positions; python-chess {chess.__version__}, Python {sys.version.split()[0]}")
    print(f"{'':5} {'fianchetto':>12} {'python-chess':>13} {'ratio':>7}")
    for name, a, b in (("wdl", ours[0], theirs[0]), ("dtz", ours[1], theirs[1])):
        print(f"{name:5} {a:10.0f}/s {b:11.0f}/s {a / b:6.1f}x")


if __name__ == "__main__":
    main()
