//! The engine's UCI options, declared once: [`table`] holds each option's
//! name, type, default, range or choices, what it does, and which setting it
//! changes. `uci` prints the table, `setoption` checks a value against the
//! same declaration (with [`fianchetto_uci::UciOption::check_value`]) before
//! the table's setter commits it, and [`EngineOptions::default`] is every
//! declared default applied in turn, so a default cannot differ from what
//! `uci` announces. A bad value is refused with a reason and the option
//! keeps its old value.

use crate::backend::Backend;
use crate::evals::EvalName;
use crate::searchers::Algo;
use fianchetto_eval::Tunable;
use fianchetto_search::mcts::MctsConfig;
use fianchetto_search::pvs::{PvsConfig, SearchParams};
pub use fianchetto_uci::OptionError;
use fianchetto_uci::{OptionKind, OptionValue, UciOption};
use std::sync::LazyLock;

pub use fianchetto_search::strength::ELO_RANGE;

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
    /// The search algorithm.
    pub algorithm: Algo,
    /// The evaluation.
    pub evaluation: EvalName,
    /// The network NNUE runs: a file, or [`crate::evals::EMBEDDED`].
    pub eval_file: String,
    /// `MctsCPuct`: PUCT's exploration constant, in hundredths.
    pub mcts_cpuct: u32,
    /// `MctsPolicyTemp`: the softmax temperature of the policy, in
    /// hundredths.
    pub mcts_policy_temp: u32,
    /// `MctsHistory`: the weight of a move's history in the priors, in
    /// hundredths.
    pub mcts_history: u32,
    /// `MctsValueScale`: the centipawns of the value sigmoid
    /// (`p = 1 / (1 + e^(-cp / scale))`).
    pub mcts_value_scale: u32,
    /// `MctsNetWeight`: the policy network's weight in the blend with the
    /// hand-written policy, in hundredths.
    pub mcts_net_weight: u32,
    /// `PolicyFile`: the policy network of `Algorithm mcts`: a file,
    /// `<embedded>` or `<hand>` (the hand-written move ordering).
    pub policy_file: String,
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
    /// PVS's feature switches, one check option each under its name
    /// ([`PvsConfig::FEATURES`]), so that a match can test a feature on
    /// against off with one build. Only the switches are read from it:
    /// threads, table and tunables come from their own options.
    pub switches: PvsConfig,
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
    /// The defaults the [`table`] declares.
    fn default() -> EngineOptions {
        // Placeholders only: every field is set from the table just below
        // (a test checks that each option's value is its declared default).
        let mut options = EngineOptions {
            hash_mb: 0,
            threads: 0,
            multipv: 0,
            ponder: false,
            move_overhead_ms: 0,
            algorithm: Algo::Pvs,
            evaluation: EvalName::Nnue,
            eval_file: String::new(),
            policy_file: String::new(),
            mcts_cpuct: 0,
            mcts_policy_temp: 0,
            mcts_history: 0,
            mcts_value_scale: 0,
            mcts_net_weight: 0,
            eval_weights: String::new(),
            backend: Backend::Bitboard,
            limit_strength: false,
            elo: 0,
            chess960: false,
            own_book: false,
            book_file: String::new(),
            book_best_move: false,
            search_params: SearchParams::default(),
            switches: PvsConfig::default(),
            syzygy_path: String::new(),
            syzygy_probe_depth: 0,
            syzygy_50_move_rule: false,
            syzygy_probe_limit: 0,
        };
        for entry in table() {
            // A declared default always fits its own declaration.
            let _ = (entry.apply)(&mut options, entry.decl.default_value());
        }
        options
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
    /// `PolicyFile` changed: the caller loads the policy network, and puts
    /// the old value back if the file is refused.
    PolicyFile,
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

/// Sets a checked value on the options.
type Setter =
    Box<dyn Fn(&mut EngineOptions, OptionValue) -> Result<Applied, OptionError> + Send + Sync>;

/// One UCI option of the engine.
pub struct OptionEntry {
    /// What `uci` prints: name, type, default and range or choices.
    pub decl: UciOption,
    /// What it does (for listings and documentation).
    pub doc: &'static str,
    /// Commits a value that the declaration accepted.
    apply: Setter,
}

impl std::fmt::Debug for OptionEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OptionEntry")
            .field("decl", &self.decl)
            .field("doc", &self.doc)
            .finish_non_exhaustive()
    }
}

/// The error for a value of another type than the declaration's (the
/// declaration checked it first, so this does not happen).
fn wrong_type(name: &str, expected: &'static str, value: &OptionValue) -> OptionError {
    OptionError::WrongType {
        name: name.to_string(),
        expected,
        given: value.type_name(),
    }
}

fn spin(
    name: &'static str,
    (default, min, max): (i64, i64, i64),
    doc: &'static str,
    set: fn(&mut EngineOptions, i64) -> Applied,
) -> OptionEntry {
    OptionEntry {
        decl: UciOption::new(name, OptionKind::Spin { default, min, max }),
        doc,
        apply: Box::new(move |o, v| {
            let n = v.as_int().ok_or_else(|| wrong_type(name, "spin", &v))?;
            Ok(set(o, n))
        }),
    }
}

fn check(
    name: &'static str,
    default: bool,
    doc: &'static str,
    set: fn(&mut EngineOptions, bool),
) -> OptionEntry {
    OptionEntry {
        decl: UciOption::new(name, OptionKind::Check { default }),
        doc,
        apply: Box::new(move |o, v| {
            set(o, v.as_bool().ok_or_else(|| wrong_type(name, "check", &v))?);
            Ok(Applied::Set)
        }),
    }
}

fn string(
    name: &'static str,
    default: &str,
    doc: &'static str,
    set: fn(&mut EngineOptions, String) -> Applied,
) -> OptionEntry {
    OptionEntry {
        decl: UciOption::new(
            name,
            OptionKind::String {
                default: default.to_string(),
            },
        ),
        doc,
        apply: Box::new(move |o, v| {
            let text = v.as_str().ok_or_else(|| wrong_type(name, "string", &v))?;
            Ok(set(o, text.to_string()))
        }),
    }
}

/// A combo over the values of a type that names itself: the choices are
/// `all`'s names, and a choice is turned back into its value by name, so
/// the names are written once (in the type) and an unknown one is an error.
fn combo<T: Copy + PartialEq + Send + Sync + 'static>(
    name: &'static str,
    (all, default, name_of): (&'static [T], T, fn(T) -> &'static str),
    doc: &'static str,
    set: fn(&mut EngineOptions, T),
) -> OptionEntry {
    let vars: Vec<String> = all.iter().map(|&t| name_of(t).to_string()).collect();
    let choices = vars.join(", ");
    OptionEntry {
        decl: UciOption::new(
            name,
            OptionKind::Combo {
                default: name_of(default).to_string(),
                vars,
            },
        ),
        doc,
        apply: Box::new(move |o, v| {
            let text = v.as_str().ok_or_else(|| wrong_type(name, "combo", &v))?;
            let chosen = all
                .iter()
                .copied()
                .find(|&t| name_of(t).eq_ignore_ascii_case(text))
                .ok_or_else(|| OptionError::Combo {
                    name: name.to_string(),
                    value: text.to_string(),
                    choices: choices.clone(),
                })?;
            set(o, chosen);
            Ok(Applied::Set)
        }),
    }
}

/// A search tunable as a spin option under its own name.
fn tunable(e: &'static fianchetto_search::pvs::ParamInfo) -> OptionEntry {
    OptionEntry {
        decl: UciOption::new(
            e.name,
            OptionKind::Spin {
                default: e.default.into(),
                min: e.min.into(),
                max: e.max.into(),
            },
        ),
        doc: e.doc,
        apply: Box::new(move |o, v| {
            let n = v.as_int().ok_or_else(|| wrong_type(e.name, "spin", &v))?;
            let out_of_range = || OptionError::Spin {
                name: e.name.to_string(),
                value: n.to_string(),
                min: e.min.into(),
                max: e.max.into(),
            };
            let n = i32::try_from(n).map_err(|_| out_of_range())?;
            o.search_params
                .set_value(e.name, n)
                .map_err(|_| out_of_range())?;
            Ok(Applied::Set)
        }),
    }
}

/// A PVS feature switch as a check option under its own name.
fn switch(&(name, help): &'static (&'static str, &'static str)) -> OptionEntry {
    OptionEntry {
        decl: UciOption::new(
            name,
            OptionKind::Check {
                default: PvsConfig::default().is_on(name).unwrap_or(false),
            },
        ),
        doc: help,
        apply: Box::new(move |o, v| {
            let on = v.as_bool().ok_or_else(|| wrong_type(name, "check", &v))?;
            // A declared name: `set` cannot fail.
            let _ = o.switches.set(name, on);
            Ok(Applied::Set)
        }),
    }
}

/// The engine's options. File names arrive trimmed, blanks and `<empty>`
/// as the empty string (the declaration's reading of a string value).
fn build_table() -> Vec<OptionEntry> {
    let mut table = vec![
        spin(
            "Hash",
            (64, 1, 65536),
            "Transposition table size in MB (MCTS: its tree).",
            |o, n| {
                o.hash_mb = n as usize;
                Applied::ResizeHash
            },
        ),
        spin(
            "Threads",
            (1, 1, 256),
            "Search threads (Lazy SMP for PVS, tree-parallel MCTS).",
            |o, n| {
                o.threads = n as usize;
                Applied::Set
            },
        ),
        spin(
            "MultiPV",
            (1, 1, 256),
            "Principal variations to search and report.",
            |o, n| {
                o.multipv = n as usize;
                Applied::Set
            },
        ),
        check(
            "Ponder",
            false,
            "Whether the GUI may send `go ponder`.",
            |o, b| o.ponder = b,
        ),
        spin(
            "Move Overhead",
            (10, 0, 5000),
            "Milliseconds kept back from every move for communication delays.",
            |o, n| {
                o.move_overhead_ms = n as u64;
                Applied::Set
            },
        ),
        OptionEntry {
            decl: UciOption::new("Clear Hash", OptionKind::Button),
            doc: "Empties the transposition table and the histories.",
            apply: Box::new(|_, _| Ok(Applied::ClearHash)),
        },
        combo(
            "Algorithm",
            (&Algo::ALL, Algo::default(), Algo::name),
            "The search algorithm.",
            |o, a| o.algorithm = a,
        ),
        combo(
            "Evaluation",
            (&EvalName::ALL, EvalName::default(), EvalName::name),
            "The evaluation.",
            |o, e| o.evaluation = e,
        ),
        string(
            "EvalFile",
            crate::evals::EMBEDDED,
            "The network NNUE runs: a file, or <embedded> (also for an empty value).",
            |o, file| {
                o.eval_file = if file.is_empty() {
                    crate::evals::EMBEDDED.to_string()
                } else {
                    file
                };
                Applied::EvalFile
            },
        ),
        spin(
            "MctsCPuct",
            ((MctsConfig::puct().exploration * 100.0).round() as i64, 1, 10_000),
            "PUCT's exploration constant c of Algorithm mcts, in hundredths.",
            |o, n| {
                o.mcts_cpuct = n as u32;
                Applied::Set
            },
        ),
        spin(
            "MctsPolicyTemp",
            ((MctsConfig::puct().policy_temperature * 100.0).round() as i64, 1, 10_000),
            "The softmax temperature of Algorithm mcts' policy, in hundredths.",
            |o, n| {
                o.mcts_policy_temp = n as u32;
                Applied::Set
            },
        ),
        spin(
            "MctsHistory",
            ((f64::from(MctsConfig::puct().history_weight) * 100.0).round() as i64, 0, 10_000),
            "How much a move's history in the tree adds to its logit in Algorithm mcts, in hundredths.",
            |o, n| {
                o.mcts_history = n as u32;
                Applied::Set
            },
        ),
        spin(
            "MctsValueScale",
            (MctsConfig::puct().eval_scale.round() as i64, 1, 10_000),
            "Centipawns to win probability in Algorithm mcts: p = 1 / (1 + exp(-cp / scale)).",
            |o, n| {
                o.mcts_value_scale = n as u32;
                Applied::Set
            },
        ),
        spin(
            "MctsNetWeight",
            ((fianchetto_search::mcts::ENGINE_NET_WEIGHT * 100.0).round() as i64, 0, 10_000),
            "The policy network's weight, in hundredths, added to the hand-written policy's logits in Algorithm mcts (0: the hand-written policy alone).",
            |o, n| {
                o.mcts_net_weight = n as u32;
                Applied::Set
            },
        ),
        string(
            "PolicyFile",
            fianchetto_eval::policy::EMBEDDED_POLICY_NAME,
            "The policy network of Algorithm mcts: a file, <embedded> (also for an empty value), or <hand> for the hand-written move ordering.",
            |o, file| {
                o.policy_file = if file.is_empty() {
                    fianchetto_eval::policy::EMBEDDED_POLICY_NAME.to_string()
                } else {
                    file
                };
                Applied::PolicyFile
            },
        ),
        string(
            "EvalWeights",
            "",
            "A file of weights (what `tune texel` writes) over the classical and BuhoChess evaluations' own; empty for none.",
            |o, file| {
                o.eval_weights = file;
                Applied::EvalWeights
            },
        ),
        combo(
            "Backend",
            (Backend::ALL, Backend::default(), Backend::name),
            "The board representation.",
            |o, b| o.backend = b,
        ),
        check(
            "UCI_LimitStrength",
            false,
            "Play at the strength of UCI_Elo.",
            |o, b| o.limit_strength = b,
        ),
        spin(
            "UCI_Elo",
            (ELO_RANGE.1, ELO_RANGE.0, ELO_RANGE.1),
            "The strength played with UCI_LimitStrength (a node budget a move).",
            |o, n| {
                o.elo = n;
                Applied::Set
            },
        ),
        check(
            "UCI_Chess960",
            false,
            "Chess960: X-FEN/Shredder-FEN castling rights, castling written as king takes rook.",
            |o, b| o.chess960 = b,
        ),
        check(
            "OwnBook",
            false,
            "Answer from the Polyglot book of BookFile when the position is in it.",
            |o, b| o.own_book = b,
        ),
        string(
            "BookFile",
            "",
            "The Polyglot (.bin) opening book; empty for none.",
            |o, file| {
                o.book_file = file;
                Applied::BookFile
            },
        ),
        check(
            "BookBestMove",
            false,
            "Play the book's highest-weighted move instead of a weighted random choice.",
            |o, b| o.book_best_move = b,
        ),
        string(
            "SyzygyPath",
            "",
            "Directories of Syzygy tables (.rtbw, .rtbz), separated by `:` (`;` on Windows); empty for none.",
            |o, path| {
                o.syzygy_path = path;
                Applied::SyzygyPath
            },
        ),
        spin(
            "SyzygyProbeDepth",
            (1, 1, 100),
            "Probe the tables inside the search from this depth (at the piece limit).",
            |o, n| {
                o.syzygy_probe_depth = n;
                Applied::Set
            },
        ),
        check(
            "Syzygy50MoveRule",
            true,
            "Count the tables' cursed wins and blessed losses as draws.",
            |o, b| o.syzygy_50_move_rule = b,
        ),
        spin(
            "SyzygyProbeLimit",
            (7, 0, 7),
            "Probe the tables for positions of at most this many pieces.",
            |o, n| {
                o.syzygy_probe_limit = n;
                Applied::Set
            },
        ),
    ];
    table.extend(SearchParams::ENTRIES.iter().map(tunable));
    table.extend(PvsConfig::FEATURES.iter().map(switch));
    table
}

static TABLE: LazyLock<Vec<OptionEntry>> = LazyLock::new(build_table);

/// Every option the engine declares, in the order `uci` lists them: the
/// engine's own, then the search's tunables ([`SearchParams::ENTRIES`]),
/// then its feature switches ([`PvsConfig::FEATURES`]).
pub fn table() -> &'static [OptionEntry] {
    &TABLE
}

/// The engine's own options (the search's tunables and switches left out:
/// `fianchetto spsa-params` and `analyse --help` list them) as a Markdown table: what
/// `docs/uci.md` shows, and a test checks that it does.
pub fn options_markdown() -> String {
    let mut out = String::from(
        "| option | type | default | values | what it does |\n|---|---|---|---|---|\n",
    );
    let own = table()
        .iter()
        .filter(|e| !SearchParams::ENTRIES.iter().any(|p| p.name == e.decl.name))
        .filter(|e| !PvsConfig::FEATURES.iter().any(|f| f.0 == e.decl.name));
    for e in own {
        let (default, values) = match &e.decl.kind {
            OptionKind::Check { default } => (default.to_string(), "true, false".to_string()),
            OptionKind::Spin { default, min, max } => {
                (default.to_string(), format!("{min} to {max}"))
            }
            OptionKind::Combo { default, vars } => (default.clone(), vars.join(", ")),
            OptionKind::Button => (String::new(), String::new()),
            OptionKind::String { default } => {
                let what = if e.decl.name.ends_with("Path") {
                    "directories"
                } else {
                    "a file"
                };
                let default = if default.is_empty() {
                    "(empty)".to_string()
                } else {
                    default.clone()
                };
                (default, what.into())
            }
        };
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | {} |\n",
            e.decl.name,
            e.decl.type_name(),
            default.replace('<', "&lt;").replace('>', "&gt;"),
            values,
            e.doc.replace('<', "&lt;").replace('>', "&gt;")
        ));
    }
    out
}

impl EngineOptions {
    /// The declarations `uci` prints.
    pub fn declarations(&self) -> impl Iterator<Item = &'static UciOption> {
        table().iter().map(|e| &e.decl)
    }

    /// Applies `setoption name <name> value <value>`: the value is checked
    /// against the option's declaration first and nothing changes when it
    /// is refused. Names are matched without regard to case, as the
    /// protocol asks.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Applied, OptionError> {
        let entry = table()
            .iter()
            .find(|e| e.decl.is_named(name))
            .ok_or_else(|| OptionError::Unknown(name.trim().to_string()))?;
        let value = entry.decl.check_value(value)?;
        (entry.apply)(self, value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(o: &EngineOptions) -> Vec<String> {
        o.declarations().map(|d| d.to_string()).collect()
    }

    #[test]
    fn one_declaration_each_and_defaults_as_declared() {
        let mut names = std::collections::HashSet::new();
        for e in table() {
            assert!(
                names.insert(e.decl.name.to_ascii_lowercase()),
                "{} twice",
                e.decl.name
            );
            assert!(!e.doc.is_empty(), "{}", e.decl.name);
        }
        // Setting every option to its declared default changes nothing.
        let defaults = EngineOptions::default();
        for e in table() {
            let mut o = defaults.clone();
            let text = e.decl.default_value().to_text();
            assert!(
                o.set(&e.decl.name, text.as_deref()).is_ok(),
                "{}",
                e.decl.name
            );
            assert_eq!(o, defaults, "{}", e.decl.name);
        }
        assert_eq!(defaults.hash_mb, 64);
        assert_eq!(defaults.algorithm, Algo::Pvs);
        assert_eq!(defaults.elo, ELO_RANGE.1);
        assert_eq!(defaults.eval_file, crate::evals::EMBEDDED);
    }

    #[test]
    fn the_docs_show_the_table() {
        let docs = include_str!("../../../../docs/uci.md");
        let table = options_markdown();
        assert!(
            docs.contains(&table),
            "docs/uci.md must hold the options table as the registry writes it:\n{table}"
        );
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
        assert_eq!(o.algorithm, Algo::Alphabeta);
        assert!(matches!(
            o.set("Algorithm", Some("random")),
            Err(OptionError::Combo { .. })
        ));
        assert_eq!(o.set("Evaluation", Some("Material")), Ok(Applied::Set));
        assert_eq!(o.evaluation, EvalName::Material);
        assert!(o.set("Evaluation", Some("")).is_err());
        assert_eq!(o.set("backend", Some("0X88")), Ok(Applied::Set));
        assert_eq!(o.backend, Backend::X88);
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
        assert!(lines(&o)
            .iter()
            .any(|l| l.starts_with("option name UCI_Elo type spin")));
        assert!(lines(&o)
            .iter()
            .any(|l| l == "option name UCI_Chess960 type check default false"));
        assert_eq!(o.set("uci_chess960", Some("TRUE")), Ok(Applied::Set));
        assert!(o.chess960);
        assert!(matches!(
            o.set("UCI_Chess960", Some("yes")),
            Err(OptionError::Check { .. })
        ));
        assert!(o.chess960);
        assert_eq!(o.set("EvalFile", Some("")), Ok(Applied::EvalFile));
        assert_eq!(o.eval_file, crate::evals::EMBEDDED);
    }

    #[test]
    fn the_combos_list_the_typed_names() {
        let o = EngineOptions::default();
        let algorithms: String = Algo::ALL
            .iter()
            .map(|a| format!(" var {}", a.name()))
            .collect();
        let evaluations: String = EvalName::ALL
            .iter()
            .map(|e| format!(" var {}", e.name()))
            .collect();
        assert!(lines(&o).contains(&format!(
            "option name Algorithm type combo default pvs{algorithms}"
        )));
        assert!(lines(&o).contains(&format!(
            "option name Evaluation type combo default nnue{evaluations}"
        )));
    }

    #[test]
    fn search_tunables_are_spin_options() {
        let mut o = EngineOptions::default();
        let lines = lines(&o);
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
    fn search_switches_are_check_options() {
        let mut o = EngineOptions::default();
        let lines = lines(&o);
        for (name, _) in PvsConfig::FEATURES {
            let on = PvsConfig::default().is_on(name).expect("declared");
            let line = format!("option name {name} type check default {on}");
            assert!(lines.contains(&line), "{line}");
        }
        assert_eq!(o.set("null", Some("false")), Ok(Applied::Set));
        assert!(!o.switches.null_move);
        assert_eq!(o.set("SEE-PINS", Some("true")), Ok(Applied::Set));
        assert!(o.switches.see_pins);
        assert!(o.set("null", Some("sometimes")).is_err());
        assert!(!o.switches.null_move);
    }

    #[test]
    fn no_option_name_holds_a_keyword_of_the_option_line_as_a_word() {
        // A GUI may split `option name NAME type ...` at the keywords as
        // words, where `-` ends a word (python-chess does): a switch named
        // `tt-cut-node-type` was announced correctly and read back as
        // `tt-cut-node-`, an option that does not exist. Every line must
        // read back whole with our parser, and no word of a name may be a
        // keyword.
        let keywords: Vec<&str> = std::iter::once("name")
            .chain(fianchetto_uci::OPTION_KEYWORDS.iter().copied())
            .collect();
        let o = EngineOptions::default();
        for (line, decl) in lines(&o).iter().zip(o.declarations()) {
            let read: fianchetto_uci::UciOption = line.parse().expect("a well-formed line");
            assert_eq!(read.name, decl.name, "{line}");
            for word in read
                .name
                .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            {
                assert!(!keywords.contains(&word), "{line}: the word {word}");
            }
        }
    }

    #[test]
    fn book_options() {
        let mut o = EngineOptions::default();
        let lines = lines(&o);
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
