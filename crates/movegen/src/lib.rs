//! # fianchetto-movegen
//!
//! What moves exist: strictly legal move generation for every board backend
//! (plus captures-only and quiets-only generation for search), perft in all
//! its classic forms, UCI and SAN notation, the rules of a game
//! (checkmate, stalemate, insufficient material, the fifty- and
//! seventy-five-move rules, threefold and fivefold repetition), and the file
//! formats built on them: [`pgn`] (games, read as a stream and written),
//! [`epd`] (positions with operations: test suites, perft files) and
//! Polyglot opening books ([`polyglot`]).
//!
//! ```
//! use fianchetto_board::{Bitboards, Board};
//! use fianchetto_movegen::{perft, MoveGen};
//!
//! let board = Bitboards::startpos();
//! assert_eq!(board.legal_moves().len(), 20);
//! assert_eq!(perft(&board, 3), 8_902);
//! ```
#![cfg_attr(not(any(feature = "std", test)), no_std)]
#![warn(missing_docs)]

extern crate alloc;

mod array_gen;
pub mod backend;
mod bitboard_gen;
pub mod check;
pub mod epd;
mod game;
mod mailbox_gen;
pub mod perft;
#[cfg(feature = "std")]
pub mod pgn;
pub mod polyglot;
pub mod san;
pub mod sink;
pub mod uci;
mod x88_gen;

pub use game::{Game, IllegalMove, Outcome, Termination};
pub use perft::{divide, perft, perft_plain, perft_stats, PerftStats};
#[cfg(feature = "std")]
pub use perft::{perft_hashed, perft_parallel};
pub use san::{
    parse_san, san_line, san_list, to_san, ParseSanError, San, SanError, SanSyntaxError, Suffix,
};
pub use uci::{
    parse_uci, to_uci, uci_string, ParseUciMoveError, UciMove, UciMoveError, UciSyntaxError,
};

use arrayvec::ArrayVec;
use fianchetto_board::attacks::{MagicLookup, SliderLookup};
use fianchetto_board::cpu::Level;
use fianchetto_board::{Bitboards, Board, Move};

/// A list of moves on the stack: no position has more than 218 legal moves.
pub type MoveList = ArrayVec<Move, 256>;

/// Which moves a generator produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GenKind {
    /// Every legal move.
    All,
    /// Legal moves that capture (en passant and capturing promotions included).
    Captures,
    /// Legal moves that do not capture (castling and plain promotions included).
    Quiets,
}

/// Legal move generation, implemented by every backend.
///
/// `Captures` and `Quiets` partition `All`: every legal move is in exactly
/// one of them.
pub trait MoveGen: Board {
    /// Appends the legal moves of `kind` to `list`.
    fn generate(&self, kind: GenKind, list: &mut MoveList);

    /// The number of legal moves, without listing them where the backend can
    /// (the last ply of a bulk-counting perft).
    fn count_legal(&self) -> u64 {
        self.legal_moves().len() as u64
    }

    /// [`generate`](MoveGen::generate) for code dispatched once on the CPU
    /// (see [`fianchetto_board::cpu`]): `level` tells the backend the tier it
    /// runs in and the slider lookup to use, so that a backend can compile
    /// its generator into the caller with both fixed. By default, `generate`.
    #[inline(always)]
    fn generate_in<L: Level>(&self, level: L, kind: GenKind, list: &mut MoveList) {
        let _ = level;
        self.generate(kind, list);
    }

    /// [`count_legal`](MoveGen::count_legal) for code dispatched once on the
    /// CPU, as [`generate_in`](MoveGen::generate_in). By default, `count_legal`.
    #[inline(always)]
    fn count_legal_in<L: Level>(&self, level: L) -> u64 {
        let _ = level;
        self.count_legal()
    }

    /// The number of legal moves after `mv` (the last ply but one of a
    /// bulk-counting perft), in the CPU tier `level`. By default the move is
    /// played on a copy and counted; a backend may bring up to date only
    /// what counting reads.
    #[inline(always)]
    fn count_legal_after_in<L: Level>(&self, level: L, mv: Move) -> u64 {
        let mut child = self.clone();
        child.play_in(level, mv);
        child.count_legal_in(level)
    }

    /// Every legal move.
    fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(GenKind::All, &mut list);
        list
    }

    /// Legal captures.
    fn captures(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(GenKind::Captures, &mut list);
        list
    }

    /// Legal non-captures.
    fn quiets(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(GenKind::Quiets, &mut list);
        list
    }

    /// Whether `mv` is legal here (a move from another position, a hash
    /// table or a user gets checked before it is played).
    fn is_legal(&self, mv: Move) -> bool {
        self.legal_moves().contains(&mv)
    }

    /// Plays `mv` in place after checking that it is legal here, as moves
    /// from outside the move generator (a user, a file, a hash table, an
    /// older position) must be. An illegal move changes nothing: the error
    /// names the move and the position's FEN.
    ///
    /// ```
    /// use fianchetto_board::{Bitboards, Board, Move, MoveKind, Square};
    /// use fianchetto_movegen::MoveGen;
    ///
    /// let mut board = Bitboards::startpos();
    /// board.play(Move::new(Square::E2, Square::E4, MoveKind::DoublePush))?;
    /// let err = board
    ///     .play(Move::new(Square::E4, Square::E5, MoveKind::Quiet))
    ///     .unwrap_err();
    /// assert_eq!(err.to_string(),
    ///            "e4e5 is not a legal move in rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    /// assert_eq!(board.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    /// # Ok::<(), fianchetto_movegen::IllegalMove>(())
    /// ```
    fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        if !self.is_legal(mv) {
            return Err(IllegalMove {
                mv,
                fen: self.fen(),
            });
        }
        self.play_unchecked(mv);
        Ok(())
    }

    /// Whether the side to move has no legal move.
    fn has_no_moves(&self) -> bool {
        self.count_legal() == 0
    }

    /// Whether the side to move is checkmated.
    fn is_checkmate(&self) -> bool {
        self.in_check() && self.has_no_moves()
    }

    /// Whether the side to move is stalemated.
    fn is_stalemate(&self) -> bool {
        !self.in_check() && self.has_no_moves()
    }
}

impl MoveGen for Bitboards {
    #[inline]
    fn generate(&self, kind: GenKind, list: &mut MoveList) {
        generate_bitboards(self, MagicLookup, kind, list);
    }

    #[inline]
    fn count_legal(&self) -> u64 {
        count_bitboards(self, MagicLookup)
    }

    #[inline(always)]
    fn generate_in<L: Level>(&self, level: L, kind: GenKind, list: &mut MoveList) {
        generate_bitboards(self, level.sliders(), kind, list);
    }

    #[inline(always)]
    fn count_legal_in<L: Level>(&self, level: L) -> u64 {
        count_bitboards(self, level.sliders())
    }

    #[inline(always)]
    fn count_legal_after_in<L: Level>(&self, level: L, mv: Move) -> u64 {
        let mut child = self.clone();
        child.play_for_generation_in(level, mv);
        count_bitboards(&child, level.sliders())
    }
}

#[inline(always)]
fn generate_bitboards<A: SliderLookup>(b: &Bitboards, sl: A, kind: GenKind, list: &mut MoveList) {
    let mut sink = sink::ListSink(list);
    if !b.castling().is_standard() {
        return bitboard_gen::generate_any(b, kind, &mut sink);
    }
    match kind {
        GenKind::All => {
            bitboard_gen::generate::<_, _, { bitboard_gen::ALL }, false>(sl, b, &mut sink)
        }
        GenKind::Captures => {
            bitboard_gen::generate::<_, _, { bitboard_gen::CAPTURES }, false>(sl, b, &mut sink)
        }
        GenKind::Quiets => {
            bitboard_gen::generate::<_, _, { bitboard_gen::QUIETS }, false>(sl, b, &mut sink)
        }
    }
}

#[inline(always)]
fn count_bitboards<A: SliderLookup>(b: &Bitboards, sl: A) -> u64 {
    if !b.castling().is_standard() {
        // Its own counter: one whose address escapes into a call would
        // be kept in memory, costing every standard count a store.
        return bitboard_gen::count_any(b);
    }
    let mut sink = sink::CountSink(0);
    bitboard_gen::generate::<_, _, { bitboard_gen::ALL }, false>(sl, b, &mut sink);
    sink.0
}

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
