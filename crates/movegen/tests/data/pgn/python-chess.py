#!/usr/bin/env python3
"""Counts what python-chess reads in each PGN file of this folder, for the
Rust test that checks `fianchetto pgn --stats` against it
(crates/movegen/tests/pgn_corpus.rs).

For each file: the games (`chess.pgn.read_game` in a loop until it returns
None), the games that are errors for Fianchetto (python-chess recorded an
error in `game.errors`, or the game's Variant is one Fianchetto does not play:
anything but standard chess and Chess960), and the main-line plies of the
other games (`len(list(game.mainline_moves()))`, null moves included).

    python3 crates/movegen/tests/data/pgn/python-chess.py > crates/movegen/tests/data/pgn/python-chess.txt

Needs python-chess (`pip install chess`); the counts were made with the
version printed in the output's first line.
"""
import glob, logging, os, sys
import chess, chess.pgn

# The Variant values Fianchetto reads (compared without case): python-chess's
# names of standard chess and of Chess960.
STANDARD = ["", "standard", "chess", "classical", "normal", "from position"]
CHESS960 = ["chess960", "chess 960", "fischerandom", "fischerrandom", "fischer random"]


def counts(path):
    games = errors = plies = 0
    with open(path, encoding="utf-8", errors="replace") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            games += 1
            variant = game.headers.get("Variant", "").strip().lower()
            if game.errors or variant not in STANDARD + CHESS960:
                errors += 1
            else:
                plies += len(list(game.mainline_moves()))
    return games, errors, plies


def main():
    logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)
    here = os.path.dirname(os.path.abspath(__file__))
    print(f"# python-chess {chess.__version__}: file games errors plies")
    for path in sorted(glob.glob(os.path.join(here, "*.pgn"))):
        games, errors, plies = counts(path)
        print(f"{os.path.basename(path)} {games} {errors} {plies}")


if __name__ == "__main__":
    sys.exit(main())
