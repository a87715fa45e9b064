//! The engine's UCI options: their declarations (what `uci` prints) and
//! checked assignment (what `setoption` does). A bad value is refused with a
//! reason and the option keeps its old value.

use crate::backend::Backend;
use fianchetto_eval::Tunable;
use fianchetto_search::pvs::SearchParams;

/// Search algorithms the `Algorithm` option offers (the names of
/// [`crate::searchers::Algo`]).
pub const ALGORITHMS: &[&str] = &["pvs", "alphabeta", "scout", "minimax", "mcts"];
/// Evaluations the `Evaluation` option offers.
pub const EVALUATIONS: &[&str] = &["nnue", "classical", "buhochess", "material"];

/// Lowest and highest `UCI_Elo`.
pub const ELO_RANGE: (i64, i64) = (800, 2800);

/// Every option's current value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Transposition table size in MB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Principal variations to report.
    pub multipv: usize,
    /// Whether the GUI may send `go ponder`.
    pub ponder: bool,
    /// Time kept back from every move for communication delays, in ms.
    pub move_overhead_ms: u64,
    /// Search algorithm name (one of [`ALGORITHMS`]).
    pub algorithm: String,
    /// Evaluation name (one of [`EVALUATIONS`]).
    pub evaluation: String,
    /// The network NNUE runs: a file, or [`crate::evals::EMBEDDED`].
    pub eval_file: String,
    /// `EvalWeights`: a file of weights (`name value` lines, what `tune
    /// texel` writes) over the hand-crafted evaluations' own; empty for
    /// none. NNUE and material have no weights and ignore it.
    pub eval_weights: String,
    /// Board backend.
    pub backend: Backend,
    /// Whether to play below full strength.
    pub limit_strength: bool,
    /// Target strength when limited.
    pub elo: i64,
    /// `UCI_Chess960`: FENs are read with X-FEN/Shredder-FEN castling and
    /// castling moves are written (and preferably read) as king takes rook.
    pub chess960: bool,
    /// `OwnBook`: answer `go` from the Polyglot book of `book_file` when
    /// the position is in it.
    pub own_book: bool,
    /// `BookFile`: the Polyglot book (`.bin`) file; empty for none.
    pub book_file: String,
    /// `BookBestMove`: play the book's highest-weighted move instead of a
    /// weighted random choice.
    pub book_best_move: bool,
    /// The search's tunables, one spin option each under its own name
    /// ([`SearchParams::ENTRIES`]), for SPSA tuning through UCI.
    pub search_params: SearchParams,
    /// `SyzygyPath`: directories of Syzygy tables separated by `:` (`;` on
    /// Windows); empty for none.
    pub syzygy_path: String,
    /// `SyzygyProbeDepth`: the least depth at which the search probes.
    pub syzygy_probe_depth: i64,
    /// `Syzygy50MoveRule`: cursed wins and blessed losses are draws.
    pub syzygy_50_move_rule: bool,
    /// `SyzygyProbeLimit`: probe positions of at most this many pieces.
    pub syzygy_probe_limit: i64,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            hash_mb: 64,
            threads: 1,
            multipv: 1,
            ponder: false,
            move_overhead_ms: 10,
            algorithm: "pvs".into(),
            evaluation: "nnue".into(),
            eval_file: crate::evals::EMBEDDED.into(),
            eval_weights: String::new(),
            backend: Backend::Bitboard,
            limit_strength: false,
            elo: ELO_RANGE.1,
            chess960: false,
            own_book: false,
            book_file: String::new(),
            book_best_move: false,
            search_params: SearchParams::default(),
            syzygy_path: String::new(),
            syzygy_probe_depth: 1,
            syzygy_50_move_rule: true,
            syzygy_probe_limit: 7,
        }
    }
}

/// What a `setoption` asked for, once applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Applied {
    /// A value changed.
    Set,
    /// The `Clear Hash` button: the caller clears the table.
    ClearHash,
    /// The hash size changed: the caller resizes the table.
    ResizeHash,
    /// `EvalFile` changed: the caller loads the network, and puts the old
    /// value back if the file is refused.
    EvalFile,
    /// `EvalWeights` changed: the caller reads the weights (or drops them
    /// for an empty name), and puts the old value back if the file is
    /// refused.
    EvalWeights,
    /// `BookFile` changed: the caller loads the book (or drops it for an
    /// empty name), and puts the old value back if the file is refused.
    BookFile,
    /// `SyzygyPath` changed: the caller loads the tables (or drops them for
    /// an empty path), and puts the old value back if a directory is refused.
    SyzygyPath,
}

/// Why a `setoption` was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// No such option.
    #[error("no option named `{0}` (see the list `uci` prints)")]
    Unknown(String),
    /// The option needs a value.
    #[error("option `{0}` needs `value <...>`")]
    MissingValue(String),
    /// A number out of range or not a number.
    #[error("option `{name}` takes a whole number from {min} to {max}, got `{value}`")]
    Spin {
        /// Option.
        name: &'static str,
        /// Text given.
        value: String,
        /// Lowest.
        min: i64,
        /// Highest.
        max: i64,
    },
    /// Not `true`/`false`.
    #[error("option `{name}` takes true or false, got `{value}`")]
    Check {
        /// Option.
        name: &'static str,
        /// Text given.
        value: String,
    },
    /// Not one of the choices.
    #[error("option `{name}` takes one of {choices}, got `{value}`")]
    Combo {
        /// Option.
        name: &'static str,
        /// Text given.
        value: String,
        /// The choices, comma-separated.
        choices: String,
    },
}

fn spin(name: &'static str, value: Option<&str>, min: i64, max: i64) -> Result<i64, OptionError> {
    let v = value.ok_or_else(|| OptionError::MissingValue(name.into()))?;
    match v.trim().parse::<i64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(OptionError::Spin {
            name,
            value: v.into(),
            min,
            max,
        }),
    }
}

fn check(name: &'static str, value: Option<&str>) -> Result<bool, OptionError> {
    let v = value.ok_or_else(|| OptionError::MissingValue(name.into()))?;
    match v.trim().to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(OptionError::Check {
            name,
            value: v.into(),
        }),
    }
}

fn combo(name: &'static str, value: Option<&str>, choices: &[&str]) -> Result<String, OptionError> {
    let v = value.ok_or_else(|| OptionError::MissingValue(name.into()))?;
    choices
        .iter()
        .find(|c| c.eq_ignore_ascii_case(v.trim()))
        .map(|c| c.to_string())
        .ok_or_else(|| OptionError::Combo {
            name,
            value: v.into(),
            choices: choices.join(", "),
        })
}

impl EngineOptions {
    /// The `option ...` lines `uci` prints.
    pub fn declarations(&self) -> Vec<String> {
        let combo_line = |name: &str, default: &str, vars: &[&str]| {
            let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
            format!("option name {name} type combo default {default}{vars}")
        };
        let backends: Vec<&str> = Backend::ALL.iter().map(|b| b.name()).collect();
        let d = EngineOptions::default();
        vec![
            format!(
                "option name Hash type spin default {} min 1 max 65536",
                d.hash_mb
            ),
            format!(
                "option name Threads type spin default {} min 1 max 256",
                d.threads
            ),
            format!(
                "option name MultiPV type spin default {} min 1 max 256",
                d.multipv
            ),
            format!("option name Ponder type check default {}", d.ponder),
            format!(
                "option name Move Overhead type spin default {} min 0 max 5000",
                d.move_overhead_ms
            ),
            "option name Clear Hash type button".to_string(),
            combo_line("Algorithm", &d.algorithm, ALGORITHMS),
            combo_line("Evaluation", &d.evaluation, EVALUATIONS),
            format!("option name EvalFile type string default {}", d.eval_file),
            "option name EvalWeights type string default <empty>".to_string(),
            combo_line("Backend", d.backend.name(), &backends),
            format!(
                "option name UCI_LimitStrength type check default {}",
                d.limit_strength
            ),
            format!(
                "option name UCI_Elo type spin default {} min {} max {}",
                d.elo, ELO_RANGE.0, ELO_RANGE.1
            ),
            format!("option name UCI_Chess960 type check default {}", d.chess960),
            format!("option name OwnBook type check default {}", d.own_book),
            // An empty string default is written `<empty>`, as GUIs expect.
            "option name BookFile type string default <empty>".to_string(),
            format!(
                "option name BookBestMove type check default {}",
                d.book_best_move
            ),
            "option name SyzygyPath type string default <empty>".to_string(),
            format!(
                "option name SyzygyProbeDepth type spin default {} min 1 max 100",
                d.syzygy_probe_depth
            ),
            format!(
                "option name Syzygy50MoveRule type check default {}",
                d.syzygy_50_move_rule
            ),
            format!(
                "option name SyzygyProbeLimit type spin default {} min 0 max 7",
                d.syzygy_probe_limit
            ),
        ]
        .into_iter()
        .chain(SearchParams::ENTRIES.iter().map(|e| {
            format!(
                "option name {} type spin default {} min {} max {}",
                e.name, e.default, e.min, e.max
            )
        }))
        .collect()
    }

    /// Applies `setoption name <name> value <value>`. Names are matched
    /// without regard to case, as the protocol asks.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Applied, OptionError> {
        match name.trim().to_ascii_lowercase().as_str() {
            "hash" => {
                self.hash_mb = spin("Hash", value, 1, 65536)? as usize;
                return Ok(Applied::ResizeHash);
            }
            "threads" => self.threads = spin("Threads", value, 1, 256)? as usize,
            "multipv" => self.multipv = spin("MultiPV", value, 1, 256)? as usize,
            "ponder" => self.ponder = check("Ponder", value)?,
            "move overhead" => {
                self.move_overhead_ms = spin("Move Overhead", value, 0, 5000)? as u64
            }
            "clear hash" => return Ok(Applied::ClearHash),
            "algorithm" => self.algorithm = combo("Algorithm", value, ALGORITHMS)?,
            "evaluation" => self.evaluation = combo("Evaluation", value, EVALUATIONS)?,
            "evalfile" => {
                self.eval_file = match value.map(str::trim) {
                    Some(v) if !v.is_empty() => v.to_string(),
                    _ => crate::evals::EMBEDDED.to_string(),
                };
                return Ok(Applied::EvalFile);
            }
            "backend" => {
                let names: Vec<&str> = Backend::ALL.iter().map(|b| b.name()).collect();
                let chosen = combo("Backend", value, &names)?;
                self.backend = chosen.parse().unwrap_or_default();
            }
            "uci_limitstrength" => self.limit_strength = check("UCI_LimitStrength", value)?,
            "uci_elo" => self.elo = spin("UCI_Elo", value, ELO_RANGE.0, ELO_RANGE.1)?,
            "uci_chess960" => self.chess960 = check("UCI_Chess960", value)?,
            "ownbook" => self.own_book = check("OwnBook", value)?,
            "evalweights" => {
                self.eval_weights = file_name(value);
                return Ok(Applied::EvalWeights);
            }
            "bookfile" => {
                self.book_file = file_name(value);
                return Ok(Applied::BookFile);
            }
            "bookbestmove" => self.book_best_move = check("BookBestMove", value)?,
            "syzygypath" => {
                self.syzygy_path = file_name(value);
                return Ok(Applied::SyzygyPath);
            }
            "syzygyprobedepth" => {
                self.syzygy_probe_depth = spin("SyzygyProbeDepth", value, 1, 100)?
            }
            "syzygy50moverule" => self.syzygy_50_move_rule = check("Syzygy50MoveRule", value)?,
            "syzygyprobelimit" => self.syzygy_probe_limit = spin("SyzygyProbeLimit", value, 0, 7)?,
            other => {
                // A search tunable (names are lower case already).
                let Some(e) = SearchParams::ENTRIES.iter().find(|e| e.name == other) else {
                    return Err(OptionError::Unknown(name.to_string()));
                };
                let v = spin(e.name, value, e.min as i64, e.max as i64)? as i32;
                self.search_params
                    .set_value(e.name, v)
                    .map_err(|_| OptionError::Spin {
                        name: e.name,
                        value: v.to_string(),
                        min: e.min as i64,
                        max: e.max as i64,
                    })?;
            }
        }
        Ok(Applied::Set)
    }
}

/// A file option's value: the name given, or empty for none (no value,
/// blanks or `<empty>`, the default GUIs show).
fn file_name(value: Option<&str>) -> String {
    match value.map(str::trim) {
        Some(v) if !v.is_empty() && v != "<empty>" => v.to_string(),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn algorithm_names_are_the_searchers() {
        let names: Vec<&str> = crate::searchers::Algo::ALL
            .iter()
            .map(|a| a.name())
            .collect();
        assert_eq!(names, ALGORITHMS);
    }

    #[test]
    fn set_and_refuse() {
        let mut o = EngineOptions::default();
        assert_eq!(o.set("hash", Some("128")), Ok(Applied::ResizeHash));
        assert_eq!(o.hash_mb, 128);
        assert!(o.set("Hash", Some("0")).is_err());
        assert!(o.set("Hash", Some("lots")).is_err());
        assert_eq!(o.hash_mb, 128);
        assert_eq!(o.set("Algorithm", Some("AlphaBeta")), Ok(Applied::Set));
        assert_eq!(o.algorithm, "alphabeta");
        assert!(matches!(
            o.set("Algorithm", Some("random")),
            Err(OptionError::Combo { .. })
        ));
        assert!(matches!(
            o.set("Colour", Some("blue")),
            Err(OptionError::Unknown(_))
        ));
        assert!(matches!(
            o.set("Threads", None),
            Err(OptionError::MissingValue(_))
        ));
        assert_eq!(o.set("Clear Hash", None), Ok(Applied::ClearHash));
        assert_eq!(o.set("Ponder", Some("true")), Ok(Applied::Set));
        assert!(o.ponder);
        assert!(o
            .declarations()
            .iter()
            .any(|l| l.starts_with("option name UCI_Elo type spin")));
        assert!(o
            .declarations()
            .iter()
            .any(|l| l == "option name UCI_Chess960 type check default false"));
        assert_eq!(o.set("uci_chess960", Some("TRUE")), Ok(Applied::Set));
        assert!(o.chess960);
        assert!(matches!(
            o.set("UCI_Chess960", Some("yes")),
            Err(OptionError::Check { .. })
        ));
        assert!(o.chess960);
    }

    #[test]
    fn search_tunables_are_spin_options() {
        let mut o = EngineOptions::default();
        let lines = o.declarations();
        for e in SearchParams::ENTRIES {
            let line = format!(
                "option name {} type spin default {} min {} max {}",
                e.name, e.default, e.min, e.max
            );
            assert!(lines.contains(&line), "{line}");
        }
        assert_eq!(o.set("RFP_Margin", Some("95")), Ok(Applied::Set));
        assert_eq!(o.search_params.rfp_margin, 95);
        assert!(matches!(
            o.set("rfp_margin", Some("100000")),
            Err(OptionError::Spin { .. })
        ));
        assert!(o.set("rfp_margin", Some("many")).is_err());
        assert!(o.set("rfp_margin", None).is_err());
        assert_eq!(o.search_params.rfp_margin, 95);
    }

    #[test]
    fn book_options() {
        let mut o = EngineOptions::default();
        let lines = o.declarations();
        assert!(lines.contains(&"option name OwnBook type check default false".to_string()));
        assert!(lines.contains(&"option name BookFile type string default <empty>".to_string()));
        assert_eq!(o.set("OwnBook", Some("true")), Ok(Applied::Set));
        assert!(o.own_book);
        assert!(o.set("ownbook", Some("maybe")).is_err());
        assert!(o.own_book);
        assert_eq!(
            o.set("BookFile", Some(" books/my book.bin ")),
            Ok(Applied::BookFile)
        );
        assert_eq!(o.book_file, "books/my book.bin");
        assert_eq!(o.set("BookFile", Some("<empty>")), Ok(Applied::BookFile));
        assert_eq!(o.book_file, "");
        assert_eq!(o.set("BookFile", None), Ok(Applied::BookFile));
        assert_eq!(o.set("BookBestMove", Some("true")), Ok(Applied::Set));
        assert!(o.book_best_move);
    }
}
