//! [`PvsConfig`]: every feature of the PVS search as a named switch.
//!
//! The switches are declared once, in the `pvs_switches!` table below:
//! each line gives the field, its command-line name, its default and a
//! one-line description, under the field's documentation. The struct, its
//! defaults, [`PvsConfig::FEATURES`], the name lookup behind
//! [`PvsConfig::set`] and the help text of `--disable`
//! ([`PvsConfig::features_help`]) are all generated from it, as
//! [`SearchParams`] is for the numbers.

use super::params::SearchParams;
use super::probcut::ProbCut;
use crate::tt::Replacement;
use std::fmt;

/// A feature name that [`PvsConfig::set`] does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown search feature `{0}`; expected `all` or some of: {names}", names = PvsConfig::FEATURES.iter().map(|f| f.0).collect::<Vec<_>>().join(", "))]
pub struct UnknownFeature(pub String);

type Field = fn(&mut PvsConfig) -> &mut bool;

macro_rules! pvs_switches {
    ($( $(#[doc = $doc:literal])+ $field:ident, $name:literal = $on:literal, $help:literal; )*) => {
        /// The configuration of [`super::Pvs`]: threads, hash size and
        /// policy, and one boolean per search feature, so that an ablation
        /// is one call.
        ///
        /// [`PvsConfig::default`] turns on every feature that won its
        /// match (see the defaults in the declaration and `docs/search.md`);
        /// [`PvsConfig::all_off`] leaves exact alpha-beta (no table, no
        /// ordering, no pruning, reductions or extensions, static
        /// evaluation at the horizon). Features are also reachable by name
        /// ([`PvsConfig::set`]), for command lines:
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
            /// ProbCut's numbers: the margin rule and the fitted regressions.
            pub probcut_params: ProbCut,
            /// Every other number of the search: margins, reductions,
            /// history scales (tunable by name).
            pub params: SearchParams,
            $( $(#[doc = $doc])+ pub $field: bool, )*
        }

        impl Default for PvsConfig {
            fn default() -> PvsConfig {
                PvsConfig {
                    threads: 1,
                    hash_mb: 16,
                    replacement: Replacement::DepthAlways,
                    probcut_params: ProbCut::default(),
                    params: SearchParams::default(),
                    $( $field: $on, )*
                }
            }
        }

        impl PvsConfig {
            /// Every switch: its name on command lines, and a one-line
            /// description.
            pub const FEATURES: &'static [(&'static str, &'static str)] = &[
                $( ($name, $help), )*
            ];

            fn field(name: &str) -> Option<Field> {
                match name {
                    $( $name => Some(|c| &mut c.$field), )*
                    _ => None,
                }
            }
        }
    };
}

pvs_switches! {
    /// Iterative deepening: search depth 1, 2, … (off: only the limit
    /// depth). With Lazy SMP, every odd-numbered helper thread searches one
    /// ply deeper than its own iteration count, so that the threads do not
    /// all search the same tree in step.
    iterative_deepening, "id" = true, "iterative deepening";
    /// Principal variation search: null windows for all but the first move.
    pvs, "pvs" = true, "null-window search of later moves";
    /// Aspiration windows around the previous iteration's score.
    aspiration, "aspiration" = true, "aspiration windows";
    /// Transposition table: store results, search the hash move first.
    tt, "tt" = true, "transposition table";
    /// Cut off on transposition table scores (needs `tt`).
    tt_cutoffs, "tt-cutoffs" = true, "cutoffs on table scores";

    /// Captures first, MVV-LVA.
    mvv_lva, "mvv-lva" = true, "captures first, MVV-LVA";
    /// Captures losing material (SEE) after the quiet moves.
    see_ordering, "see-ordering" = true, "losing captures last";
    /// Two killer moves per ply.
    killers, "killers" = true, "killer moves";
    /// History heuristic for quiet moves.
    history, "history" = true, "history heuristic";
    /// Counter-move heuristic (the refutation of the previous move).
    counter_moves, "countermove" = true, "counter-move heuristic";
    /// Continuation history (replies to the moves 1, 2 and 4 plies back)
    /// in quiet-move ordering, reductions and pruning.
    cont_history, "cont-history" = true, "continuation history (1, 2, 4 plies back)";
    /// Capture history: captures ordered by victim plus what they achieved.
    capture_history, "capture-history" = true, "capture history";
    /// History-adjusted late-move reductions (good history, less reduction).
    history_lmr, "history-lmr" = true, "history-adjusted reductions";
    /// History pruning: quiet moves with a bad history are skipped near
    /// the horizon.
    history_pruning, "history-pruning" = true, "history pruning of quiet moves";
    /// Correction histories added to the static evaluation: by pawn
    /// structure, by each colour's non-pawn pieces, by the minor and by the
    /// major pieces (with the kings), and by the last two moves
    /// (continuation). (SPRT [0, 10] at 5 000 nodes: +16 [+4, +29] Elo, H1
    /// after 1 621 games; re-tested on the 6 000-opening book, all off lost
    /// −18 [−28, −8] after 2 822 distinct games, H0 of SPRT [−5, 0].)
    correction_history, "corrhist" = true, "pawn, piece and continuation correction histories of the static evaluation";

    /// Quiescence search at the horizon (off: static evaluation).
    quiescence, "qsearch" = true, "quiescence search";
    /// Skip losing captures (SEE < 0) in quiescence.
    qs_see_pruning, "qs-see" = true, "SEE pruning in quiescence";
    /// Delta pruning: skip captures that cannot raise alpha in quiescence
    /// (never a capture that gives check).
    delta_pruning, "delta" = true, "delta pruning in quiescence";
    /// Quiescence also tries quiet promotions to a queen.
    qs_promotions, "qs-promo" = true, "quiet queen promotions in quiescence";

    /// Search checking moves one ply deeper.
    check_extension, "check-ext" = true, "check extension";
    /// Singular extensions: a hash move much better than every other move
    /// is searched one ply deeper, two plies off the PV when far better
    /// (double extensions, at most `se_double_max` on a line); when the
    /// singular test finds another move beating beta the node is cut
    /// (multi-cut), and a hash move that is not singular but beats beta, or
    /// is expected to, is searched a ply shallower (negative extension).
    singular, "singular" = true, "singular, double and negative extensions, and multi-cut";

    /// The project's own history and ordering refinements, added after the
    /// BuhoChess thesis' configurations; each passed its SPRT ([0, 10] at
    /// 5 000 nodes; the figures are in CHANGELOG.md). The ablation's
    /// cumulative rows ([`crate::ablation::configurations`]) leave them
    /// off, so that they reproduce the published configurations; the
    /// defaults turn them on. Each works only where the feature it refines
    /// runs:
    /// - threats: the butterfly history keeps separate entries by whether
    ///   the opponent attacks a quiet move's from and to squares, and the
    ///   move picker orders earlier the quiet moves that take a piece off a
    ///   square a lesser enemy piece attacks, later those that move onto one;
    /// - pawn history: quiet moves by what worked in the same pawn
    ///   structure, added to their history (the move picker counts it
    ///   twice, as Stockfish's picker weighs it beside its main history);
    /// - Stockfish's updates around a node: a node where no move raised
    ///   alpha gives the quiet move that led to it a bonus in the parent,
    ///   and the moves tried before a cut-off lose a malus of their own
    ///   (`history_malus_*`), not the cut-off's bonus negated;
    /// - a quiet move whose reduced search beat alpha teaches the
    ///   continuation histories what its full-depth re-search found;
    /// - the two static evaluations around a quiet move teach the butterfly
    ///   history of its mover (Stockfish's "static evaluation difference");
    /// - futility and SEE pruning of a quiet move use its reduced depth
    ///   moved by its history, as LMR does;
    /// - reduced captures are reduced less for a good capture history and
    ///   more for a bad one;
    /// - later moves are reduced more when the nodes below keep failing
    ///   high (cut-off counts).
    history_extras, "history-extras" = true, "the project's history refinements: threats, pawn history, prior bonus and malus, post-LMR and evaluation-swing history, history-adjusted pruning depth and reductions, cut-off counts";
    /// The project's own pruning, quiescence and evaluation refinements,
    /// added after the BuhoChess thesis' configurations; each passed its
    /// SPRT ([0, 10] at 5 000 nodes; the figures are in CHANGELOG.md). The
    /// ablation's cumulative rows ([`crate::ablation::configurations`])
    /// leave them off, so that they reproduce the published
    /// configurations; the defaults turn them on. Each works only where the
    /// feature it refines runs:
    /// - futility pruning of captures: a capture whose victim, history and
    ///   a depth margin still leave the static evaluation below alpha is
    ///   skipped;
    /// - reverse futility's margin shrinks by a third of a depth's margin
    ///   when the opponent's last move made its position worse (by the two
    ///   static evaluations; with `rfp`);
    /// - quiet checks at the first quiescence ply: the mate a quiet
    ///   sacrifice threatens is seen by the shallow searches under null
    ///   moves and reductions (WAC.001: depth 2 instead of 20);
    /// - quiescence stands pat on the table's score where its bound says the
    ///   static evaluation is too low or too high (with `tt-cutoffs`);
    /// - the static evaluation scaled by the material left and damped as the
    ///   half-move clock nears the fifty-move rule, for the evaluations that
    ///   allow it ([`Evaluator::search_may_scale`](fianchetto_eval::Evaluator::search_may_scale):
    ///   NNUE, not the hand-crafted ones).
    search_extras, "search-extras" = true, "the project's pruning and quiescence refinements: capture futility, RFP after a worsening, quiescence checks and table evaluation, evaluation scaling";

    /// Mate-distance pruning.
    mate_distance, "mdp" = true, "mate-distance pruning";
    /// Null-move pruning (adaptive R, verified in late endgames).
    null_move, "null" = true, "null-move pruning";
    /// Reverse futility pruning (static null move).
    reverse_futility, "rfp" = true, "reverse futility pruning";
    /// Futility pruning of quiet moves near the horizon.
    futility, "futility" = true, "futility pruning";
    /// Razoring: drop into quiescence far below alpha near the horizon.
    razoring, "razoring" = true, "razoring";
    /// Late-move reductions.
    lmr, "lmr" = true, "late-move reductions";
    /// Late-move pruning (move-count pruning of quiet moves).
    lmp, "lmp" = true, "late-move pruning";
    /// SEE pruning of losing moves near the horizon.
    see_pruning, "see-pruning" = true, "SEE pruning in the main search";
    /// The search's SEE (pruning, reductions, ProbCut, quiescence) leaves
    /// pinned pieces out of the exchange (off: every attacker takes part,
    /// as in most engines' SEE). Off: pins cost time on every call and no
    /// SPRT has shown that they pay (the last, at [0, 5] on 5 000 nodes:
    /// +0.7 [−8.6, +9.9] Elo after 2 984 games, undecided). Kept for the
    /// ablation, whose last row (P) adds it.
    see_pins, "see-pins" = false, "pinned pieces left out of the search's SEE";
    /// ProbCut: a shallow search predicts a fail-high of the deep one.
    probcut, "probcut" = true, "ProbCut";
    /// ProbCut by Buro's fitted regressions ([`ProbCut::fits`], cut
    /// probability [`ProbCut::confidence`]); off: the fixed margin
    /// (`probcut_margin` above beta, `probcut_reduction` plies shallower,
    /// tunables of [`SearchParams`]), until the fitted rule wins an SPRT.
    /// A research option: it is how the regressions that `fianchetto
    /// fit-probcut` fits for an evaluation of one's own reach the search.
    probcut_fitted, "probcut-fitted" = false, "ProbCut by fitted regressions instead of the fixed margin";
    /// Internal iterative reduction: search one ply shallower without a
    /// hash move.
    iir, "iir" = true, "internal iterative reduction";

    /// Upcoming-repetition detection: raise alpha to a draw where the side
    /// to move can repeat a position (cuckoo tables, [`crate::cuckoo`]).
    cuckoo, "cuckoo" = true, "upcoming-repetition detection (cuckoo tables)";
}

impl PvsConfig {
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

    /// The names and descriptions of every switch, one `name: description`
    /// per line, each marked `(off)` when [`PvsConfig::default`] leaves it
    /// off: the help text of the command lines' `--disable`.
    pub fn features_help() -> String {
        let mut defaults = PvsConfig::default();
        let mut out = String::new();
        for (name, help) in Self::FEATURES {
            let on = Self::field(name).is_some_and(|f| *f(&mut defaults));
            out.push_str(name);
            out.push_str(": ");
            out.push_str(help);
            if !on {
                out.push_str(" (off)");
            }
            out.push('\n');
        }
        out
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

    /// Whether the feature `name` (see [`PvsConfig::FEATURES`]) is on;
    /// `None` for an unknown name.
    pub fn is_on(&self, name: &str) -> Option<bool> {
        let mut c = self.clone();
        Self::field(name).map(|f| *f(&mut c))
    }

    /// Switches off each feature of a comma-separated list (`null,lmr`,
    /// `all`); nothing changes if a name is unknown.
    pub fn disable(&mut self, list: &str) -> Result<(), UnknownFeature> {
        self.set_list(list, false)
    }

    /// Switches on each feature of a comma-separated list (`see-pins,probcut-fitted`,
    /// `all` for the defaults); nothing changes if a name is unknown.
    pub fn enable(&mut self, list: &str) -> Result<(), UnknownFeature> {
        self.set_list(list, true)
    }

    fn set_list(&mut self, list: &str, on: bool) -> Result<(), UnknownFeature> {
        let mut next = self.clone();
        for name in list.split(',').filter(|s| !s.trim().is_empty()) {
            next.set(name, on)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_switch_has_a_unique_name_that_reaches_it() {
        let mut names = std::collections::HashSet::new();
        let off = PvsConfig::all_off();
        for (name, help) in PvsConfig::FEATURES {
            assert!(names.insert(*name), "{name} twice");
            assert!(!help.is_empty());
            let mut c = off.clone();
            c.set(name, true).expect("a declared name");
            assert_eq!(c.disabled().len(), PvsConfig::FEATURES.len() - 1, "{name}");
            assert!(!c.disabled().contains(name));
        }
        assert_eq!(off.is_on("null"), Some(false));
        assert_eq!(PvsConfig::default().is_on("null"), Some(true));
        assert_eq!(off.is_on("no-such-switch"), None);
        let help = PvsConfig::features_help();
        assert_eq!(help.lines().count(), PvsConfig::FEATURES.len());
        assert!(help.contains("search-extras: ") && help.contains("corrhist: "));
    }
}
