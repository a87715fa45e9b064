//! `Score`: centipawns from the side to move's point of view, with mates
//! encoded as distances from the top of the range, and tablebase wins in a
//! band just below the mates.

use std::fmt;
use std::ops::{Add, AddAssign, Neg, Sub, SubAssign};

/// A score in centipawns for the side to move; mate scores sit near
/// [`Score::MATE`]: `MATE - n` means "mate in n plies", `-(MATE - n)` "mated
/// in n plies". Below them, [`Score::TB_WIN`]` - n` means "a win the endgame
/// tablebases promise, found n plies from the root" (and its negation a
/// loss): searches treat both bands alike (decisive, distances adjusted by
/// ply in hash tables), but only mates are reported as mates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Score(pub i32);

impl Score {
    /// Zero: equal, or a draw.
    pub const ZERO: Score = Score(0);
    /// Draw score.
    pub const DRAW: Score = Score(0);
    /// Mate at the root (the side to move mates now).
    pub const MATE: Score = Score(32_000);
    /// Above every real score: the bound of a full window.
    pub const INFINITE: Score = Score(32_001);
    /// Scores at or beyond this magnitude are decisive: mates, and
    /// tablebase wins and losses. Evaluations stay below it.
    pub const MATE_BOUND: Score = Score(32_000 - 1_000);
    /// A tablebase win at the root: above every evaluation, below every
    /// mate ([`Score::MATE`] less 500 plies).
    pub const TB_WIN: Score = Score(32_000 - 500);

    /// Centipawns.
    #[inline(always)]
    pub const fn cp(cp: i32) -> Score {
        Score(cp)
    }

    /// The side to move mates in `ply` plies.
    #[inline]
    pub const fn mate_in(ply: u32) -> Score {
        Score(Self::MATE.0 - ply as i32)
    }

    /// The side to move is mated in `ply` plies.
    #[inline]
    pub const fn mated_in(ply: u32) -> Score {
        Score(-Self::MATE.0 + ply as i32)
    }

    /// The tablebases promise the side to move a win, found `ply` plies
    /// from the root.
    #[inline]
    pub const fn tb_win_in(ply: u32) -> Score {
        Score(Self::TB_WIN.0 - ply as i32)
    }

    /// The tablebases promise the side to move a loss, found `ply` plies
    /// from the root.
    #[inline]
    pub const fn tb_loss_in(ply: u32) -> Score {
        Score(-Self::TB_WIN.0 + ply as i32)
    }

    /// Whether this is a mate score (either side).
    #[inline]
    pub const fn is_mate(self) -> bool {
        self.0.abs() > Self::TB_WIN.0 && self.0.abs() <= Self::MATE.0
    }

    /// Whether this is a tablebase win or loss (not a mate).
    #[inline]
    pub const fn is_tb(self) -> bool {
        self.0.abs() >= Self::MATE_BOUND.0 && self.0.abs() <= Self::TB_WIN.0
    }

    /// Whether the score decides the game: a mate or a tablebase result.
    /// Searches keep such scores out of pruning margins and corrections.
    #[inline]
    pub const fn is_decisive(self) -> bool {
        self.0.abs() >= Self::MATE_BOUND.0 && self.0.abs() <= Self::MATE.0
    }

    /// For mate scores, moves (not plies) to mate: positive when the side to
    /// move mates, negative when it is mated.
    pub const fn mate_moves(self) -> Option<i32> {
        if !self.is_mate() {
            return None;
        }
        let plies = Self::MATE.0 - self.0.abs();
        let moves = (plies + 1) / 2;
        Some(if self.0 > 0 { moves } else { -moves })
    }

    /// The raw value.
    #[inline(always)]
    pub const fn value(self) -> i32 {
        self.0
    }

    /// The same score from the other side's point of view (plain negation;
    /// searches adjust mate distances by ply themselves).
    #[inline(always)]
    pub const fn flip(self) -> Score {
        Score(-self.0)
    }

    /// The UCI form: `cp 35` or `mate 3` / `mate -2`.
    pub fn uci(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Score {
    /// UCI form: `cp N` or `mate N`. A tablebase win found n plies from
    /// the root is `cp 20000 - n` (a loss `cp -20000 + n`): never a mate,
    /// above every evaluation, as GUIs expect from engines with tables.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.mate_moves() {
            return write!(f, "mate {m}");
        }
        if self.is_tb() {
            let plies = Self::TB_WIN.0 - self.0.abs();
            return write!(f, "cp {}", self.0.signum() * (20_000 - plies));
        }
        write!(f, "cp {}", self.0)
    }
}

impl Neg for Score {
    type Output = Score;
    #[inline(always)]
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

impl Add for Score {
    type Output = Score;
    #[inline(always)]
    fn add(self, o: Score) -> Score {
        Score(self.0 + o.0)
    }
}

impl Sub for Score {
    type Output = Score;
    #[inline(always)]
    fn sub(self, o: Score) -> Score {
        Score(self.0 - o.0)
    }
}

impl Add<i32> for Score {
    type Output = Score;
    #[inline(always)]
    fn add(self, o: i32) -> Score {
        Score(self.0 + o)
    }
}

impl Sub<i32> for Score {
    type Output = Score;
    #[inline(always)]
    fn sub(self, o: i32) -> Score {
        Score(self.0 - o)
    }
}

impl AddAssign for Score {
    #[inline(always)]
    fn add_assign(&mut self, o: Score) {
        self.0 += o.0;
    }
}

impl SubAssign for Score {
    #[inline(always)]
    fn sub_assign(&mut self, o: Score) {
        self.0 -= o.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_format() {
        assert_eq!(Score::cp(35).to_string(), "cp 35");
        assert_eq!(Score::mate_in(1).to_string(), "mate 1");
        assert_eq!(Score::mate_in(3).to_string(), "mate 2");
        assert_eq!(Score::mated_in(2).to_string(), "mate -1");
        assert_eq!(Score::mated_in(0).to_string(), "mate 0");
        assert!(!Score::cp(500).is_mate());
        assert!(Score::mate_in(40).is_mate());
        assert!(!Score::INFINITE.is_mate());
    }

    #[test]
    fn tablebase_scores_are_decisive_but_not_mates() {
        let win = Score::tb_win_in(7);
        assert!(win.is_tb() && win.is_decisive() && !win.is_mate());
        assert!((-win).is_tb());
        assert_eq!(win.mate_moves(), None);
        assert_eq!(win.to_string(), "cp 19993");
        assert_eq!(Score::tb_loss_in(4).to_string(), "cp -19996");
        // Between the evaluations and the mates, and distinct from both.
        assert!(Score::MATE_BOUND.is_decisive());
        assert!(Score::tb_win_in(400) > Score::MATE_BOUND);
        assert!(Score::mate_in(499) > Score::TB_WIN);
        assert!(Score::mate_in(100).is_mate() && Score::mate_in(100).is_decisive());
        assert!(!Score::mate_in(100).is_tb());
        assert!(!Score::cp(30_000).is_decisive());
    }
}
