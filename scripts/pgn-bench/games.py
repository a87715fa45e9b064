#!/usr/bin/env python3
"""Writes a PGN file of real engine games to measure PGN readers on: Debian's
Stockfish against itself at a few hundred nodes a move, each game from a
seeded random opening of 4 to 8 plies, every move with the engine's
evaluation as a Lichess-style `[%eval score,depth]` comment. Needs
python-chess and `/usr/games/stockfish` (`apt-get install stockfish`).

    python3 scripts/pgn-bench/games.py --games 3000 --out data/games.pgn

See docs/pgn.md for the file used there and the speed measured on it.
"""
import argparse, random, sys
try:
    import chess, chess.engine, chess.pgn
except ImportError as e:  # reported after --help has had its chance
    MISSING = e
else:
    MISSING = None


def play(engine, rng, nodes, index):
    board = chess.Board()
    game = chess.pgn.Game()
    game.headers.update({
        "Event": "pgn-bench", "Site": "?", "Date": "2026.01.01", "Round": str(index + 1),
        "White": f"Stockfish {nodes[0]} nodes", "Black": f"Stockfish {nodes[1]} nodes",
    })
    node = game
    for _ in range(rng.randint(4, 8)):
        moves = list(board.legal_moves)
        if not moves:
            break
        move = rng.choice(moves)
        node = node.add_variation(move)
        board.push(move)
    while not board.is_game_over(claim_draw=True) and board.ply() < 300:
        limit = chess.engine.Limit(nodes=nodes[board.ply() % 2])
        result = engine.play(board, limit, info=chess.engine.INFO_SCORE)
        node = node.add_variation(result.move)
        score = result.info.get("score")
        if score is not None:
            white = score.white()
            text = f"#{white.mate()}" if white.is_mate() else f"{white.score() / 100:.2f}"
            node.comment = f"[%eval {text},{result.info.get('depth', 0)}]"
        board.push(result.move)
    game.headers["Result"] = board.result(claim_draw=True)
    return game


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    ap.add_argument("--engine", default="/usr/games/stockfish")
    args = ap.parse_args()
    if MISSING is not None:
        sys.exit(f"{MISSING}: this script needs {MISSING.name} (pip install chess)")
    rng = random.Random(args.seed)
    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    try:
        with open(args.out, "w") as out:
            for i in range(args.games):
                nodes = (rng.choice([200, 400, 800]), rng.choice([200, 400, 800]))
                print(play(engine, rng, nodes, i), file=out, end="\n\n")
                if (i + 1) % 100 == 0:
                    print(f"{i + 1} games", file=sys.stderr)
    finally:
        engine.quit()


if __name__ == "__main__":
    main()
