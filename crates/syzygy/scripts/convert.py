#!/usr/bin/env python3
"""Does Fianchetto with Syzygy tables convert won endgames against Stockfish,
and hold drawn ones?

Draws won and drawn positions of the 3- and 4-piece tables from
tests/reference.txt (every table that has them, a few each), and plays each
out: Fianchetto (SyzygyPath set, a fixed node budget a move) on the side to
move, Stockfish (without tables, a fixed node budget) on the other, until
mate, a draw by the rules (fifty moves, repetition, stalemate, insufficient
material) or 400 plies. A won position must end in Fianchetto's mate, a
drawn one not in Stockfish's. Prints one line per position that failed and
the totals.

    python3 crates/syzygy/scripts/convert.py --engine target/release/fianchetto \
        --tables crates/syzygy/tests/tables --stockfish /usr/games/stockfish
"""

import argparse
import collections
import os
import random

import chess
import chess.engine

HERE = os.path.dirname(os.path.abspath(__file__))


def positions(path, per_table, seed):
    """(fen, wdl, material) of up to per_table won and per_table drawn
    positions of each material, without an immediate capture (so that the
    endgame is the table's own, not the next one down)."""
    rng = random.Random(seed)
    by = collections.defaultdict(list)
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            pieces, side, ep, wdl, _ = line.split()
            board = chess.Board(None)
            for i in range(0, len(pieces), 3):
                board.set_piece_at(chess.parse_square(pieces[i + 1:i + 3]), chess.Piece.from_symbol(pieces[i]))
            board.turn = side == "w"
            if ep != "-" or int(wdl) < 0 or any(board.is_capture(m) for m in board.legal_moves):
                continue
            key = "".join(sorted(p.upper() for p in pieces[::3]))
            by[(key, int(wdl))].append(board.fen())
    out = []
    for (key, wdl), fens in sorted(by.items()):
        for fen in rng.sample(fens, min(per_table, len(fens))):
            out.append((fen, wdl, key))
    return out


def play(ours, theirs, fen, our_nodes, their_nodes):
    board = chess.Board(fen)
    me = board.turn
    while not board.is_game_over(claim_draw=True) and board.ply() < 400:
        engine, nodes = (ours, our_nodes) if board.turn == me else (theirs, their_nodes)
        board.push(engine.play(board, chess.engine.Limit(nodes=nodes)).move)
    return board.outcome(claim_draw=True), me, board


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", required=True)
    parser.add_argument("--tables", required=True)
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    parser.add_argument("--nodes", type=int, default=5000, help="Fianchetto's nodes a move")
    parser.add_argument("--sf-nodes", type=int, default=100000, help="Stockfish's nodes a move")
    parser.add_argument("--per-table", type=int, default=2)
    parser.add_argument("--seed", type=int, default=22)
    args = parser.parse_args()

    todo = positions(os.path.join(HERE, "..", "tests", "reference.txt"), args.per_table, args.seed)
    ours = chess.engine.SimpleEngine.popen_uci(args.engine)
    ours.configure({"SyzygyPath": os.path.abspath(args.tables)})
    theirs = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    totals = collections.Counter()
    try:
        for fen, wdl, key in todo:
            outcome, me, board = play(ours, theirs, fen, args.nodes, args.sf_nodes)
            kind = "won" if wdl == 2 else "drawn"
            ok = (outcome is not None and outcome.winner == me) if wdl == 2 else \
                (outcome is None or outcome.winner != (not me))
            totals[(kind, ok)] += 1
            if not ok:
                end = outcome.termination.name if outcome else "400 plies"
                print(f"FAILED {kind} {key} {fen}: {end} after {board.ply()} plies")
    finally:
        ours.quit()
        theirs.quit()
    for kind in ("won", "drawn"):
        good, bad = totals[(kind, True)], totals[(kind, False)]
        verb = "converted" if kind == "won" else "held"
        print(f"{kind}: {good} of {good + bad} {verb}")


if __name__ == "__main__":
    main()
