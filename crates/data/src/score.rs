//! What a stored score is: an `i16` in centipawns from white's point of
//! view (in both formats), mates at ±[`MATE_BOUND`] and beyond, and
//! [`NO_SCORE`](crate::games::NO_SCORE) in the games format for a position
//! that is not a training position.
//!
//! The search writes a mate in `n` plies as `32 000 − n` (being mated as
//! its negation) and a tablebase win found `n` plies from the root as
//! `31 500 − n`; its evaluations stay below 31 000. So every score at or
//! beyond ±31 000 decides the game (a mate, or a tablebase win or loss: the
//! data calls both "mate scores"), and every other score is centipawns.
//!
//! ```
//! use fianchetto_data::score::{is_mate, MATE_BOUND};
//!
//! assert!(is_mate(31_990)); // white mates in 10 plies
//! assert!(is_mate(-MATE_BOUND)); // black mates, as deep as a mate can be
//! assert!(!is_mate(30_999));
//! assert!(!is_mate(-250));
//! ```

/// The smallest |score| that is a mate score: 31 000 (the search's mate
/// score, 32 000, less 1 000 plies; `fianchetto_eval::Score::MATE_BOUND`).
pub const MATE_BOUND: i16 = 31_000;

/// Whether the stored `score` is a mate score (|score| ≥ [`MATE_BOUND`]):
/// a mate or a tablebase result, for either side.
/// [`NO_SCORE`](crate::games::NO_SCORE) (`i16::MIN`) counts as one: test
/// for it first where it can occur.
pub const fn is_mate(score: i16) -> bool {
    (score as i32).abs() >= MATE_BOUND as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bound_is_the_first_mate() {
        assert!(is_mate(MATE_BOUND) && is_mate(-MATE_BOUND));
        assert!(!is_mate(MATE_BOUND - 1) && !is_mate(1 - MATE_BOUND));
        assert!(is_mate(i16::MAX) && is_mate(i16::MIN));
        assert!(!is_mate(0));
    }
}
