"""Type stubs of the native module (re-exported by fianchetto, fianchetto.pgn
and fianchetto.syzygy)."""

import os
from typing import IO, Any, Dict, Iterator, List, Optional, Union, final, overload

__all__ = [
    "Board",
    "Engine",
    "Eval",
    "Game",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidSanError",
    "InvalidUciError",
    "MissingTableError",
    "Outcome",
    "PgnError",
    "PlayResult",
    "Reader",
    "RootMove",
    "Score",
    "Tablebase",
    "TablebaseError",
    "Variation",
    "Writer",
    "__version__",
    "parse",
    "perft_fen",
    "read",
    "svg",
]

__version__: str

_BoardLike = Union["Board", Any]
"""A fianchetto.Board, or a python-chess chess.Board (converted through its root FEN
and moves)."""

class InvalidFenError(ValueError):
    """A FEN that is malformed or describes an impossible position."""

class InvalidSanError(ValueError):
    """A SAN move that is malformed, illegal or ambiguous in the position."""

class InvalidUciError(ValueError):
    """A UCI move that is malformed or not legal in the position."""

class IllegalMoveError(ValueError):
    """A move that is not legal in the position."""

class PgnError(ValueError):
    """A malformed PGN game, or a game that cannot be written."""

class TablebaseError(ValueError):
    """A Syzygy table that is not valid, or a position no table can hold."""

class MissingTableError(FileNotFoundError):
    """No Syzygy table for the position's material (or no such directory)."""

@final
class Outcome:
    """How a game ended."""

    winner: Optional[bool]
    """True: white won, False: black won, None: a draw."""
    termination: str
    """checkmate, stalemate, insufficient_material, fifty_moves,
    seventyfive_moves, threefold_repetition or fivefold_repetition."""
    reason: str
    """The outcome as a sentence ("White wins by checkmate")."""
    def result(self) -> str:
        """The PGN result: 1-0, 0-1 or 1/2-1/2."""

@final
class Board:
    """A chess position and the moves that led to it. Moves are UCI strings
    (in Chess960, castling is written king takes rook)."""

    def __new__(cls, fen: Optional[str] = None, *, chess960: bool = False) -> "Board":
        """The position of ``fen`` (the start position if None); raises
        InvalidFenError."""
    def fen(self) -> str:
        """The FEN of the position (X-FEN castling)."""
    def shredder_fen(self) -> str:
        """The FEN with Shredder-FEN castling (rook files)."""
    def root_fen(self) -> str:
        """The FEN of the position the moves start from."""
    @property
    def chess960(self) -> bool: ...
    @property
    def turn(self) -> bool:
        """True when white is to move."""
    @property
    def halfmove_clock(self) -> int: ...
    @property
    def fullmove_number(self) -> int: ...
    @property
    def legal_moves(self) -> List[str]:
        """The legal moves as UCI strings."""
    def legal_move_count(self) -> int: ...
    @property
    def move_stack(self) -> List[str]:
        """The moves played from the root, as UCI."""
    @property
    def zobrist(self) -> int:
        """The project's Zobrist key of the position."""
    def polyglot_key(self) -> int:
        """The Polyglot key (as chess.polyglot.zobrist_hash)."""
    def piece_at(self, square: str) -> Optional[str]:
        """The piece on a square (``"e4"``) as its FEN letter, or None."""
    def is_legal(self, move: Any) -> bool: ...
    def push(self, move: Any) -> str:
        """Plays a UCI string or a python-chess Move; returns it as UCI."""
    def push_uci(self, uci: str) -> str:
        """Plays a UCI move; raises InvalidUciError."""
    def push_san(self, san: str) -> str:
        """Plays a SAN move, returns it as UCI; raises InvalidSanError."""
    def push_null(self) -> None:
        """Passes (refused in check: IllegalMoveError)."""
    def pop(self) -> str:
        """Takes the last move back (IndexError at the root)."""
    def peek(self) -> str: ...
    def san(self, move: Any) -> str:
        """A legal move in SAN."""
    def parse_san(self, san: str) -> str:
        """The UCI move a SAN text means here."""
    def parse_uci(self, uci: str) -> str: ...
    def is_check(self) -> bool: ...
    def is_checkmate(self) -> bool: ...
    def is_stalemate(self) -> bool: ...
    def is_insufficient_material(self) -> bool: ...
    def is_game_over(self, *, claim_draw: bool = False) -> bool: ...
    def can_claim_draw(self) -> bool: ...
    def outcome(self, *, claim_draw: bool = False) -> Optional[Outcome]: ...
    def perft(self, depth: int, *, threads: int = 1) -> int:
        """Leaf count of the legal move tree (the GIL is released; on one
        thread Ctrl-C stops it)."""
    def copy(self) -> "Board": ...
    def __copy__(self) -> "Board": ...
    def __deepcopy__(self, memo: Any) -> "Board": ...
    def to_chess(self) -> Any:
        """A python-chess chess.Board with the same root and moves."""
    @classmethod
    def from_chess(cls, board: Any) -> "Board":
        """The Board of a python-chess chess.Board (root and move stack)."""

def perft_fen(fen: str, depth: int, *, threads: int = 1, chess960: bool = False) -> int: ...
def svg(
    board: _BoardLike,
    arrows: List[str] = ...,
    squares: List[str] = ...,
    lastmove: Optional[str] = None,
    flipped: bool = False,
    size: Optional[int] = ...,
    coordinates: bool = True,
) -> str:
    """The position as an SVG picture; arrows as "e2e4" or "Ge2e4", squares
    as "d4" or "Rd4"."""

@final
class Score:
    """A score from the side to move's point of view."""

    cp: Optional[int]
    mate: Optional[int]
    def white(self) -> "Score":
        """The same score from white's point of view."""
    def is_mate(self) -> bool: ...

@final
class PlayResult:
    move: Optional[str]
    ponder: Optional[str]
    info: Dict[str, Any]

@final
class Engine:
    """The engine in-process."""

    def __new__(
        cls,
        *,
        hash: int = 16,
        threads: int = 1,
        evaluation: str = "nnue",
        eval_file: Optional[Union[str, os.PathLike]] = None,
        syzygy_path: Optional[str] = None,
        elo: Optional[int] = None,
        algorithm: str = "pvs",
    ) -> "Engine": ...
    def configure(
        self,
        *,
        hash: Optional[int] = None,
        threads: Optional[int] = None,
        evaluation: Optional[str] = None,
        eval_file: Optional[Union[str, os.PathLike]] = None,
        syzygy_path: Optional[str] = None,
        elo: Optional[int] = None,
        algorithm: Optional[str] = None,
    ) -> None: ...
    @property
    def options(self) -> Dict[str, Any]: ...
    @overload
    def analyse(
        self,
        board: _BoardLike,
        limit: Any = None,
        *,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        time: Optional[float] = None,
        multipv: None = None,
        infinite: bool = False,
    ) -> Dict[str, Any]: ...
    @overload
    def analyse(
        self,
        board: _BoardLike,
        limit: Any = None,
        *,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        time: Optional[float] = None,
        multipv: int,
        infinite: bool = False,
    ) -> List[Dict[str, Any]]: ...
    def play(
        self,
        board: _BoardLike,
        limit: Any = None,
        *,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        time: Optional[float] = None,
    ) -> PlayResult: ...
    def stop(self) -> None:
        """Stops the running search (call it from another thread)."""
    def clear(self) -> None:
        """Forgets the hash table and histories."""

@final
class Eval:
    """An [%eval] command, from white's point of view."""

    cp: Optional[int]
    mate: Optional[int]
    depth: Optional[int]

@final
class Variation:
    @property
    def moves(self) -> List[str]: ...
    @property
    def san_moves(self) -> List[str]: ...
    @property
    def comments(self) -> List[List[str]]: ...
    def variations(self, index: int) -> List["Variation"]: ...
    def board(self) -> Board: ...

@final
class Game:
    """A game read from PGN; a malformed one has ``error`` set."""

    @staticmethod
    def from_board(board: Board, headers: Optional[Dict[str, str]] = None) -> "Game": ...
    @property
    def error(self) -> Optional[PgnError]: ...
    @property
    def headers(self) -> Dict[str, str]: ...
    def set_header(self, name: str, value: str) -> None: ...
    @property
    def moves(self) -> List[str]: ...
    @property
    def san_moves(self) -> List[str]: ...
    @property
    def result(self) -> Optional[str]: ...
    @property
    def starting_comments(self) -> List[str]: ...
    @property
    def comments(self) -> List[List[str]]: ...
    @property
    def nags(self) -> List[List[int]]: ...
    @property
    def clocks(self) -> List[Optional[float]]: ...
    @property
    def evals(self) -> List[Optional[Eval]]: ...
    def variations(self, index: int) -> List[Variation]: ...
    @property
    def warnings(self) -> List[str]: ...
    def end(self) -> Board: ...
    def board(self) -> Board: ...
    def to_pgn(self) -> str: ...

@final
class Reader(Iterator[Game]):
    def __iter__(self) -> "Reader": ...
    def __next__(self) -> Game: ...
    @property
    def games_read(self) -> int: ...
    @property
    def errors(self) -> int: ...

def read(
    source: Union[str, os.PathLike, IO[str], IO[bytes]],
    *,
    variations: bool = True,
    comments: bool = True,
    raise_errors: bool = False,
) -> Reader: ...
def parse(text: str) -> Game: ...

@final
class Writer:
    def __new__(cls, dest: Union[str, os.PathLike, IO[str]]) -> "Writer": ...
    def write(self, game: Game) -> None: ...
    def close(self) -> None: ...
    def __enter__(self) -> "Writer": ...
    def __exit__(self, *args: Any) -> bool: ...

@final
class RootMove:
    move: str
    wdl: int
    dtz: int
    mate: bool
    rank: int

@final
class Tablebase:
    def __new__(cls, path: str) -> "Tablebase": ...
    @property
    def max_pieces(self) -> int: ...
    def probe_wdl(self, board: _BoardLike) -> int: ...
    def probe_dtz(self, board: _BoardLike) -> int: ...
    def best_move(self, board: _BoardLike) -> Optional[str]: ...
    def root_moves(self, board: _BoardLike, *, rule50: bool = True) -> List[RootMove]: ...
