//! `fianchetto.Board`: a position with its move history (a
//! [`Game`] on [`Bitboards`]), moves as UCI text, and `Outcome`.

use crate::errors::{IllegalMoveError, InvalidFenError, InvalidSanError, InvalidUciError};
use crate::wait::interruptible;
use fianchetto_board::{diagram, Bitboards, Board, CastlingMode, Color, Move, Square};
use fianchetto_movegen::perft::perft_until;
use fianchetto_movegen::{
    parse_san, parse_uci, perft_parallel, polyglot, to_san, to_uci, Game, MoveGen, Outcome,
    Termination, UciMove,
};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyList, PyString, PyType};
use std::sync::atomic::AtomicBool;

/// A chess position and the moves that led to it (for repetitions and
/// `pop()`). Moves are UCI strings (`e2e4`, `e7e8q`; in Chess960 castling
/// is written king takes rook, `e1h1`).
#[pyclass(name = "Board", module = "fianchetto")]
#[derive(Clone)]
pub struct PyBoard {
    /// The game: start position, moves, positions.
    pub game: Game<Bitboards>,
    /// Whether FEN castling and UCI castling moves are Chess960's.
    pub chess960: bool,
}

/// The castling notation of `chess960`.
pub fn mode(chess960: bool) -> CastlingMode {
    CastlingMode::from_chess960(chess960)
}

/// The position of `fen`, read in the castling notation of `chess960`; a
/// bad FEN is an `InvalidFenError` with the library's message.
pub fn board_from_fen(fen: &str, chess960: bool) -> PyResult<Bitboards> {
    Bitboards::from_fen_with(fen, mode(chess960))
        .map_err(|e| InvalidFenError::new_err(format!("{e} (FEN `{fen}`)")))
}

/// The move `text` (UCI) in `board`, or an `InvalidUciError`.
pub fn uci_move(board: &Bitboards, text: &str) -> PyResult<Move> {
    parse_uci(board, text).map_err(|e| InvalidUciError::new_err(e.to_string()))
}

/// Slots of the UCI string cache: from, to, and no promotion or a role.
const UCI_SLOTS: usize = 64 * 64 * 7;

/// The Python string of a UCI move, made once per interpreter and then
/// shared: listing moves (legal moves, a game's moves) costs a lookup per
/// move rather than formatting and allocating a string.
pub fn uci_str<'py>(py: Python<'py>, uci: UciMove) -> Bound<'py, PyString> {
    static CACHE: GILOnceCell<Vec<GILOnceCell<Py<PyString>>>> = GILOnceCell::new();
    let UciMove::Normal {
        from,
        to,
        promotion,
    } = uci
    else {
        return PyString::new(py, "0000");
    };
    let slot = (from.index() * 64 + to.index()) * 7 + promotion.map_or(0, |r| r.index() + 1);
    let cache = CACHE.get_or_init(py, || (0..UCI_SLOTS).map(|_| GILOnceCell::new()).collect());
    match cache.get(slot) {
        Some(cell) => cell
            .get_or_init(py, || PyString::new(py, &uci.to_string()).unbind())
            .bind(py)
            .clone(),
        None => PyString::new(py, &uci.to_string()),
    }
}

/// The moves of `game` as Python UCI strings (`0000` for a null move), in
/// the castling notation of `chess960`.
pub fn moves_uci<'py>(
    py: Python<'py>,
    game: &Game<Bitboards>,
    chess960: bool,
) -> Vec<Bound<'py, PyString>> {
    let mode = mode(chess960);
    game.positions()
        .iter()
        .zip(game.moves())
        .map(|(b, &m)| {
            let uci = if m.is_null() {
                UciMove::Null
            } else {
                UciMove::from_move(m, b.castling(), mode)
            };
            uci_str(py, uci)
        })
        .collect()
}

/// A move given as UCI text or as an object with a `uci()` method (a
/// python-chess `Move`), as UCI text.
fn move_text(mv: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(text) = mv.extract::<String>() {
        return Ok(text);
    }
    if let Ok(uci) = mv.call_method0("uci") {
        return uci.extract();
    }
    Err(pyo3::exceptions::PyTypeError::new_err(
        "a move is UCI text (`e2e4`) or an object with a uci() method",
    ))
}

impl PyBoard {
    /// The board of a game, in `chess960`'s notation.
    pub fn from_game(game: Game<Bitboards>, chess960: bool) -> PyBoard {
        PyBoard { game, chess960 }
    }

    /// `mv` in UCI, in this board's castling notation (`board` is the
    /// position it is played in).
    pub fn uci(&self, board: &Bitboards, mv: Move) -> String {
        to_uci(board, mv, mode(self.chess960))
    }

    /// The last move in UCI, if any.
    pub fn last_uci(&self) -> Option<String> {
        let n = self.game.moves().len();
        let mv = *self.game.moves().last()?;
        let before = self.game.positions().get(n - 1)?;
        Some(self.uci(before, mv))
    }

    fn outcome_of(&self, claim_draw: bool) -> Option<Outcome> {
        if claim_draw {
            self.game.outcome_with_claims()
        } else {
            self.game.outcome()
        }
    }
}

#[pymethods]
impl PyBoard {
    /// The position of `fen` (the start position if none); `chess960`
    /// reads X-FEN and Shredder-FEN castling and writes castling moves as
    /// king takes rook.
    #[new]
    #[pyo3(signature = (fen=None, *, chess960=false))]
    fn new(fen: Option<&str>, chess960: bool) -> PyResult<PyBoard> {
        let board = match fen {
            None => Bitboards::startpos(),
            Some(fen) => board_from_fen(fen, chess960)?,
        };
        Ok(PyBoard::from_game(Game::new(board), chess960))
    }

    /// The FEN of the position (X-FEN castling).
    fn fen(&self) -> String {
        self.game.board().fen()
    }

    /// The FEN of the position with Shredder-FEN castling (rook files).
    fn shredder_fen(&self) -> String {
        self.game.board().shredder_fen()
    }

    /// The FEN of the position the moves start from.
    fn root_fen(&self) -> String {
        self.game.start().fen()
    }

    /// Whether the board uses Chess960 castling notation.
    #[getter]
    fn chess960(&self) -> bool {
        self.chess960
    }

    /// True when white is to move.
    #[getter]
    fn turn(&self) -> bool {
        self.game.board().turn() == Color::White
    }

    /// The halfmove clock (plies since the last capture or pawn move).
    #[getter]
    fn halfmove_clock(&self) -> u32 {
        self.game.board().halfmove_clock()
    }

    /// The fullmove number.
    #[getter]
    fn fullmove_number(&self) -> u32 {
        self.game.board().fullmove_number()
    }

    /// The legal moves, as UCI strings.
    #[getter]
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let board = self.game.board();
        let rights = board.castling();
        let mode = mode(self.chess960);
        PyList::new(
            py,
            board
                .legal_moves()
                .iter()
                .map(|&m| uci_str(py, UciMove::from_move(m, rights, mode))),
        )
    }

    /// The number of legal moves (without listing them).
    fn legal_move_count(&self) -> u64 {
        self.game.board().count_legal()
    }

    /// The moves played from the root, as UCI strings.
    #[getter]
    fn move_stack<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, moves_uci(py, &self.game, self.chess960))
    }

    /// The piece on `square` (`e4`) as its FEN letter (`P`, `n`, ...), or
    /// None.
    fn piece_at(&self, square: &str) -> PyResult<Option<char>> {
        let sq: Square = square
            .parse()
            .map_err(|e| PyValueError::new_err(format!("{e}")))?;
        Ok(self.game.board().piece_at(sq).map(|p| p.char()))
    }

    /// Whether `mv` (UCI text) is legal here.
    fn is_legal(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(parse_uci(self.game.board(), &move_text(r#move)?).is_ok())
    }

    /// Plays `mv`, UCI text or a python-chess `Move`; returns it as UCI.
    fn push(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<String> {
        self.push_uci(&move_text(r#move)?)
    }

    /// Plays a move in UCI notation; returns it (as this board writes it).
    /// A malformed or illegal move is an `InvalidUciError`.
    fn push_uci(&mut self, uci: &str) -> PyResult<String> {
        let mv = uci_move(self.game.board(), uci)?;
        let text = self.uci(self.game.board(), mv);
        self.game.play_unchecked(mv);
        Ok(text)
    }

    /// Plays a move in SAN (`Nf3`, `exd5`, `O-O`, `e8=Q`); returns it as
    /// UCI. A malformed, illegal or ambiguous move is an `InvalidSanError`.
    fn push_san(&mut self, san: &str) -> PyResult<String> {
        let mv = parse_san(self.game.board(), san)
            .map_err(|e| InvalidSanError::new_err(e.to_string()))?;
        let text = self.uci(self.game.board(), mv);
        self.game.play_unchecked(mv);
        Ok(text)
    }

    /// Passes (a null move, `0000`); refused in check.
    fn push_null(&mut self) -> PyResult<()> {
        self.game
            .play_null()
            .map_err(|e| IllegalMoveError::new_err(e.to_string()))
    }

    /// Takes the last move back and returns it (UCI); `IndexError` at the
    /// root.
    fn pop(&mut self) -> PyResult<String> {
        let n = self.game.moves().len();
        if n == 0 {
            return Err(PyIndexError::new_err("pop from a board with no moves"));
        }
        let before = self.game.positions()[n - 1].clone();
        let mv = self.game.moves()[n - 1];
        self.game.undo();
        Ok(if mv.is_null() {
            "0000".to_string()
        } else {
            self.uci(&before, mv)
        })
    }

    /// The last move (UCI); `IndexError` at the root.
    fn peek(&self) -> PyResult<String> {
        self.last_uci()
            .ok_or_else(|| PyIndexError::new_err("peek at a board with no moves"))
    }

    /// `mv` (UCI text or a python-chess `Move`, legal here) in SAN, with
    /// `+` or `#`.
    fn san(&self, r#move: &Bound<'_, PyAny>) -> PyResult<String> {
        let board = self.game.board();
        let mv = uci_move(board, &move_text(r#move)?)?;
        to_san(board, mv).map_err(|e| IllegalMoveError::new_err(e.to_string()))
    }

    /// The move a SAN text means here, as UCI (the board does not change).
    fn parse_san(&self, san: &str) -> PyResult<String> {
        let board = self.game.board();
        let mv = parse_san(board, san).map_err(|e| InvalidSanError::new_err(e.to_string()))?;
        Ok(self.uci(board, mv))
    }

    /// The move a UCI text means here, as this board writes it (castling
    /// in its notation); `InvalidUciError` if it is not legal.
    fn parse_uci(&self, uci: &str) -> PyResult<String> {
        let board = self.game.board();
        let mv = uci_move(board, uci)?;
        Ok(self.uci(board, mv))
    }

    /// Whether the side to move is in check.
    fn is_check(&self) -> bool {
        self.game.board().in_check()
    }

    /// Whether the side to move is checkmated.
    fn is_checkmate(&self) -> bool {
        self.game.board().is_checkmate()
    }

    /// Whether the side to move is stalemated.
    fn is_stalemate(&self) -> bool {
        self.game.board().is_stalemate()
    }

    /// Whether neither side can mate.
    fn is_insufficient_material(&self) -> bool {
        self.game.board().is_insufficient_material()
    }

    /// Whether the game is over (with `claim_draw`, a claimable draw
    /// counts).
    #[pyo3(signature = (*, claim_draw=false))]
    fn is_game_over(&self, claim_draw: bool) -> bool {
        self.outcome_of(claim_draw).is_some()
    }

    /// Whether the side to move may claim a draw (threefold repetition or
    /// the fifty-move rule).
    fn can_claim_draw(&self) -> bool {
        self.game.claimable_draw().is_some()
    }

    /// How the game ended, or None: checkmate, stalemate, insufficient
    /// material, the seventy-five-move rule, fivefold repetition (and with
    /// `claim_draw` threefold repetition and the fifty-move rule).
    #[pyo3(signature = (*, claim_draw=false))]
    fn outcome(&self, claim_draw: bool) -> Option<PyOutcome> {
        self.outcome_of(claim_draw).map(PyOutcome::from)
    }

    /// The position's Zobrist key (the project's keys, the one the engine's
    /// hash table uses).
    #[getter]
    fn zobrist(&self) -> u64 {
        self.game.board().hash()
    }

    /// The position's Polyglot key (what opening books and
    /// `chess.polyglot.zobrist_hash` use).
    fn polyglot_key(&self) -> u64 {
        polyglot::hash(self.game.board())
    }

    /// Leaf nodes of the legal move tree `depth` plies deep (bulk
    /// counting), on `threads` threads; the GIL is released meanwhile, and
    /// on one thread Ctrl-C stops it (`KeyboardInterrupt`).
    #[pyo3(signature = (depth, *, threads=1))]
    fn perft(&self, py: Python<'_>, depth: u32, threads: usize) -> PyResult<u64> {
        count(py, self.game.board(), depth, threads)
    }

    /// A copy (moves and all).
    fn copy(&self) -> PyBoard {
        self.clone()
    }

    fn __copy__(&self) -> PyBoard {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyBoard {
        self.clone()
    }

    /// Equal positions: pieces, side to move, castling, en passant, clocks.
    /// (A board changes, so it is not hashable: use `zobrist` as a key.)
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .downcast::<PyBoard>()
            .is_ok_and(|o| o.borrow().game.board().to_setup() == self.game.board().to_setup())
    }

    fn __str__(&self) -> String {
        diagram(&self.game.board().to_setup())
    }

    fn __repr__(&self) -> String {
        format!("Board('{}')", self.fen())
    }

    /// A python-chess `chess.Board` with the same root position and moves
    /// (python-chess must be installed).
    fn to_chess<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let chess = py.import("chess")?;
        let kwargs = pyo3::types::PyDict::new(py);
        kwargs.set_item("chess960", self.chess960)?;
        let board = chess
            .getattr("Board")?
            .call((self.root_fen(),), Some(&kwargs))?;
        let from_uci = chess.getattr("Move")?.getattr("from_uci")?;
        for uci in moves_uci(py, &self.game, self.chess960) {
            board.call_method1("push", (from_uci.call1((uci,))?,))?;
        }
        Ok(board)
    }

    /// The `fianchetto.Board` of a python-chess `chess.Board`: its root
    /// position and its move stack.
    #[classmethod]
    fn from_chess(_cls: &Bound<'_, PyType>, board: &Bound<'_, PyAny>) -> PyResult<PyBoard> {
        from_chess_board(board)
    }
}

/// The board of a python-chess `chess.Board` (its root FEN and moves).
fn from_chess_board(board: &Bound<'_, PyAny>) -> PyResult<PyBoard> {
    let chess960: bool = board.getattr("chess960")?.extract()?;
    let root_fen: String = board.call_method0("root")?.call_method0("fen")?.extract()?;
    let mut out = PyBoard::new(Some(&root_fen), chess960)?;
    for mv in board.getattr("move_stack")?.try_iter()? {
        out.push(&mv?)?;
    }
    Ok(out)
}

/// A board argument: a `fianchetto.Board`, or a python-chess `chess.Board`
/// (converted through its root FEN and moves).
pub struct AnyBoard(pub PyBoard);

impl<'py> FromPyObject<'py> for AnyBoard {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<AnyBoard> {
        if let Ok(b) = ob.downcast::<PyBoard>() {
            return Ok(AnyBoard(b.borrow().clone()));
        }
        if ob.hasattr("move_stack")? && ob.hasattr("root")? && ob.hasattr("chess960")? {
            return from_chess_board(ob).map(AnyBoard);
        }
        Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "expected a fianchetto.Board or a chess.Board, not {}",
            ob.get_type().name()?
        )))
    }
}

/// Perft on `threads` threads (no hash table), the GIL released. On one
/// thread Ctrl-C stops it (`KeyboardInterrupt`); on several it runs to the
/// end.
fn count(py: Python<'_>, board: &Bitboards, depth: u32, threads: usize) -> PyResult<u64> {
    if threads > 1 {
        return Ok(py.allow_threads(|| perft_parallel(board, depth, threads, 0)));
    }
    let stop = AtomicBool::new(false);
    // `None` only when stopped, and then the interrupt is the answer.
    interruptible(py, &stop, || perft_until(board, depth, &stop)).map(|n| n.unwrap_or_default())
}

/// Perft of the position of `fen` (as `Board(fen).perft(depth)`).
#[pyfunction]
#[pyo3(signature = (fen, depth, *, threads=1, chess960=false))]
pub fn perft_fen(
    py: Python<'_>,
    fen: &str,
    depth: u32,
    threads: usize,
    chess960: bool,
) -> PyResult<u64> {
    let board = board_from_fen(fen, chess960)?;
    count(py, &board, depth, threads)
}

/// How a game ended.
#[pyclass(name = "Outcome", module = "fianchetto", frozen, eq)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PyOutcome {
    /// True: white won, False: black won, None: a draw.
    #[pyo3(get)]
    winner: Option<bool>,
    /// Why: `checkmate`, `stalemate`, `insufficient_material`,
    /// `fifty_moves`, `seventyfive_moves`, `threefold_repetition`,
    /// `fivefold_repetition`.
    #[pyo3(get)]
    termination: &'static str,
    /// The outcome as a sentence (`White wins by checkmate`).
    #[pyo3(get)]
    reason: String,
    /// The PGN result.
    result: &'static str,
}

impl From<Outcome> for PyOutcome {
    fn from(o: Outcome) -> PyOutcome {
        let (winner, how) = match o {
            Outcome::Decisive { winner, how } => (Some(winner == Color::White), how),
            Outcome::Draw(how) => (None, how),
        };
        let termination = match how {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient_material",
            Termination::FiftyMoves => "fifty_moves",
            Termination::SeventyFiveMoves => "seventyfive_moves",
            Termination::ThreefoldRepetition => "threefold_repetition",
            Termination::FivefoldRepetition => "fivefold_repetition",
        };
        PyOutcome {
            winner,
            termination,
            reason: o.to_string(),
            result: o.result(),
        }
    }
}

#[pymethods]
impl PyOutcome {
    /// The PGN result: `1-0`, `0-1` or `1/2-1/2`.
    fn result(&self) -> &'static str {
        self.result
    }

    fn __repr__(&self) -> String {
        format!(
            "Outcome(termination='{}', winner={}, reason='{}')",
            self.termination,
            match self.winner {
                Some(true) => "True",
                Some(false) => "False",
                None => "None",
            },
            self.reason
        )
    }
}
