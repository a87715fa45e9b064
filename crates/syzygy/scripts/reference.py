#!/usr/bin/env python3
"""Reference answers for fianchetto-syzygy's tests, from python-chess.

Draws random legal positions of every table in a directory (each side to
move, each colouring of the material, and en passant positions for the
tables that have pawns on both sides), probes them with python-chess's
prober (`chess.syzygy`) on the same files, and writes one line per
position:

    <pieces> <side to move> <en passant square or -> <wdl> <dtz>

where <pieces> lists each piece as its FEN letter and its square
("Ke1Qd4kc6rb2"). Positions have castling rights "-" and a fifty-move
counter of 0. The file is deterministic for a given seed and set of tables.

    python3 crates/syzygy/scripts/reference.py \
        --tables crates/syzygy/tests/tables \
        --out crates/syzygy/tests/reference.txt
"""

import argparse
import os
import random
import sys

import chess
import chess.syzygy


def material_sides(name):
    """'KQvKR' -> (['K', 'Q'], ['K', 'R'])."""
    white, black = name.split("v")
    return list(white), list(black)


def random_position(rng, strong, weak, strong_is_white, turn):
    """A random legal position with the given pieces, or None."""
    board = chess.Board(None)
    board.turn = turn
    squares = rng.sample(range(64), len(strong) + len(weak))
    for letters, white, offset in ((strong, strong_is_white, 0), (weak, not strong_is_white, len(strong))):
        for i, letter in enumerate(letters):
            piece = chess.Piece.from_symbol(letter if white else letter.lower())
            board.set_piece_at(squares[offset + i], piece)
    return board if board.is_valid() else None


def en_passant_position(rng, turn):
    """A random legal K+P v K+P position right after a double push by the
    side not to move, with an en passant capture available, or None."""
    board = chess.Board(None)
    board.turn = turn
    mover_rank = 4 if turn == chess.WHITE else 3  # the capturing pawn's rank
    file = rng.randrange(8)
    side = rng.choice([f for f in (file - 1, file + 1) if 0 <= f < 8])
    pusher = chess.square(file, mover_rank)
    capturer = chess.square(side, mover_rank)
    ep = chess.square(file, mover_rank + (1 if turn == chess.WHITE else -1))
    start = chess.square(file, mover_rank + (2 if turn == chess.WHITE else -2))
    board.set_piece_at(pusher, chess.Piece(chess.PAWN, not turn))
    board.set_piece_at(capturer, chess.Piece(chess.PAWN, turn))
    free = [s for s in range(64) if s not in (pusher, capturer, ep, start)]
    k1, k2 = rng.sample(free, 2)
    board.set_piece_at(k1, chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(k2, chess.Piece(chess.KING, chess.BLACK))
    board.ep_square = ep
    if not board.is_valid() or not board.has_legal_en_passant():
        return None
    return board


def encode(board):
    pieces = "".join(
        board.piece_at(sq).symbol() + chess.square_name(sq)
        for sq in sorted(board.piece_map())
    )
    turn = "w" if board.turn == chess.WHITE else "b"
    ep = chess.square_name(board.ep_square) if board.ep_square is not None else "-"
    return f"{pieces} {turn} {ep}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", required=True, help="directory of .rtbw/.rtbz files")
    parser.add_argument("--out", required=True, help="file to write")
    parser.add_argument("--per-side", type=int, default=200,
                        help="positions per table and side to move (default 200)")
    parser.add_argument("--en-passant", type=int, default=150,
                        help="en passant positions per side to move (default 150)")
    parser.add_argument("--seed", type=int, default=22)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    names = sorted(f[:-5] for f in os.listdir(args.tables) if f.endswith(".rtbw"))
    lines = []
    with chess.syzygy.open_tablebase(args.tables) as tb:
        for name in names:
            strong, weak = material_sides(name)
            for turn in (chess.WHITE, chess.BLACK):
                seen = set()
                while len(seen) < args.per_side:
                    board = random_position(rng, strong, weak, rng.random() < 0.5, turn)
                    if board is None or board.fen() in seen:
                        continue
                    seen.add(board.fen())
                    lines.append(f"{encode(board)} {tb.probe_wdl(board)} {tb.probe_dtz(board)}")
            print(f"{name}: {2 * args.per_side} positions", file=sys.stderr)
        for turn in (chess.WHITE, chess.BLACK):
            seen = set()
            while len(seen) < args.en_passant:
                board = en_passant_position(rng, turn)
                if board is None or board.fen() in seen:
                    continue
                seen.add(board.fen())
                lines.append(f"{encode(board)} {tb.probe_wdl(board)} {tb.probe_dtz(board)}")
        print(f"en passant: {2 * args.en_passant} positions", file=sys.stderr)

    with open(args.out, "w") as out:
        out.write(f"# python-chess {chess.__version__} on the tables of {len(names)} materials; "
                  f"scripts/reference.py --per-side {args.per_side} "
                  f"--en-passant {args.en_passant} --seed {args.seed}\n")
        out.write("# pieces side en-passant wdl dtz\n")
        for line in lines:
            out.write(line + "\n")
    print(f"{len(lines)} positions written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
