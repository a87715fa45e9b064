//! `fianchetto.pgn`: the library's streaming PGN reader over a path or a
//! Python file object, games with their annotations, and the writer.
//!
//! Each game is parsed with the GIL released (readers in several threads
//! run in parallel); a file object is read in blocks, each taking the GIL
//! only for its `read()` call. Games stay Rust values
//! until a property is asked for, so a loop that reads only the headers
//! or the moves pays only for those.

use crate::board::{moves_uci, PyBoard};
use crate::errors::PgnError;
use fianchetto_board::{Bitboards, Move};
use fianchetto_movegen::pgn::{
    Annotations, Commands, EvalScore, GameBuilder, GameResult, Games, PgnGame, ReadError, Reader,
    Variation, Writer,
};
use fianchetto_movegen::{to_uci, Game};
use pyo3::exceptions::{PyIndexError, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// A Python file object (binary or text) as a [`Read`]: each call takes
/// the GIL for one `read(n)`.
struct PyRead {
    file: Py<PyAny>,
    /// Bytes of a text block that did not fit the caller's buffer.
    pending: Vec<u8>,
}

impl Read for PyRead {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.pending.is_empty() {
            let block = Python::with_gil(|py| -> PyResult<Vec<u8>> {
                let data = self.file.bind(py).call_method1("read", (buf.len(),))?;
                if let Ok(bytes) = data.downcast::<PyBytes>() {
                    Ok(bytes.as_bytes().to_vec())
                } else if let Ok(text) = data.downcast::<PyString>() {
                    Ok(text.to_cow()?.as_bytes().to_vec())
                } else {
                    Err(PyValueError::new_err(
                        "the file's read() returned neither bytes nor str",
                    ))
                }
            })
            .map_err(|e| std::io::Error::other(e.to_string()))?;
            self.pending = block;
        }
        let n = self.pending.len().min(buf.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

/// The input: a file or a file object, behind the library reader's buffer.
type Input = BufReader<Box<dyn Read + Send>>;

/// The source as a [`Read`]: a path (str or os.PathLike) opened here, or
/// a file object read through its `read()`.
fn open(source: &Bound<'_, PyAny>) -> PyResult<Box<dyn Read + Send>> {
    let is_path = source.is_instance_of::<PyString>() || source.hasattr("__fspath__")?;
    let read: Box<dyn Read + Send> = if is_path {
        let path: std::path::PathBuf = source.extract()?;
        let file = File::open(&path).map_err(|e| {
            let msg = format!("cannot open PGN file {}: {e}", path.display());
            match e.kind() {
                std::io::ErrorKind::NotFound => pyo3::exceptions::PyFileNotFoundError::new_err(msg),
                _ => PyOSError::new_err(msg),
            }
        })?;
        Box::new(file)
    } else if source.hasattr("read")? {
        Box::new(PyRead {
            file: source.clone().unbind(),
            pending: Vec::new(),
        })
    } else {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "a PGN source is a path or a file object with read()",
        ));
    };
    Ok(read)
}

/// Whether a game's `Variant` tag says Chess960 (so its castling moves are
/// written king takes rook).
fn is_chess960(game: &PgnGame<Bitboards>) -> bool {
    game.tags.get("Variant").is_some_and(|v| {
        let v = v.to_ascii_lowercase();
        v.contains("960") || v.contains("fischer")
    })
}

/// The games of a PGN source, one by one (an iterator).
#[pyclass(name = "Reader", module = "fianchetto.pgn")]
pub struct PyReader {
    /// Locked only while the GIL is released.
    games: Mutex<Games<Input, GameBuilder<Bitboards>>>,
    raise_errors: bool,
    read: AtomicU64,
    errors: AtomicU64,
}

#[pymethods]
impl PyReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next game, parsed with the GIL released. A malformed game is a
    /// `Game` whose `error` says what is wrong (or, with `raise_errors`, a
    /// `PgnError` raised; iterating on goes on with the next game). An
    /// input that fails raises `OSError`.
    fn __next__(&self, py: Python<'_>) -> PyResult<Option<PyGame>> {
        let next = py.allow_threads(|| {
            let mut games = self.games.lock().unwrap_or_else(|p| p.into_inner());
            games.next()
        });
        let Some(next) = next else {
            return Ok(None);
        };
        self.read.fetch_add(1, Ordering::Relaxed);
        match next {
            Ok(game) => Ok(Some(PyGame::new(game))),
            Err(ReadError::Io(e)) => Err(PyOSError::new_err(format!("reading PGN failed: {e}"))),
            Err(e) => {
                self.errors.fetch_add(1, Ordering::Relaxed);
                if self.raise_errors {
                    Err(PgnError::new_err(e.to_string()))
                } else {
                    Ok(Some(PyGame::failed(e.to_string())))
                }
            }
        }
    }

    /// Games given out so far (malformed ones included).
    #[getter]
    fn games_read(&self) -> u64 {
        self.read.load(Ordering::Relaxed)
    }

    /// Malformed games given out so far.
    #[getter]
    fn errors(&self) -> u64 {
        self.errors.load(Ordering::Relaxed)
    }
}

/// Reads the games of `source`, a path or a file object (binary or text):
/// an iterator of `Game`s. `variations=False` passes over variations,
/// `comments=False` drops comments (both read faster).
#[pyfunction]
#[pyo3(signature = (source, *, variations=true, comments=true, raise_errors=false))]
fn read(
    source: &Bound<'_, PyAny>,
    variations: bool,
    comments: bool,
    raise_errors: bool,
) -> PyResult<PyReader> {
    let input = open(source)?;
    let builder = GameBuilder::new().variations(variations).comments(comments);
    Ok(PyReader {
        games: Mutex::new(Reader::new(input).games_with(builder)),
        raise_errors,
        read: AtomicU64::new(0),
        errors: AtomicU64::new(0),
    })
}

/// The first game of a PGN text; a malformed game raises `PgnError`.
#[pyfunction]
fn parse(py: Python<'_>, text: &str) -> PyResult<PyGame> {
    let game = py
        .allow_threads(|| text.parse::<PgnGame<Bitboards>>())
        .map_err(|e| PgnError::new_err(e.to_string()))?;
    Ok(PyGame::new(game))
}

/// An `[%eval]` command: white's advantage in centipawns, or mate in
/// `mate` moves (negative: black mates), and the depth if given.
#[pyclass(name = "Eval", module = "fianchetto.pgn", frozen, eq)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PyEval {
    /// Centipawns for white, or None for a mate score.
    #[pyo3(get)]
    cp: Option<i32>,
    /// Moves to mate (negative: black mates), or None.
    #[pyo3(get)]
    mate: Option<i32>,
    /// The depth searched, if given.
    #[pyo3(get)]
    depth: Option<u32>,
}

#[pymethods]
impl PyEval {
    fn __repr__(&self) -> String {
        let show = |v: Option<String>| v.unwrap_or_else(|| "None".to_string());
        format!(
            "Eval(cp={}, mate={}, depth={})",
            show(self.cp.map(|v| v.to_string())),
            show(self.mate.map(|v| v.to_string())),
            show(self.depth.map(|v| v.to_string()))
        )
    }
}

fn eval_of(c: &Commands) -> Option<PyEval> {
    c.eval.map(|e| {
        let (cp, mate) = match e.score {
            EvalScore::Centipawns(cp) => (Some(cp), None),
            EvalScore::Mate(m) => (None, Some(m)),
        };
        PyEval {
            cp,
            mate,
            depth: e.depth,
        }
    })
}

/// `[%clk]` in seconds.
fn clock_of(c: &Commands) -> Option<f64> {
    c.clock.map(|d| d.as_secs_f64())
}

/// A line of moves (the main line or a variation) with their
/// annotations, as Python sees it: the moves as UCI and SAN, and per move
/// the comments, NAGs, clock, evaluation and variations.
struct Line<'a> {
    /// The position before each move, and the move's notes.
    moves: Vec<(Bitboards, Move, &'a Annotations)>,
    chess960: bool,
}

impl Line<'_> {
    fn uci(&self) -> Vec<String> {
        self.moves
            .iter()
            .map(|(b, m, _)| {
                if m.is_null() {
                    "0000".to_string()
                } else {
                    to_uci(b, *m, crate::board::mode(self.chess960))
                }
            })
            .collect()
    }

    fn san(&self) -> PyResult<Vec<String>> {
        self.moves
            .iter()
            .map(|(b, m, _)| {
                if m.is_null() {
                    Ok("--".to_string())
                } else {
                    fianchetto_movegen::to_san(b, *m).map_err(|e| PgnError::new_err(e.to_string()))
                }
            })
            .collect()
    }

    fn variations(&self, index: usize) -> PyResult<Vec<PyVariation>> {
        let (before, _, notes) = self
            .moves
            .get(index)
            .ok_or_else(|| PyIndexError::new_err(format!("no move {index} in this line")))?;
        Ok(notes
            .variations
            .iter()
            .map(|v| PyVariation {
                line: v.clone(),
                start: before.clone(),
                chess960: self.chess960,
            })
            .collect())
    }
}

/// A game read from PGN (or made from a board): headers, the main line,
/// its annotations and variations, the result; or, for a malformed game,
/// the error.
#[pyclass(name = "Game", module = "fianchetto.pgn")]
pub struct PyGame {
    game: Option<PgnGame<Bitboards>>,
    error: Option<String>,
}

impl PyGame {
    fn new(game: PgnGame<Bitboards>) -> PyGame {
        PyGame {
            game: Some(game),
            error: None,
        }
    }

    fn failed(message: String) -> PyGame {
        PyGame {
            game: None,
            error: Some(message),
        }
    }

    /// The game, or a `PgnError` for a malformed one.
    fn game(&self) -> PyResult<&PgnGame<Bitboards>> {
        match &self.game {
            Some(g) => Ok(g),
            None => Err(PgnError::new_err(
                self.error.clone().unwrap_or_else(|| "no game".into()),
            )),
        }
    }

    fn main_line(&self) -> PyResult<Line<'_>> {
        let g = self.game()?;
        let chess960 = is_chess960(g);
        let moves = g
            .main_line()
            .map(|m| (m.before.clone(), m.mv, m.notes))
            .collect();
        Ok(Line { moves, chess960 })
    }
}

#[pymethods]
impl PyGame {
    /// A game of the moves of `board` from its root position, with
    /// `headers`; its result is the board's outcome if the game is over.
    #[staticmethod]
    #[pyo3(signature = (board, headers=None))]
    fn from_board(board: &PyBoard, headers: Option<&Bound<'_, PyDict>>) -> PyResult<PyGame> {
        let mut game = PgnGame::new(board.game.clone());
        if board.chess960 {
            game.tags.set("Variant", "Chess960");
        }
        if let Some(h) = headers {
            for (k, v) in h.iter() {
                game.tags
                    .set(k.extract::<String>()?, v.extract::<String>()?);
            }
        }
        Ok(PyGame::new(game))
    }

    /// What is wrong with a malformed game (a `PgnError`, not raised), or
    /// None. A malformed game has no headers or moves: reading them raises
    /// the error.
    #[getter]
    fn error(&self, py: Python<'_>) -> Option<PyObject> {
        self.error
            .as_ref()
            .map(|m| PgnError::new_err(m.clone()).into_value(py).into_any())
    }

    /// The tag pairs, in the order read.
    #[getter]
    fn headers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in self.game()?.tags.iter() {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    /// Sets a tag (for writing).
    fn set_header(&mut self, name: String, value: String) -> PyResult<()> {
        self.game()?;
        if let Some(g) = self.game.as_mut() {
            g.tags.set(name, value);
        }
        Ok(())
    }

    /// The main line's moves as UCI (`0000` for a null move).
    #[getter]
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let g = self.game()?;
        PyList::new(py, moves_uci(py, &g.game, is_chess960(g)))
    }

    /// The main line's moves in SAN (`--` for a null move).
    #[getter]
    fn san_moves(&self) -> PyResult<Vec<String>> {
        self.game()?
            .san_moves()
            .map_err(|e| PgnError::new_err(e.to_string()))
    }

    /// The result (`1-0`, `0-1`, `1/2-1/2`, `*`), None if the movetext
    /// had none.
    #[getter]
    fn result(&self) -> PyResult<Option<&'static str>> {
        Ok(self.game()?.result.map(GameResult::as_str))
    }

    /// The comments' free text before the first move.
    #[getter]
    fn starting_comments(&self) -> PyResult<Vec<String>> {
        Ok(self.game()?.comments.clone())
    }

    /// Per main-line move, the free text of its comments (commands such as
    /// `[%clk]` taken out).
    #[getter]
    fn comments(&self) -> PyResult<Vec<Vec<String>>> {
        Ok(self
            .main_line()?
            .moves
            .iter()
            .map(|(_, _, n)| n.comments.clone())
            .collect())
    }

    /// Per main-line move, its NAGs.
    #[getter]
    fn nags(&self) -> PyResult<Vec<Vec<u32>>> {
        // As lists of ints (a Vec<u8> would become bytes).
        Ok(self
            .main_line()?
            .moves
            .iter()
            .map(|(_, _, n)| n.nags.iter().map(|&x| u32::from(x)).collect())
            .collect())
    }

    /// Per main-line move, its `[%clk]` in seconds (None without one).
    #[getter]
    fn clocks(&self) -> PyResult<Vec<Option<f64>>> {
        Ok(self
            .main_line()?
            .moves
            .iter()
            .map(|(_, _, n)| clock_of(&n.commands))
            .collect())
    }

    /// Per main-line move, its `[%eval]` (None without one).
    #[getter]
    fn evals(&self) -> PyResult<Vec<Option<PyEval>>> {
        Ok(self
            .main_line()?
            .moves
            .iter()
            .map(|(_, _, n)| eval_of(&n.commands))
            .collect())
    }

    /// The variations that replace main-line move `index` (from 0).
    fn variations(&self, index: usize) -> PyResult<Vec<PyVariation>> {
        self.main_line()?.variations(index)
    }

    /// What the reader found irregular but read anyway.
    #[getter]
    fn warnings(&self) -> PyResult<Vec<String>> {
        Ok(self
            .game()?
            .warnings
            .iter()
            .map(|w| w.to_string())
            .collect())
    }

    /// The position after the main line, with its moves (a `Board`).
    fn end(&self) -> PyResult<PyBoard> {
        let g = self.game()?;
        Ok(PyBoard::from_game(g.game.clone(), is_chess960(g)))
    }

    /// The start position (the `FEN` tag's, else the standard one).
    fn board(&self) -> PyResult<PyBoard> {
        let g = self.game()?;
        Ok(PyBoard::from_game(
            Game::new(g.game.start().clone()),
            is_chess960(g),
        ))
    }

    /// The game in PGN export format.
    fn to_pgn(&self) -> PyResult<String> {
        self.game()?
            .to_pgn()
            .map_err(|e| PgnError::new_err(e.to_string()))
    }

    fn __repr__(&self) -> String {
        match &self.game {
            Some(g) => format!(
                "<Game {} vs {}, {} moves>",
                g.tags.get("White").unwrap_or("?"),
                g.tags.get("Black").unwrap_or("?"),
                g.game.moves().len()
            ),
            None => format!("<Game error: {}>", self.error.as_deref().unwrap_or("")),
        }
    }
}

/// A variation: moves that replace a move of their parent line, played
/// from the position before it.
#[pyclass(name = "Variation", module = "fianchetto.pgn")]
pub struct PyVariation {
    line: Variation,
    start: Bitboards,
    chess960: bool,
}

impl PyVariation {
    fn walk(&self) -> PyResult<Line<'_>> {
        let walked = self
            .line
            .walk(&self.start)
            .map_err(|e| PgnError::new_err(e.to_string()))?;
        Ok(Line {
            moves: walked
                .into_iter()
                .map(|m| (m.before, m.mv, m.notes))
                .collect(),
            chess960: self.chess960,
        })
    }
}

#[pymethods]
impl PyVariation {
    /// Its moves as UCI.
    #[getter]
    fn moves(&self) -> PyResult<Vec<String>> {
        Ok(self.walk()?.uci())
    }

    /// Its moves in SAN.
    #[getter]
    fn san_moves(&self) -> PyResult<Vec<String>> {
        self.walk()?.san()
    }

    /// Per move, the free text of its comments.
    #[getter]
    fn comments(&self) -> Vec<Vec<String>> {
        self.line
            .moves
            .iter()
            .map(|m| m.notes.comments.clone())
            .collect()
    }

    /// The sub-variations that replace move `index` of this variation.
    fn variations(&self, index: usize) -> PyResult<Vec<PyVariation>> {
        self.walk()?.variations(index)
    }

    /// The position the variation starts from (a `Board`).
    fn board(&self) -> PyBoard {
        PyBoard::from_game(Game::new(self.start.clone()), self.chess960)
    }

    fn __repr__(&self) -> String {
        format!("<Variation of {} moves>", self.line.moves.len())
    }
}

/// Where a `Writer` writes: a file it opened, or a Python file object.
enum Sink {
    File(Writer<BufWriter<File>>),
    Object(Py<PyAny>),
    Closed,
}

/// Writes games as PGN export format to a path (created or truncated) or
/// to a text file object, each followed by a blank line.
#[pyclass(name = "Writer", module = "fianchetto.pgn")]
pub struct PyWriter {
    sink: Mutex<Sink>,
}

#[pymethods]
impl PyWriter {
    /// A writer to `dest`: a path, or a file object with `write(str)`.
    #[new]
    fn new(dest: &Bound<'_, PyAny>) -> PyResult<PyWriter> {
        let sink = if dest.is_instance_of::<PyString>() || dest.hasattr("__fspath__")? {
            let path: std::path::PathBuf = dest.extract()?;
            let file = File::create(&path).map_err(|e| {
                PyOSError::new_err(format!("cannot create PGN file {}: {e}", path.display()))
            })?;
            Sink::File(Writer::new(BufWriter::new(file)))
        } else if dest.hasattr("write")? {
            Sink::Object(dest.clone().unbind())
        } else {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "a PGN destination is a path or a file object with write()",
            ));
        };
        Ok(PyWriter {
            sink: Mutex::new(sink),
        })
    }

    /// Writes `game` and a blank line.
    fn write(&self, py: Python<'_>, game: &PyGame) -> PyResult<()> {
        let g = game.game()?;
        let mut sink = self.sink.lock().unwrap_or_else(|p| p.into_inner());
        match &mut *sink {
            Sink::File(w) => w
                .write_game(g)
                .map_err(|e| PgnError::new_err(e.to_string())),
            Sink::Object(o) => {
                let mut text = g.to_pgn().map_err(|e| PgnError::new_err(e.to_string()))?;
                text.push('\n');
                o.bind(py).call_method1("write", (text,))?;
                Ok(())
            }
            Sink::Closed => Err(PyValueError::new_err("the writer is closed")),
        }
    }

    /// Flushes and closes a file the writer opened (a file object is left
    /// open).
    fn close(&self) -> PyResult<()> {
        let mut sink = self.sink.lock().unwrap_or_else(|p| p.into_inner());
        if let Sink::File(w) = std::mem::replace(&mut *sink, Sink::Closed) {
            w.into_inner()
                .flush()
                .map_err(|e| PyOSError::new_err(format!("writing PGN failed: {e}")))?;
        }
        Ok(())
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&self, _args: &Bound<'_, pyo3::types::PyTuple>) -> PyResult<bool> {
        self.close()?;
        Ok(false)
    }
}

/// Adds the PGN classes and functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyReader>()?;
    m.add_class::<PyGame>()?;
    m.add_class::<PyVariation>()?;
    m.add_class::<PyEval>()?;
    m.add_class::<PyWriter>()?;
    m.add_function(wrap_pyfunction!(read, m)?)?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    Ok(())
}
