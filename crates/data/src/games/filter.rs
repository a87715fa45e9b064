//! Which positions of a game are training positions: decided when the data
//! is read, each rule a setting.

use super::{Entry, NO_SCORE};
use crate::score::is_mate;
use fianchetto_board::{Bitboards, Board};
use std::fmt;
use std::str::FromStr;

/// Why a position is not a training position (the first rule that applies,
/// in this order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Skip {
    /// The entry has no score ([`NO_SCORE`]: marked by `dedup`).
    NoScore = 0,
    /// Among the first plies of the game.
    Opening = 1,
    /// The side to move is in check.
    InCheck = 2,
    /// The move played (the search's best) captures or promotes: the score
    /// reflects a tactic a static evaluation cannot see.
    Tactical = 3,
    /// A mate score.
    Mate = 4,
    /// The score is beyond the bound.
    ScoreBound = 5,
}

impl Skip {
    /// Every reason, in the order the rules are tried.
    pub const ALL: [Skip; 6] = [
        Skip::NoScore,
        Skip::Opening,
        Skip::InCheck,
        Skip::Tactical,
        Skip::Mate,
        Skip::ScoreBound,
    ];

    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Skip::NoScore => "no score",
            Skip::Opening => "first plies",
            Skip::InCheck => "in check",
            Skip::Tactical => "capture/promotion",
            Skip::Mate => "mate score",
            Skip::ScoreBound => "beyond score bound",
        }
    }
}

/// The rules that pick training positions out of games. The default is
/// what `datagen` used to apply when it wrote marlinformat: no position in
/// check, none whose move is a capture or promotion, no mate scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Filter {
    /// Skip positions whose side to move is in check.
    pub in_check: bool,
    /// Skip positions whose move (the search's best) captures or promotes.
    pub tactical: bool,
    /// Skip mate scores.
    pub mates: bool,
    /// Skip the first this many entries of every game (the positions just
    /// after the random opening plies).
    pub first_plies: u32,
    /// Skip positions whose score is beyond ± this (centipawns).
    pub max_score: Option<u16>,
}

impl Default for Filter {
    fn default() -> Filter {
        Filter {
            in_check: true,
            tactical: true,
            mates: true,
            first_plies: 0,
            max_score: None,
        }
    }
}

impl Filter {
    /// Keeps every position that has a score.
    pub const NONE: Filter = Filter {
        in_check: false,
        tactical: false,
        mates: false,
        first_plies: 0,
        max_score: None,
    };

    /// Why the position of entry `index` (`board`, `entry`) is skipped, or
    /// `None` when it is a training position.
    pub fn skip(&self, index: usize, board: &Bitboards, entry: Entry) -> Option<Skip> {
        let score = entry.score as i32;
        if entry.score == NO_SCORE {
            Some(Skip::NoScore)
        } else if (index as u64) < self.first_plies as u64 {
            Some(Skip::Opening)
        } else if self.in_check && board.in_check() {
            Some(Skip::InCheck)
        } else if self.tactical && !entry.mv.is_quiet() {
            Some(Skip::Tactical)
        } else if self.mates && is_mate(entry.score) {
            Some(Skip::Mate)
        } else if self.max_score.is_some_and(|m| score.abs() > m as i32) {
            Some(Skip::ScoreBound)
        } else {
            None
        }
    }
}

/// The filter as its rules' names: `check,tactical,mates,first=8,max-score=2000`,
/// or `none`.
impl fmt::Display for Filter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rules = Vec::new();
        if self.in_check {
            rules.push("check".to_string());
        }
        if self.tactical {
            rules.push("tactical".to_string());
        }
        if self.mates {
            rules.push("mates".to_string());
        }
        if self.first_plies > 0 {
            rules.push(format!("first={}", self.first_plies));
        }
        if let Some(m) = self.max_score {
            rules.push(format!("max-score={m}"));
        }
        if rules.is_empty() {
            f.write_str("none")
        } else {
            f.write_str(&rules.join(","))
        }
    }
}

/// A filter written the way [`Filter`]'s `Display` writes it is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a filter rule; rules are check, tactical, mates, first=N, max-score=CP, separated by commas, or none")]
pub struct FilterError(pub String);

impl FromStr for Filter {
    type Err = FilterError;

    /// Parses `none`, or rules separated by commas: `check` (skip positions
    /// in check), `tactical` (skip captures and promotions as best move),
    /// `mates` (skip mate scores), `first=N` (skip each game's first N
    /// positions), `max-score=CP` (skip |score| > CP).
    fn from_str(text: &str) -> Result<Filter, FilterError> {
        let mut filter = Filter::NONE;
        if text.trim() == "none" {
            return Ok(filter);
        }
        for rule in text.split(',').map(str::trim) {
            let bad = || FilterError(rule.to_string());
            match rule.split_once('=') {
                None if rule == "check" => filter.in_check = true,
                None if rule == "tactical" => filter.tactical = true,
                None if rule == "mates" => filter.mates = true,
                Some(("first", n)) => filter.first_plies = n.parse().map_err(|_| bad())?,
                Some(("max-score", n)) => filter.max_score = Some(n.parse().map_err(|_| bad())?),
                _ => return Err(bad()),
            }
        }
        Ok(filter)
    }
}

/// How many positions a filter kept and skipped, by reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct FilterCounts {
    /// Positions kept.
    pub kept: u64,
    /// Positions skipped, indexed by [`Skip`] as `usize`.
    pub skipped: [u64; Skip::ALL.len()],
}

impl FilterCounts {
    /// Adds `other`'s counts.
    pub fn add(&mut self, other: &FilterCounts) {
        self.kept += other.kept;
        for (a, b) in self.skipped.iter_mut().zip(other.skipped) {
            *a += b;
        }
    }

    /// Positions seen.
    pub fn total(&self) -> u64 {
        self.kept + self.skipped.iter().sum::<u64>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fianchetto_board::Move;

    #[test]
    fn filters_read_back_what_they_write() {
        for filter in [
            Filter::default(),
            Filter::NONE,
            Filter {
                first_plies: 8,
                max_score: Some(2000),
                ..Filter::default()
            },
        ] {
            assert_eq!(filter.to_string().parse::<Filter>(), Ok(filter));
        }
        assert_eq!(Filter::default().to_string(), "check,tactical,mates");
        assert!("check,mate".parse::<Filter>().is_err());
        assert!("first=x".parse::<Filter>().is_err());
        assert!("max-score=-3".parse::<Filter>().is_err());
    }
    use fianchetto_movegen::uci::parse_uci;

    #[test]
    fn each_rule_is_a_setting() {
        let quiet_pos = Bitboards::startpos();
        let e4 = parse_uci(&quiet_pos, "e2e4").unwrap();
        let check =
            Bitboards::from_fen("rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2")
                .unwrap();
        let capture_pos =
            Bitboards::from_fen("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
                .unwrap();
        let exd5 = parse_uci(&capture_pos, "e4d5").unwrap();
        let entry = |mv, score| Entry { mv, score };
        let all = Filter::default();
        let none = Filter::NONE;

        assert_eq!(all.skip(0, &quiet_pos, entry(e4, 20)), None);
        assert_eq!(
            all.skip(5, &check, entry(Move::NULL, 20)),
            Some(Skip::InCheck)
        );
        assert_eq!(none.skip(5, &check, entry(Move::NULL, 20)), None);
        assert_eq!(
            all.skip(5, &capture_pos, entry(exd5, 20)),
            Some(Skip::Tactical)
        );
        assert_eq!(none.skip(5, &capture_pos, entry(exd5, 20)), None);
        assert_eq!(
            all.skip(5, &quiet_pos, entry(e4, -31_990)),
            Some(Skip::Mate)
        );
        assert_eq!(none.skip(5, &quiet_pos, entry(e4, -31_990)), None);
        assert_eq!(
            none.skip(5, &quiet_pos, entry(e4, NO_SCORE)),
            Some(Skip::NoScore)
        );
        let first = Filter {
            first_plies: 8,
            ..Filter::NONE
        };
        assert_eq!(first.skip(7, &quiet_pos, entry(e4, 0)), Some(Skip::Opening));
        assert_eq!(first.skip(8, &quiet_pos, entry(e4, 0)), None);
        let bound = Filter {
            max_score: Some(1000),
            ..Filter::NONE
        };
        assert_eq!(bound.skip(9, &quiet_pos, entry(e4, 1000)), None);
        assert_eq!(
            bound.skip(9, &quiet_pos, entry(e4, -1001)),
            Some(Skip::ScoreBound)
        );
    }
}
