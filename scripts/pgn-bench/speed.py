#!/usr/bin/env python3
"""Reading speed of `fianchetto pgn FILE --stats` against python-chess on the
same PGN file, in one run: python-chess reads every game with
`chess.pgn.read_game` in a loop (building each game, every SAN move
resolved), then fianchetto reads the file with `pgn --stats --quiet` (every
move resolved and played, variations checked). Prints the games, plies and
MB/s of each and the ratio of the speeds. The file is read once beforehand
so that both find it in the page cache.

    python3 scripts/pgn-bench/speed.py --fianchetto target/release/fianchetto data/games.pgn
"""
import argparse, logging, os, subprocess, sys, time
try:
    import chess, chess.pgn
except ImportError as e:  # reported after --help has had its chance
    MISSING = e
else:
    MISSING = None


def python_chess(path):
    logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)
    games = plies = 0
    start = time.perf_counter()
    with open(path, encoding="utf-8", errors="replace") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            games += 1
            plies += sum(1 for _ in game.mainline_moves())
    return games, plies, time.perf_counter() - start


def fianchetto(binary, path):
    start = time.perf_counter()
    out = subprocess.run([binary, "pgn", path, "--stats", "--quiet"], check=True,
                         capture_output=True, text=True).stdout
    seconds = time.perf_counter() - start
    fields = dict(line.split(" ", 1) for line in out.splitlines() if " " in line)
    return int(fields["games"]), int(fields["plies"]), seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fianchetto", default="target/release/fianchetto")
    ap.add_argument("file")
    args = ap.parse_args()
    if MISSING is not None:
        sys.exit(f"{MISSING}: this script needs {MISSING.name} (pip install chess)")
    size = os.path.getsize(args.file)
    with open(args.file, "rb") as f:
        while f.read(1 << 20):
            pass
    results = {}
    print(f"{args.file}: {size / 1e6:.1f} MB, python-chess {chess.__version__}")
    for name, run in [("python-chess", lambda: python_chess(args.file)),
                      ("fianchetto", lambda: fianchetto(args.fianchetto, args.file))]:
        games, plies, seconds = run()
        results[name] = size / 1e6 / seconds
        print(f"{name:13} games {games} plies {plies} {seconds:.2f} s {results[name]:.2f} MB/s")
    print(f"ratio {results['fianchetto'] / results['python-chess']:.1f}x")


if __name__ == "__main__":
    main()
