#!/usr/bin/env python3
"""Reading speed of `fianchetto pgn FILE --stats` against python-chess on the
same PGN file, in one run: python-chess reads every game with
`chess.pgn.read_game` in a loop (building each game, every SAN move
resolved), then fianchetto reads the file with `pgn --stats --quiet` (every
move resolved and played, variations checked). Prints the games, plies, CPU
time and MB/s of each and the ratio of the speeds.

Both are timed by CPU time (python-chess's own process time; fianchetto's
as a child process, start-up included), so that a busy machine slows
neither more than the other. The file is read once beforehand so that both
find it in the page cache. fianchetto reads the file in a fraction of a
second, where the first run after a long pause can spend more time in the
kernel's page handling than in reading: it runs `--rounds` times and the
fastest run counts. python-chess runs `--python-rounds` times (default
once: one run takes seconds, long enough to average such noise).

    python3 scripts/pgn-bench/speed.py --fianchetto target/release/fianchetto data/games.pgn
"""
import argparse, logging, os, resource, subprocess, sys, time
try:
    import chess, chess.pgn
except ImportError as e:  # reported after --help has had its chance
    MISSING = e
else:
    MISSING = None


def python_chess(path):
    logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)
    games = plies = 0
    start = time.process_time()
    with open(path, encoding="utf-8", errors="replace") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            games += 1
            plies += sum(1 for _ in game.mainline_moves())
    return games, plies, time.process_time() - start


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def fianchetto(binary, path):
    start = children_cpu()
    out = subprocess.run([binary, "pgn", path, "--stats", "--quiet"], check=True,
                         capture_output=True, text=True).stdout
    seconds = children_cpu() - start
    fields = dict(line.split(" ", 1) for line in out.splitlines() if " " in line)
    return int(fields["games"]), int(fields["plies"]), seconds


def fastest(run, rounds):
    """The run with the least CPU time out of `rounds`."""
    return min((run() for _ in range(rounds)), key=lambda result: result[2])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fianchetto", default="target/release/fianchetto")
    ap.add_argument("--rounds", type=int, default=5,
                    help="runs of fianchetto, the fastest counting (default 5)")
    ap.add_argument("--python-rounds", type=int, default=1,
                    help="runs of python-chess, the fastest counting (default 1)")
    ap.add_argument("file")
    args = ap.parse_args()
    if MISSING is not None:
        sys.exit(f"{MISSING}: this script needs {MISSING.name} (pip install chess)")
    if args.rounds < 1 or args.python_rounds < 1:
        sys.exit("--rounds and --python-rounds must be at least 1")
    size = os.path.getsize(args.file)
    with open(args.file, "rb") as f:
        while f.read(1 << 20):
            pass
    results = {}
    print(f"{args.file}: {size / 1e6:.1f} MB, python-chess {chess.__version__}")
    for name, run, rounds in [
        ("python-chess", lambda: python_chess(args.file), args.python_rounds),
        ("fianchetto", lambda: fianchetto(args.fianchetto, args.file), args.rounds),
    ]:
        games, plies, seconds = fastest(run, rounds)
        seconds = max(seconds, 1e-6)
        results[name] = size / 1e6 / seconds
        print(f"{name:13} games {games} plies {plies} CPU {seconds:.3f} s "
              f"{results[name]:.2f} MB/s (fastest of {rounds})")
    print(f"ratio {results['fianchetto'] / results['python-chess']:.1f}x")


if __name__ == "__main__":
    main()
