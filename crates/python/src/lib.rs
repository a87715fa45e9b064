//! # fianchetto-python
//!
//! The Python package `fianchetto`: the Fianchetto chess libraries through
//! PyO3 (stable ABI, built by maturin). This crate holds no chess logic: it
//! converts between Python values and the library types, maps the library
//! errors to Python exceptions, and releases the GIL while the libraries
//! work (perft, PGN parsing, search, table probes).
//!
//! - [`board`]: `fianchetto.Board` (a [`Game`](fianchetto_movegen::Game)
//!   on [`Bitboards`](fianchetto_board::Bitboards)) and `Outcome`.
//! - [`pgn`]: the streaming PGN reader over a path or a file object, games
//!   with their annotations, the writer.
//! - [`engine`]: the engine in-process (PVS with the evaluation, table,
//!   threads, Syzygy tables and strength the options ask for).
//! - [`syzygy`]: Syzygy WDL and DTZ probing.
//! - [`errors`]: the exception types.
//! - [`wait`]: long work (a search, a perft) that Ctrl-C stops.
//!
//! The Python side (`python/fianchetto/`) re-exports these and carries the
//! type stubs.
#![warn(missing_docs)]

pub mod board;
pub mod engine;
pub mod errors;
pub mod pgn;
pub mod syzygy;
pub mod wait;

use board::{AnyBoard, PyBoard};
use fianchetto_board::svg::{parse_move_squares, Arrow, BoardSvg, SquareMark};
use fianchetto_board::Color;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The position as an SVG picture (the project's renderer): `arrows` as
/// `e2e4` or with a colour letter (`Ge2e4`, `Rd1d8`, `Y…`, `B…`),
/// `squares` as `d4` or `Gd4`; `lastmove` as UCI text; `flipped` draws it
/// from black's side; `size` in pixels (`None`: no fixed size).
#[pyfunction]
#[pyo3(signature = (board, arrows=Vec::new(), squares=Vec::new(), lastmove=None, flipped=false, size=Some(400), coordinates=true))]
fn svg(
    board: AnyBoard,
    arrows: Vec<String>,
    squares: Vec<String>,
    lastmove: Option<String>,
    flipped: bool,
    size: Option<u32>,
    coordinates: bool,
) -> PyResult<String> {
    let board = &board.0;
    let mut picture = BoardSvg::from_board(board.game.board())
        .coordinates(coordinates)
        .size(size);
    if flipped {
        picture = picture.orientation(Color::Black);
    }
    if let Some(text) = lastmove.or_else(|| board.last_uci()) {
        let (from, to) = parse_move_squares(&text).ok_or_else(|| {
            PyValueError::new_err(format!("lastmove `{text}` is not a move such as e2e4"))
        })?;
        picture = picture.last_move_squares(from, to);
    }
    for text in &arrows {
        let arrow: Arrow = text
            .parse()
            .map_err(|e| PyValueError::new_err(format!("{e}")))?;
        picture = picture.arrow(arrow);
    }
    for text in &squares {
        let mark: SquareMark = text
            .parse()
            .map_err(|e| PyValueError::new_err(format!("{e}")))?;
        picture = picture.mark(mark);
    }
    Ok(picture.to_svg())
}

/// The native module, `fianchetto._fianchetto`.
#[pymodule]
fn _fianchetto(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    m.add_class::<PyBoard>()?;
    m.add_class::<board::PyOutcome>()?;
    m.add_function(wrap_pyfunction!(svg, m)?)?;
    m.add_function(wrap_pyfunction!(board::perft_fen, m)?)?;
    pgn::register(m)?;
    engine::register(m)?;
    syzygy::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
