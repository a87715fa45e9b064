//! The exceptions: a `ValueError` subclass for each kind of bad input
//! (FEN, SAN, UCI, an illegal move, PGN), carrying the library's message,
//! and `FileNotFoundError` subclasses for files that are not there.

use pyo3::create_exception;
use pyo3::exceptions::{PyFileNotFoundError, PyValueError};
use pyo3::prelude::*;

create_exception!(
    fianchetto,
    InvalidFenError,
    PyValueError,
    "A FEN that is malformed or describes an impossible position."
);
create_exception!(
    fianchetto,
    InvalidSanError,
    PyValueError,
    "A SAN move that is malformed, illegal or ambiguous in the position."
);
create_exception!(
    fianchetto,
    InvalidUciError,
    PyValueError,
    "A UCI move that is malformed or not legal in the position."
);
create_exception!(
    fianchetto,
    IllegalMoveError,
    PyValueError,
    "A move that is not legal in the position (or nothing to take back)."
);
create_exception!(
    fianchetto,
    PgnError,
    PyValueError,
    "A malformed PGN game, or a game that cannot be written."
);
create_exception!(
    fianchetto,
    TablebaseError,
    PyValueError,
    "A Syzygy table that is not valid, or a position no table can hold."
);
create_exception!(
    fianchetto,
    MissingTableError,
    PyFileNotFoundError,
    "No Syzygy table for the position's material (or no such directory)."
);

/// Adds the exception types to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("InvalidFenError", py.get_type::<InvalidFenError>())?;
    m.add("InvalidSanError", py.get_type::<InvalidSanError>())?;
    m.add("InvalidUciError", py.get_type::<InvalidUciError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("PgnError", py.get_type::<PgnError>())?;
    m.add("TablebaseError", py.get_type::<TablebaseError>())?;
    m.add("MissingTableError", py.get_type::<MissingTableError>())?;
    Ok(())
}
