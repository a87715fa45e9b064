//! `fianchetto.syzygy`: what the Syzygy tables on disk say of a position
//! (WDL, DTZ, the best move and every root move ranked).

use crate::board::AnyBoard;
use crate::errors::{MissingTableError, TablebaseError};
use fianchetto_syzygy::{SyzygyError, Tablebase};
use pyo3::prelude::*;
use std::sync::Arc;

/// A library error as a Python exception: a table or directory that is not
/// there is a `MissingTableError` (a `FileNotFoundError`), anything else
/// (a corrupt table, castling rights, too many pieces) a `TablebaseError`.
pub fn syzygy_err(e: SyzygyError) -> PyErr {
    match e {
        SyzygyError::MissingTable { .. }
        | SyzygyError::NoTables { .. }
        | SyzygyError::NoTablesLoaded
        | SyzygyError::Directory { .. } => MissingTableError::new_err(e.to_string()),
        other => TablebaseError::new_err(other.to_string()),
    }
}

/// The tables of one or more directories (`:`-separated, as the engine's
/// `SyzygyPath`), read through memory mapping and safe to probe from many
/// threads.
pub fn open_tables(path: &str) -> PyResult<Tablebase> {
    let mut tables = Tablebase::new();
    tables.add_directories(path).map_err(syzygy_err)?;
    Ok(tables)
}

/// Syzygy tables: WDL, DTZ and root moves of positions with few pieces.
#[pyclass(name = "Tablebase", module = "fianchetto.syzygy", frozen)]
pub struct PyTablebase {
    /// The tables (shared with engines that probe them).
    pub tables: Arc<Tablebase>,
}

/// A root move ranked by the tables.
#[pyclass(name = "RootMove", module = "fianchetto.syzygy", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct PyRootMove {
    /// The move, UCI.
    #[pyo3(name = "move")]
    mv: String,
    /// The result it leads to for the side playing it: -2 (loss), -1
    /// (blessed loss), 0, 1 (cursed win), 2 (win).
    wdl: i8,
    /// Plies to the next capture or pawn move with best play (negative:
    /// the move loses; 0: a draw).
    dtz: i32,
    /// Whether the move mates.
    mate: bool,
    /// Its rank with the position's fifty-move counter (higher is better).
    rank: i32,
}

#[pymethods]
impl PyRootMove {
    fn __repr__(&self) -> String {
        format!(
            "RootMove(move='{}', wdl={}, dtz={}, mate={}, rank={})",
            self.mv,
            self.wdl,
            self.dtz,
            if self.mate { "True" } else { "False" },
            self.rank
        )
    }
}

#[pymethods]
impl PyTablebase {
    /// The tables in `path`: one directory, or several separated by `:`.
    /// A directory that is missing or holds no table raises
    /// `MissingTableError` (a `FileNotFoundError`).
    #[new]
    fn new(path: &str) -> PyResult<PyTablebase> {
        Ok(PyTablebase {
            tables: Arc::new(open_tables(path)?),
        })
    }

    /// The most pieces of a table loaded.
    #[getter]
    fn max_pieces(&self) -> u32 {
        self.tables.max_pieces()
    }

    /// Win (2), cursed win (1), draw (0), blessed loss (-1) or loss (-2)
    /// for the side to move, with the fifty-move counter at zero.
    fn probe_wdl(&self, py: Python<'_>, board: AnyBoard) -> PyResult<i8> {
        let board = &board.0;
        let b = board.game.board().clone();
        py.allow_threads(|| self.tables.probe_wdl(&b))
            .map(|w| w.value())
            .map_err(syzygy_err)
    }

    /// Distance to zeroing the fifty-move counter, in plies (negative when
    /// the side to move loses; 0 for a draw).
    fn probe_dtz(&self, py: Python<'_>, board: AnyBoard) -> PyResult<i32> {
        let board = &board.0;
        let b = board.game.board().clone();
        py.allow_threads(|| self.tables.probe_dtz(&b))
            .map_err(syzygy_err)
    }

    /// The move to play (UCI), or None without a legal move.
    fn best_move(&self, py: Python<'_>, board: AnyBoard) -> PyResult<Option<String>> {
        let board = &board.0;
        let b = board.game.board().clone();
        let best = py
            .allow_threads(|| self.tables.best_move(&b))
            .map_err(syzygy_err)?;
        Ok(best.map(|m| board.uci(&b, m.mv)))
    }

    /// Every legal move ranked, best first (`rule50`: with the
    /// fifty-move rule).
    #[pyo3(signature = (board, *, rule50=true))]
    fn root_moves(
        &self,
        py: Python<'_>,
        board: AnyBoard,
        rule50: bool,
    ) -> PyResult<Vec<PyRootMove>> {
        let board = &board.0;
        let b = board.game.board().clone();
        let moves = py
            .allow_threads(|| self.tables.root_moves(&b, rule50))
            .map_err(syzygy_err)?;
        Ok(moves
            .iter()
            .map(|m| PyRootMove {
                mv: board.uci(&b, m.mv),
                wdl: m.wdl.value(),
                dtz: m.dtz,
                mate: m.mate,
                rank: m.rank,
            })
            .collect())
    }
}

/// Adds the Syzygy classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyTablebase>()?;
    m.add_class::<PyRootMove>()?;
    Ok(())
}
