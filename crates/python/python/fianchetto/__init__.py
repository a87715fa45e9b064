"""Fianchetto for Python: the Fianchetto chess libraries (Rust) in one package.

- :class:`Board`: positions and moves (FEN and X-FEN, legal moves, SAN and
  UCI, outcome, Zobrist and Polyglot keys, perft), with conversion to and
  from python-chess's ``chess.Board``.
- :mod:`fianchetto.pgn`: a streaming PGN reader (paths and file objects)
  and a writer.
- :class:`Engine`: the engine in-process (analysis, MultiPV, play, stop).
- :mod:`fianchetto.syzygy`: Syzygy tablebase probing.
- :func:`svg`: the position as an SVG picture.

Moves are UCI strings (``"e2e4"``, ``"e7e8q"``).
"""

from fianchetto._fianchetto import (
    Board,
    Engine,
    IllegalMoveError,
    InvalidFenError,
    InvalidSanError,
    InvalidUciError,
    MissingTableError,
    Outcome,
    PgnError,
    PlayResult,
    Score,
    TablebaseError,
    __version__,
    perft_fen,
    svg,
)
from fianchetto import pgn, syzygy

STARTING_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

__all__ = [
    "Board",
    "Engine",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidSanError",
    "InvalidUciError",
    "MissingTableError",
    "Outcome",
    "PgnError",
    "PlayResult",
    "STARTING_FEN",
    "Score",
    "TablebaseError",
    "__version__",
    "perft_fen",
    "pgn",
    "svg",
    "syzygy",
]
