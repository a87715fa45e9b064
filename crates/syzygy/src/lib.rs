//! # fianchetto-syzygy
//!
//! What the Syzygy endgame tablebases say of a position: win, draw or loss
//! ([`Wdl`]), the distance to zeroing the fifty-move counter (DTZ), and the
//! moves that keep a won position won within the fifty-move rule. Written
//! from the format for the Fianchetto chess libraries; it probes positions
//! of every `fianchetto-board` backend.
//!
//! ```
//! use fianchetto_board::{Bitboards, Board};
//! use fianchetto_syzygy::{Tablebase, Wdl};
//!
//! # let dir = std::env::var("FIANCHETTO_SYZYGY")
//! #     .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/tests/tables").into());
//! # if !std::path::Path::new(&dir).is_dir() {
//! #     eprintln!("no tables at {dir}: the example is not run");
//! #     return Ok(());
//! # }
//! let mut tables = Tablebase::new();
//! tables.add_directory(&dir)?; // a folder of KQvKR.rtbw, KQvKR.rtbz, ...
//!
//! // King and queen against king and rook: a win, and the queen wins the
//! // rook (the next capture) 53 plies from now at best.
//! let board = Bitboards::from_fen("8/3r4/8/4k3/8/8/8/K6Q w - - 0 1")?;
//! assert_eq!(tables.probe_wdl(&board)?, Wdl::Win);
//! assert_eq!(tables.probe_dtz(&board)?, 53);
//!
//! // The move to play, and every move ranked.
//! let best = tables.best_move(&board)?.expect("a legal move");
//! assert_eq!(best.wdl, Wdl::Win);
//! for m in tables.root_moves(&board, true)? {
//!     println!("{} {:?} dtz {}", m.mv, m.wdl, m.dtz);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Tables are found by name when a directory is added, opened and mapped
//! into memory the first time a position needs them, and probed from any
//! number of threads through `&Tablebase` without allocating. A missing
//! table is [`SyzygyError::MissingTable`]; a file that is not a valid table
//! (wrong magic number, truncated, another table renamed, corrupt) is
//! [`SyzygyError::BadTable`] naming the file, never a panic or a read out
//! of bounds. Positions with castling rights are refused (no table holds
//! them).
//!
//! The source follows the format in layers, each module a layer: how
//! squares become the digits of an index (`numbering`), the compressed store
//! of values and reading one value (`pairs`), a file's header and the index
//! of a position (`table`), the rules of probing above the tables: captures
//! searched first, en passant, the DTZ sign and rounding (`tablebase`), and
//! root moves ranked with the fifty-move rule (`root`).
#![warn(missing_docs)]

mod consistency;
mod error;
mod material;
mod numbering;
mod pairs;
mod root;
mod table;
mod tablebase;
mod verify;

pub use error::{SyzygyError, TableKind, TableProblem};
pub use material::Material;
pub use root::{RootMove, RootMoves, RANK_WIN};
pub use tablebase::{Tablebase, MAX_PIECES};
pub use verify::{file_md5, verify_file};

use std::fmt;
use std::ops::Neg;

/// Win, draw or loss for the side to move, as the tables store it: with the
/// fifty-move counter at zero, and the two results that the fifty-move rule
/// turns into draws told apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    /// Lost.
    Loss,
    /// Lost, but the fifty-move rule saves it: a draw.
    BlessedLoss,
    /// Drawn.
    Draw,
    /// Won, but the fifty-move rule spoils it: a draw.
    CursedWin,
    /// Won.
    Win,
}

impl Wdl {
    /// -2 (loss), -1 (blessed loss), 0, 1 (cursed win) or 2 (win): the
    /// numbers Syzygy probers print.
    pub const fn value(self) -> i8 {
        match self {
            Wdl::Loss => -2,
            Wdl::BlessedLoss => -1,
            Wdl::Draw => 0,
            Wdl::CursedWin => 1,
            Wdl::Win => 2,
        }
    }

    /// The result with the fifty-move rule applied: cursed wins and blessed
    /// losses are draws.
    pub const fn under_fifty_move_rule(self) -> Wdl {
        match self {
            Wdl::CursedWin | Wdl::BlessedLoss => Wdl::Draw,
            other => other,
        }
    }
}

impl Neg for Wdl {
    type Output = Wdl;

    /// The same result for the other side.
    fn neg(self) -> Wdl {
        Wdl::from_value(-self.value())
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Wdl::Loss => "loss",
            Wdl::BlessedLoss => "blessed loss",
            Wdl::Draw => "draw",
            Wdl::CursedWin => "cursed win",
            Wdl::Win => "win",
        })
    }
}

/// The README's example, compiled as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
