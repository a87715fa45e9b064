//! [`PvsConfig`]: every feature of the PVS search as a named switch.

use super::params::SearchParams;
use super::probcut::ProbCut;
use crate::tt::Replacement;
use std::fmt;

/// The configuration of [`super::Pvs`]: threads, hash size and policy, and
/// one boolean per search feature, so that an ablation is one call.
///
/// [`PvsConfig::default`] turns everything on but the fitted ProbCut rule
/// (`probcut-fitted`, which has not yet proved stronger than the fixed
/// margin in games; see [`ProbCut`]) and the correction history
/// (`corrhist`: its SPRT with the NNUE evaluation rejected it);
/// [`PvsConfig::all_off`]
/// leaves exact alpha-beta (no table, no ordering, no pruning, reductions
/// or extensions, static evaluation at the horizon). Features are also
/// reachable by name ([`PvsConfig::set`]), for command lines:
///
/// ```
/// use fianchetto_search::pvs::PvsConfig;
///
/// let mut cfg = PvsConfig::default();
/// cfg.disable("null,lmr")?;
/// assert!(!cfg.null_move && !cfg.lmr && cfg.futility);
/// cfg.disable("all")?;
/// assert_eq!(cfg, PvsConfig { threads: cfg.threads, hash_mb: cfg.hash_mb, ..PvsConfig::all_off() });
/// assert!(cfg.disable("nonsense").is_err());
/// # Ok::<(), fianchetto_search::pvs::UnknownFeature>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PvsConfig {
    /// Search threads (Lazy SMP); 1 = single-threaded.
    pub threads: usize,
    /// Transposition table size in MB.
    pub hash_mb: usize,
    /// Transposition table replacement policy.
    pub replacement: Replacement,

    /// Iterative deepening: search depth 1, 2, … (off: only the limit depth).
    pub iterative_deepening: bool,
    /// Principal variation search: null windows for all but the first move.
    pub pvs: bool,
    /// Aspiration windows around the previous iteration's score.
    pub aspiration: bool,
    /// Transposition table: store results, search the hash move first.
    pub tt: bool,
    /// Cut off on transposition table scores (needs `tt`).
    pub tt_cutoffs: bool,

    /// Captures first, MVV-LVA.
    pub mvv_lva: bool,
    /// Captures losing material (SEE) after the quiet moves.
    pub see_ordering: bool,
    /// Two killer moves per ply.
    pub killers: bool,
    /// History heuristic for quiet moves.
    pub history: bool,
    /// Counter-move heuristic (the refutation of the previous move).
    pub counter_moves: bool,
    /// Continuation history (replies to the moves 1, 2 and 4 plies back)
    /// in quiet-move ordering, reductions and pruning.
    pub cont_history: bool,
    /// Capture history: captures ordered by victim plus what they achieved.
    pub capture_history: bool,
    /// History-adjusted late-move reductions (good history, less reduction).
    pub history_lmr: bool,
    /// History pruning: quiet moves with a bad history are skipped near
    /// the horizon.
    pub history_pruning: bool,
    /// Pawn-structure correction history added to the static evaluation.
    pub correction_history: bool,

    /// Quiescence search at the horizon (off: static evaluation).
    pub quiescence: bool,
    /// Skip losing captures (SEE < 0) in quiescence.
    pub qs_see_pruning: bool,
    /// Delta pruning: skip captures that cannot raise alpha in quiescence.
    pub delta_pruning: bool,

    /// Search checking moves one ply deeper.
    pub check_extension: bool,
    /// Singular extensions: a hash move much better than every other move
    /// is searched one ply deeper.
    pub singular: bool,
    /// Double extensions: two plies for a very singular move off the PV
    /// (needs `singular`).
    pub double_extensions: bool,
    /// Multi-cut: when the singular test finds another move beating beta,
    /// the node is cut (needs `singular`).
    pub multicut: bool,
    /// Negative extensions: a hash move that is not singular but already
    /// beats beta, or is expected to, is searched one ply shallower (needs
    /// `singular`).
    pub negative_extensions: bool,

    /// Mate-distance pruning.
    pub mate_distance: bool,
    /// Null-move pruning (adaptive R, verified in late endgames).
    pub null_move: bool,
    /// Reverse futility pruning (static null move).
    pub reverse_futility: bool,
    /// Futility pruning of quiet moves near the horizon.
    pub futility: bool,
    /// Razoring: drop into quiescence far below alpha near the horizon.
    pub razoring: bool,
    /// Late-move reductions.
    pub lmr: bool,
    /// Late-move pruning (move-count pruning of quiet moves).
    pub lmp: bool,
    /// SEE pruning of losing moves near the horizon.
    pub see_pruning: bool,
    /// The search's SEE (pruning, reductions, ProbCut, quiescence) leaves
    /// pinned pieces out of the exchange (off: every attacker takes part,
    /// as in most engines' SEE).
    pub see_pins: bool,
    /// ProbCut: a shallow search predicts a fail-high of the deep one.
    pub probcut: bool,
    /// ProbCut by Buro's fitted regressions ([`ProbCut::fits`], cut
    /// probability [`ProbCut::confidence`]); off: the fixed margin
    /// ([`ProbCut::margin`] above beta, three plies shallower).
    pub probcut_fitted: bool,
    /// Internal iterative reduction: search one ply shallower without a
    /// hash move.
    pub iir: bool,

    /// ProbCut's numbers: the margin rule and the fitted regressions.
    pub probcut_params: ProbCut,
    /// Upcoming-repetition detection: raise alpha to a draw where the side
    /// to move can repeat a position (cuckoo tables, [`crate::cuckoo`]).
    pub cuckoo: bool,
    /// Quiescence also tries quiet promotions to a queen.
    pub qs_promotions: bool,
    /// Time management scales the optimum by the best move's node share
    /// and a falling score as well as by best-move stability (off: by
    /// stability alone; see [`crate::time::IterationTracker`]).
    pub time_signals: bool,
    /// Every other number of the search: margins, reductions, history
    /// scales (tunable by name).
    pub params: SearchParams,
}

/// A feature name that [`PvsConfig::set`] does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown search feature `{0}`; expected `all` or some of: {names}", names = PvsConfig::FEATURES.iter().map(|f| f.0).collect::<Vec<_>>().join(", "))]
pub struct UnknownFeature(pub String);

impl Default for PvsConfig {
    fn default() -> PvsConfig {
        PvsConfig {
            threads: 1,
            hash_mb: 16,
            replacement: Replacement::DepthAlways,
            iterative_deepening: true,
            pvs: true,
            aspiration: true,
            tt: true,
            tt_cutoffs: true,
            mvv_lva: true,
            see_ordering: true,
            killers: true,
            history: true,
            counter_moves: true,
            cont_history: true,
            capture_history: true,
            history_lmr: true,
            history_pruning: true,
            correction_history: false,
            quiescence: true,
            qs_see_pruning: true,
            delta_pruning: true,
            // Singular extensions with their family are on (an SPRT at
            // 20 000 nodes with the NNUE evaluation passed); the correction
            // history stays off (its SPRT rejected it). See docs/search.md.
            check_extension: true,
            singular: true,
            double_extensions: true,
            multicut: true,
            negative_extensions: true,
            mate_distance: true,
            null_move: true,
            reverse_futility: true,
            futility: true,
            razoring: true,
            lmr: true,
            lmp: true,
            see_pruning: true,
            // Pins in the SEE cost time on every call; off until an SPRT
            // says they pay (see docs/search.md).
            see_pins: false,
            probcut: true,
            // The fixed margin until the fitted rule wins an SPRT.
            probcut_fitted: false,
            iir: true,
            probcut_params: ProbCut::default(),
            cuckoo: true,
            qs_promotions: true,
            // Undecided at 2+0.02 on a loaded machine, -18 Elo ± 32: off
            // until a longer test says otherwise (docs/search.md).
            time_signals: false,
            params: SearchParams::default(),
        }
    }
}

type Field = fn(&mut PvsConfig) -> &mut bool;

impl PvsConfig {
    /// Every switch: its name on command lines, and a one-line description.
    pub const FEATURES: &'static [(&'static str, &'static str)] = &[
        ("id", "iterative deepening"),
        ("pvs", "null-window search of later moves"),
        ("aspiration", "aspiration windows"),
        ("tt", "transposition table"),
        ("tt-cutoffs", "cutoffs on table scores"),
        ("mvv-lva", "captures first, MVV-LVA"),
        ("see-ordering", "losing captures last"),
        ("killers", "killer moves"),
        ("history", "history heuristic"),
        ("countermove", "counter-move heuristic"),
        ("cont-history", "continuation history (1, 2, 4 plies back)"),
        ("capture-history", "capture history"),
        ("history-lmr", "history-adjusted reductions"),
        ("history-pruning", "history pruning of quiet moves"),
        (
            "corrhist",
            "pawn correction history of the static evaluation",
        ),
        ("qsearch", "quiescence search"),
        ("qs-see", "SEE pruning in quiescence"),
        ("delta", "delta pruning in quiescence"),
        ("check-ext", "check extension"),
        ("singular", "singular extensions"),
        ("double-ext", "double extensions (with singular)"),
        ("multicut", "multi-cut (with singular)"),
        ("negative-ext", "negative extensions (with singular)"),
        ("mdp", "mate-distance pruning"),
        ("null", "null-move pruning"),
        ("rfp", "reverse futility pruning"),
        ("futility", "futility pruning"),
        ("razoring", "razoring"),
        ("lmr", "late-move reductions"),
        ("lmp", "late-move pruning"),
        ("see-pruning", "SEE pruning in the main search"),
        ("see-pins", "pinned pieces left out of the search's SEE"),
        ("probcut", "ProbCut"),
        (
            "probcut-fitted",
            "ProbCut by fitted regressions (off: fixed margin)",
        ),
        ("iir", "internal iterative reduction"),
        ("cuckoo", "upcoming-repetition detection (cuckoo tables)"),
        ("qs-promo", "quiet queen promotions in quiescence"),
        (
            "tm-signals",
            "time management by node share and falling score too",
        ),
    ];

    fn field(name: &str) -> Option<Field> {
        Some(match name {
            "id" => |c| &mut c.iterative_deepening,
            "pvs" => |c| &mut c.pvs,
            "aspiration" => |c| &mut c.aspiration,
            "tt" => |c| &mut c.tt,
            "tt-cutoffs" => |c| &mut c.tt_cutoffs,
            "mvv-lva" => |c| &mut c.mvv_lva,
            "see-ordering" => |c| &mut c.see_ordering,
            "killers" => |c| &mut c.killers,
            "history" => |c| &mut c.history,
            "countermove" => |c| &mut c.counter_moves,
            "cont-history" => |c| &mut c.cont_history,
            "capture-history" => |c| &mut c.capture_history,
            "history-lmr" => |c| &mut c.history_lmr,
            "history-pruning" => |c| &mut c.history_pruning,
            "corrhist" => |c| &mut c.correction_history,
            "qsearch" => |c| &mut c.quiescence,
            "qs-see" => |c| &mut c.qs_see_pruning,
            "delta" => |c| &mut c.delta_pruning,
            "check-ext" => |c| &mut c.check_extension,
            "singular" => |c| &mut c.singular,
            "double-ext" => |c| &mut c.double_extensions,
            "multicut" => |c| &mut c.multicut,
            "negative-ext" => |c| &mut c.negative_extensions,
            "mdp" => |c| &mut c.mate_distance,
            "null" => |c| &mut c.null_move,
            "rfp" => |c| &mut c.reverse_futility,
            "futility" => |c| &mut c.futility,
            "razoring" => |c| &mut c.razoring,
            "lmr" => |c| &mut c.lmr,
            "lmp" => |c| &mut c.lmp,
            "see-pruning" => |c| &mut c.see_pruning,
            "see-pins" => |c| &mut c.see_pins,
            "probcut" => |c| &mut c.probcut,
            "probcut-fitted" => |c| &mut c.probcut_fitted,
            "iir" => |c| &mut c.iir,
            "cuckoo" => |c| &mut c.cuckoo,
            "qs-promo" => |c| &mut c.qs_promotions,
            "tm-signals" => |c| &mut c.time_signals,
            _ => return None,
        })
    }

    /// Exact alpha-beta: every feature off, static evaluation at the
    /// horizon. (Threads and hash size keep their defaults.)
    pub fn all_off() -> PvsConfig {
        let mut c = PvsConfig::default();
        for (name, _) in Self::FEATURES {
            if let Some(f) = Self::field(name) {
                *f(&mut c) = false;
            }
        }
        c
    }

    /// Switches the feature `name` (see [`PvsConfig::FEATURES`]) on or off;
    /// `all` switches every feature.
    pub fn set(&mut self, name: &str, on: bool) -> Result<(), UnknownFeature> {
        let name = name.trim().to_ascii_lowercase();
        if name == "all" {
            let keep = (self.threads, self.hash_mb, self.replacement);
            let params = std::mem::take(&mut self.params);
            *self = if on {
                PvsConfig::default()
            } else {
                PvsConfig::all_off()
            };
            (self.threads, self.hash_mb, self.replacement) = keep;
            self.params = params;
            return Ok(());
        }
        let f = Self::field(&name).ok_or(UnknownFeature(name))?;
        *f(self) = on;
        Ok(())
    }

    /// Switches off each feature of a comma-separated list (`null,lmr`,
    /// `all`); nothing changes if a name is unknown.
    pub fn disable(&mut self, list: &str) -> Result<(), UnknownFeature> {
        let mut next = self.clone();
        for name in list.split(',').filter(|s| !s.trim().is_empty()) {
            next.set(name, false)?;
        }
        *self = next;
        Ok(())
    }

    /// The names of the features switched off.
    pub fn disabled(&self) -> Vec<&'static str> {
        let mut c = self.clone();
        Self::FEATURES
            .iter()
            .filter(|(n, _)| Self::field(n).is_some_and(|f| !*f(&mut c)))
            .map(|(n, _)| *n)
            .collect()
    }

    /// Whether any move-ordering heuristic is on.
    pub(crate) fn ordering(&self) -> bool {
        self.tt || self.mvv_lva || self.killers || self.history || self.counter_moves
    }
}

impl fmt::Display for PvsConfig {
    /// `threads 1 hash 16 MB depth-always, off: null, lmr` (or `all on`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "threads {} hash {} MB {}",
            self.threads,
            self.hash_mb,
            self.replacement.name()
        )?;
        let off = self.disabled();
        if off.is_empty() {
            write!(f, ", all on")
        } else {
            write!(f, ", off: {}", off.join(", "))
        }
    }
}
