#!/usr/bin/env python3
"""The fianchetto Python package against python-chess, on this machine.

Measures, each on the same input for both:

- PGN reading: every game of a PGN file read into a game object, its headers
  and main-line moves taken (games/s and MB/s);
- legal move generation (moves/s) and perft (nodes/s) from Python;
- SAN: every legal move of a set of positions written in SAN and read back
  (moves/s);
- analysis at a fixed node count: fianchetto.Engine in-process against
  python-chess driving the engine binary over UCI (same hash, one thread).

Rates are per CPU-second of the Python process (time.process_time: every
thread of the process), the best of three runs each, so that other work on a
shared machine skews them little; the analysis, whose UCI side runs in
another process, is timed on the wall clock, best of three rounds that
alternate between the two.

Prints a Markdown table (the one docs/python.md shows). Run it from the
repository root in an environment with fianchetto and chess installed:

    cargo build --release            # the engine binary, for the UCI side
    cargo run --release --example pgn_stats -- target/python-bench/random-20000.pgn --generate 20000
    python scripts/python-bench/bench.py --pgn target/python-bench/random-20000.pgn

`--quick` uses smaller inputs (a check that the script runs).
"""

import argparse
import os
import pathlib
import random
import sys
import time

import chess
import chess.engine
import chess.pgn

import fianchetto

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = ROOT / "crates" / "movegen" / "tests" / "data"


def timed(f):
    """(result, CPU seconds) of f(): the time the process spent running,
    all its threads together (the PGN reader's thread included), so that
    other work on the machine does not count."""
    start = time.process_time()
    out = f()
    return out, time.process_time() - start


def best(f, rounds):
    """(result, CPU seconds) of the fastest of `rounds` runs of f()."""
    runs = [timed(f) for _ in range(rounds)]
    return min(runs, key=lambda r: r[1])


def wall(f):
    """(result, wall-clock seconds) of f()."""
    start = time.perf_counter()
    out = f()
    return out, time.perf_counter() - start


def positions():
    """The FENs of the project's perft files (standard and random)."""
    out = []
    for name in ["perft-standard.epd", "perft-random.epd"]:
        for line in (DATA / name).read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                out.append(line.split(";")[0].strip())
    return out


def chess_perft(board, depth):
    """python-chess perft, bulk counting at the last ply (its fastest form)."""
    if depth == 1:
        return board.legal_moves.count()
    n = 0
    for m in board.legal_moves:
        board.push(m)
        n += chess_perft(board, depth - 1)
        board.pop()
    return n


def bench_pgn(path, limit, rounds):
    """Games/s of both readers over the file (python-chess over its first
    `limit` games when given), the best of `rounds` passes each."""
    size = os.path.getsize(path)

    def ours():
        n = 0
        for g in fianchetto.pgn.read(path):
            if g.error is None:
                g.headers
                g.moves
            n += 1
        return n

    def theirs():
        n = 0
        with open(path, encoding="utf-8") as f:
            while limit is None or n < limit:
                g = chess.pgn.read_game(f)
                if g is None:
                    break
                g.headers
                [m.uci() for m in g.mainline_moves()]
                n += 1
            read = f.tell() if limit is not None else size
        return n, read

    n_ours, t_ours = best(ours, rounds)
    (n_theirs, read), t_theirs = best(theirs, rounds)
    return {
        "ours": n_ours / t_ours,
        "theirs": n_theirs / t_theirs,
        "ours_mb": size / t_ours / 1e6,
        "theirs_mb": read / t_theirs / 1e6,
        "games": n_ours,
        "theirs_games": n_theirs,
        "mb": size / 1e6,
    }


def bench_legal(fens, rounds):
    ours_boards = [fianchetto.Board(f) for f in fens]
    theirs_boards = [chess.Board(f) for f in fens]

    def ours():
        n = 0
        for _ in range(rounds):
            for b in ours_boards:
                n += len(b.legal_moves)
        return n

    def theirs():
        n = 0
        for _ in range(rounds):
            for b in theirs_boards:
                n += len(list(b.legal_moves))
        return n

    n1, t1 = best(ours, 3)
    n2, t2 = best(theirs, 3)
    assert n1 == n2
    return n1 / t1, n2 / t2


def bench_perft(fens, depth_ours, depth_theirs):
    def ours():
        return sum(fianchetto.Board(f).perft(depth_ours) for f in fens)

    def theirs():
        return sum(chess_perft(chess.Board(f), depth_theirs) for f in fens)

    n1, t1 = best(ours, 3)
    n2, t2 = best(theirs, 3)
    return n1 / t1, n2 / t2


def random_positions(n, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        b = chess.Board()
        for _ in range(rng.randrange(10, 80)):
            moves = list(b.legal_moves)
            if not moves:
                break
            b.push(rng.choice(moves))
        if not b.is_game_over():
            out.append(b.fen())
    return out


def bench_san(fens):
    ours_boards = [fianchetto.Board(f) for f in fens]
    theirs_boards = [chess.Board(f) for f in fens]

    def ours():
        n = 0
        for b in ours_boards:
            for m in b.legal_moves:
                assert b.parse_san(b.san(m)) == m
                n += 1
        return n

    def theirs():
        n = 0
        for b in theirs_boards:
            for m in b.legal_moves:
                assert b.parse_san(b.san(m)) == m
                n += 1
        return n

    n1, t1 = best(ours, 3)
    n2, t2 = best(theirs, 3)
    assert n1 == n2
    return n1 / t1, n2 / t2


def bench_analysis(exe, fens, nodes, hash_mb, rounds):
    """Wall-clock seconds for analysing every position at `nodes` nodes,
    in-process and over UCI (a new game, so an empty hash table, for each
    position): the best of `rounds` rounds each."""
    engine = fianchetto.Engine(hash=hash_mb, threads=1)

    def ours():
        total = 0
        for f in fens:
            engine.clear()
            total += engine.analyse(fianchetto.Board(f), nodes=nodes)["nodes"]
        return total

    uci = chess.engine.SimpleEngine.popen_uci(str(exe))
    try:
        uci.configure({"Hash": hash_mb, "Threads": 1})
        game = [0]

        def theirs():
            total = 0
            for f in fens:
                game[0] += 1
                info = uci.analyse(chess.Board(f), chess.engine.Limit(nodes=nodes), game=game[0])
                total += info.get("nodes", 0)
            return total

        # A round each to warm up (the hash tables' first touch, caches),
        # then rounds that alternate between the two; each side's best
        # round counts (the one least disturbed by other work).
        ours()
        theirs()
        t1 = t2 = float("inf")
        for _ in range(rounds):
            n1, t = wall(ours)
            t1 = min(t1, t)
            n2, t = wall(theirs)
            t2 = min(t2, t)
    finally:
        uci.quit()
    return t1, t2, n1, n2


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pgn", required=True, help="the PGN file to read (at least 20 000 games)")
    ap.add_argument("--chess-games", type=int, default=None,
                    help="python-chess reads only this many games (default: all)")
    ap.add_argument("--exe", default=str(ROOT / "target" / "release" / "fianchetto"),
                    help="the engine binary python-chess drives over UCI")
    ap.add_argument("--nodes", type=int, default=200_000, help="nodes per analysis")
    ap.add_argument("--rounds", type=int, default=3,
                    help="passes over the PGN file by each reader (the best counts)")
    ap.add_argument("--quick", action="store_true", help="small inputs: a check that it runs")
    args = ap.parse_args()

    fens = positions()
    quick = args.quick
    rows = []

    pgn = bench_pgn(args.pgn, args.chess_games, 1 if quick else args.rounds)
    rows.append((
        f"PGN reading, {pgn['games']} games ({pgn['mb']:.1f} MB): games/s",
        pgn["ours"], pgn["theirs"],
        f" ({pgn['ours_mb']:.1f} against {pgn['theirs_mb']:.2f} MB per CPU-second)",
    ))
    legal = bench_legal(fens, 20 if quick else 400)
    rows.append(("legal moves as UCI strings: moves/s", *legal, ""))
    perft = bench_perft(fens[:6], 3 if quick else 5, 2 if quick else 3)
    rows.append(("perft (bulk counting): nodes/s", *perft, ""))
    san = bench_san(random_positions(50 if quick else 1000, 1))
    rows.append(("SAN written and read back: moves/s", *san, ""))
    nodes = 20_000 if quick else args.nodes
    analysis_fens = fens[:3] if quick else fens[:20]
    t_in, t_uci, n_in, n_uci = bench_analysis(args.exe, analysis_fens, nodes, 16, 1 if quick else 3)

    print(f"python-chess {chess.__version__}, fianchetto {fianchetto.__version__}, "
          f"Python {sys.version.split()[0]}")
    print()
    print("Rates per CPU-second of the Python process (all its threads), each the best of")
    print("its rounds; the analysis in wall-clock seconds, the best of its rounds.")
    print()
    print("| measure | fianchetto | python-chess | ratio |")
    print("|---|---:|---:|---:|")
    for name, ours, theirs, note in rows:
        print(f"| {name}{note} | {ours:,.0f} | {theirs:,.0f} | {ours / theirs:,.0f}× |")
    print(f"| analysis, {len(analysis_fens)} positions at {nodes:,} nodes: seconds "
          f"(in-process / over UCI; {n_in:,} and {n_uci:,} nodes) "
          f"| {t_in:.2f} | {t_uci:.2f} | {t_uci / t_in:.2f}× |")


if __name__ == "__main__":
    main()
