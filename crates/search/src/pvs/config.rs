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
    /// Iterative deepening: search depth 1, 2, … (off: only the limit depth).
    iterative_deepening, "id" = true, "iterative deepening";
    /// Principal variation search: null windows for all but the first move.
    pvs, "pvs" = true, "null-window search of later moves";
    /// Aspiration windows around the previous iteration's score.
    aspiration, "aspiration" = true, "aspiration windows";
    /// The aspiration window widens with the square of the last score
    /// (`aspiration_score_div`): far from equality the score moves more
    /// between depths, and every failed window is a search repeated.
    /// (SPRT [0, 10] at 5 000 nodes: +14 [+3, +25] Elo, H1 after 1 905
    /// games. That run counted repeated games; re-tested off on 6 398
    /// distinct games it scored +3.7 [−2.6, +10.1], H1 of SPRT [−5, 0]:
    /// off since.)
    aspiration_score_delta, "asp-score-delta" = false, "aspiration window wider for scores far from 0";
    /// Transposition table: store results, search the hash move first.
    tt, "tt" = true, "transposition table";
    /// A node that finds no table entry stores its static evaluation in
    /// one without a score, so that a pruned node's next visit need not
    /// evaluate again (Stockfish's entries without a bound).
    tt_eval_store, "tt-eval-store" = false, "nodes without an entry store their static evaluation";
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
    /// Threat-aware butterfly history: separate entries by whether the
    /// opponent attacks a quiet move's from and to squares. (With
    /// `pawn-history`, SPRT [0, 10] at 5 000 nodes: +28 [+11, +46] Elo, H1
    /// after 824 games.)
    threat_history, "threat-history" = true, "butterfly history by threatened from and to squares";
    /// Pawn history: quiet moves by what worked in the same pawn structure,
    /// added to their history.
    pawn_history, "pawn-history" = true, "pawn-structure history of quiet moves";
    /// Capture history: captures ordered by victim plus what they achieved.
    capture_history, "capture-history" = true, "capture history";
    /// History-adjusted late-move reductions (good history, less reduction).
    history_lmr, "history-lmr" = true, "history-adjusted reductions";
    /// History pruning: quiet moves with a bad history are skipped near
    /// the horizon.
    history_pruning, "history-pruning" = true, "history pruning of quiet moves";
    /// Pawn-structure correction history added to the static evaluation.
    /// (With `corrhist-pieces` and `corrhist-cont`, SPRT [0, 10] at 5 000
    /// nodes: +16 [+4, +29] Elo, H1 after 1 621 games; re-tested on the
    /// 6 000-opening book, all three off lost −18 [−28, −8] after 2 822
    /// distinct games, H0 of SPRT [−5, 0].)
    correction_history, "corrhist" = true, "pawn correction history of the static evaluation";
    /// Correction histories by pieces: each colour's non-pawn pieces, the
    /// minor pieces and the major pieces (with the kings), added to the
    /// static evaluation with the pawn one's.
    correction_pieces, "corrhist-pieces" = true, "non-pawn, minor and major piece correction histories";
    /// Continuation correction history: the static evaluation corrected by
    /// what the search found after the same last two moves.
    correction_cont, "corrhist-cont" = true, "continuation correction history (the last two moves)";
    /// The static evaluation scaled by the material left (more weight with
    /// more pieces on the board, so that the side ahead trades down only
    /// when that keeps its edge) and damped as the half-move clock nears
    /// the fifty-move rule. Only evaluations that allow it
    /// ([`Evaluator::search_may_scale`](fianchetto_eval::Evaluator::search_may_scale):
    /// NNUE, not the hand-crafted ones) are scaled.
    eval_scaling, "eval-scale" = true, "evaluation scaled by material and the half-move clock";

    /// Quiescence search at the horizon (off: static evaluation).
    quiescence, "qsearch" = true, "quiescence search";
    /// Skip losing captures (SEE < 0) in quiescence.
    qs_see_pruning, "qs-see" = true, "SEE pruning in quiescence";
    /// Delta pruning: skip captures that cannot raise alpha in quiescence
    /// (never a capture that gives check).
    delta_pruning, "delta" = true, "delta pruning in quiescence";
    /// Quiet checks at the first quiescence ply: the mate a quiet sacrifice
    /// threatens is seen by the shallow searches under null moves and
    /// reductions (WAC.001: depth 2 instead of 20).
    qs_checks, "qs-checks" = true, "quiet checks at the first quiescence ply";
    /// Quiescence also tries quiet promotions to a queen.
    qs_promotions, "qs-promo" = true, "quiet queen promotions in quiescence";

    /// Search checking moves one ply deeper.
    check_extension, "check-ext" = true, "check extension";
    /// Singular extensions: a hash move much better than every other move
    /// is searched one ply deeper.
    singular, "singular" = true, "singular extensions";
    /// Double extensions: two plies for a very singular move off the PV
    /// (needs `singular`).
    double_extensions, "double-ext" = true, "double extensions (with singular)";
    /// Multi-cut: when the singular test finds another move beating beta,
    /// the node is cut (needs `singular`).
    multicut, "multicut" = true, "multi-cut (with singular)";
    /// Negative extensions: a hash move that is not singular but already
    /// beats beta, or is expected to, is searched one ply shallower (needs
    /// `singular`).
    negative_extensions, "negative-ext" = true, "negative extensions (with singular)";
    /// A quiet hash move that is doubly extended and trails no other move
    /// by less than `se_triple_margin` is extended a third ply.
    triple_extensions, "triple-ext" = false, "triple extensions of quiet singular moves (with double)";
    /// A hash move that is not singular but whose table score beats beta
    /// is searched two plies shallower instead of one. (Its +14 [+5, +23]
    /// over 3 000 games at 5 000 nodes counted repeated games; off against
    /// on over 10 414 distinct ones: +1.6 [−3.4, +6.6], H1 of SPRT [−5, 0].)
    deep_negative_extensions, "deep-negative-ext" = false, "negative extension of two plies when the table score beats beta";
    /// A hash move that is neither singular nor expected to fail high is
    /// searched a ply shallower when the search without it reached its
    /// table score (Stockfish 16's third negative extension): the other
    /// moves are as good. (SPRT [0, 10] at 5 000 nodes: −1.5 [−13, +10]
    /// Elo after 1 874 games, stopped undecided.)
    below_negative_extensions, "below-negative-ext" = false, "negative extension when the other moves reach the table score";

    /// The table remembers which positions were on a principal variation
    /// ("ttPv"); such positions are reduced less by LMR.
    tt_pv, "ttpv" = false, "positions once on a PV reduced less (ttPv flag)";
    /// A quiet hash move whose table score cuts a node off earns the
    /// history bonus of a cut-off.
    tt_history, "tt-history" = false, "history bonus for hash moves on table cut-offs";
    /// A node where no move raised alpha gives the quiet move that led to
    /// it a history bonus in the parent.
    /// On since 2026-12-01 with `history-malus`, `cont-update-weights` and
    /// `early-refutation-malus` (the last two off since 2026-12-02): alone
    /// each scored +2 to +3.5 (only `early-refutation-malus` on distinct
    /// games), too little for a test to decide; the four together passed
    /// SPRT [0, 5] at 5 000 nodes, +14.0 [+5.4, +22.5] Elo, H1 after 3 437
    /// distinct games.
    /// Its removal alone lost SPRT [−5, 0]: −9.1 [−15.5, −2.7] Elo, H0 after
    /// 6 302 games at 5 000 nodes.
    prior_bonus, "prior-bonus" = true, "history bonus for the move that led to a fail-low";
    /// The moves tried before a cut-off lose their own malus
    /// (`history_malus_*`: half as much again as the bonus), not the
    /// cut-off's bonus negated, as Stockfish and Viridithas weigh the two
    /// apart.
    /// On since 2026-12-01: tested together with `prior-bonus` (see there).
    /// Its removal alone lost SPRT [−5, 0] on the defaults of 2026-12-02:
    /// −12.7 [−20.8, −4.7] Elo, H0 after 3 960 games at 5 000 nodes (on
    /// older defaults it leaned the same way, −5.4 after 10 040).
    history_malus, "history-malus" = true, "the moves tried before a cut-off lose a malus of their own";
    /// Each continuation history learns its own share of a bonus: the
    /// reply to the last move all of it, those of the moves 2 and 4 plies
    /// back about 5/8 and 1/2 (3 and 6 back, with `cont-3-6`, less), as
    /// Stockfish weighs them.
    /// On from 2026-12-01 (tested together with `prior-bonus`, see there);
    /// off since 2026-12-02: its removal alone passed as a simplification,
    /// +3.4 [−2.7, +9.5], H1 of SPRT [−5, 0] after 6 962 games at 5 000
    /// nodes (docs/search.md), so every continuation history learns the
    /// whole bonus.
    cont_update_weights, "cont-update-weights" = false, "continuation histories learn a share of the bonus by how far back";
    /// Quiet moves are reduced a ply more when the hash move is a
    /// capture or a promotion: the position is likely decided by it.
    tt_capture_lmr, "tt-capture-lmr" = false, "quiet moves reduced more after a capture hash move";
    /// Hindsight depth: a node reached by a move that LMR reduced by three
    /// plies or more is searched a ply deeper when the move looks good by
    /// the static evaluations (the reduction was too much), and a node
    /// reached by one reduced by two or more a ply shallower when the move
    /// looks bad by more than `hindsight_margin`. (SPRT [0, 10] at 5 000
    /// nodes: +18 [+5, +30] Elo, H1 after 1 500 games, but those games
    /// repeated 600 distinct ones.) Off since its removal passed on 3 276
    /// distinct games of the 6 000-opening book, with `alpha-raise` and
    /// `draw-jitter` off: off scored +10 [+1, +19], H1 of SPRT [−5, 0].
    hindsight, "hindsight" = false, "depth corrected by the parent's reduction and the evaluations";
    /// A quiet move whose reduced search beat alpha teaches the
    /// continuation histories what its full-depth re-search found: a
    /// bonus when it beat beta, a malus when it fell back to alpha. (SPRT
    /// [0, 10] at 5 000 nodes, one test continued over four runs: +9 [+2,
    /// +17] Elo, H1 after 4 706 games.)
    post_lmr_history, "post-lmr-history" = true, "continuation histories learn from LMR re-searches";
    /// The two static evaluations around a quiet move teach the butterfly
    /// history of its mover: a move after which the opponent's position
    /// looks worse than the mover's did gains, one that let it improve
    /// loses (Stockfish's "static evaluation difference" history). (SPRT
    /// [0, 10] at 5 000 nodes: +34 [+15, +53] Elo, H1 after 696 games.)
    eval_history, "eval-history" = true, "the evaluation swing of a quiet move feeds its history";
    /// Quiescence move-count pruning: after the first
    /// `QS_MOVE_COUNT` moves of a node not in check, only checks,
    /// promotions and recaptures are searched.
    qs_move_count, "qs-move-count" = false, "quiescence searches only checks, promotions and recaptures after two moves";
    /// The continuation histories of the moves 3 and 6 plies back join
    /// those of 1, 2 and 4 plies back.
    cont_3_6, "cont-3-6" = false, "continuation histories 3 and 6 plies back too";
    /// Each continuation history has four tables, chosen by whether the
    /// earlier move was a capture and whether its mover was in check
    /// (Stockfish's `continuationHistory[inCheck][capture]`): a reply to a
    /// capture or to an evasion is learnt apart from a reply to a quiet
    /// move of the same piece to the same square.
    cont_check_capture, "cont-check-capture" = false, "continuation histories split by the earlier move's capture and check";
    /// A cut-off refutes the move that led to it: when that move was not a
    /// capture and was the first its node tried after the table's (the
    /// move the parent's order trusted most), its continuation histories
    /// lose the cut-off's malus (Stockfish's "extra penalty for a quiet
    /// early move").
    /// On from 2026-12-01 (tested together with `prior-bonus`, see there);
    /// off since 2026-12-02: its removal alone (with `cont-update-weights`
    /// off) passed as a simplification, +1.5 [−3.4, +6.4], H1 of SPRT
    /// [−5, 0] after 10 864 games at 5 000 nodes (docs/search.md).
    early_refutation_malus, "early-refutation-malus" = false, "an early quiet move refuted by a cut-off loses continuation history";
    /// Null-move pruning only at expected cut-nodes.
    nmp_cut_node, "nmp-cut-node" = false, "null move only at expected cut-nodes";
    /// Quiescence futility: far enough below alpha (the static evaluation
    /// plus `delta_margin`), a capture that does not win material by
    /// static exchange is not searched.
    qs_futility, "qs-futility" = false, "quiescence skips even trades far below alpha";
    /// A cut-off far above beta (by `BIG_CUT_MARGIN`) teaches the
    /// histories as if it came from a ply deeper.
    big_cut_bonus, "big-cut-bonus" = false, "a cut-off far above beta earns a deeper history bonus";
    /// Futility and SEE pruning of a quiet move use its reduced depth
    /// moved by its history (history / `lmr_history_div`, as LMR does).
    /// (SPRT [0, 10] at 5 000 nodes, one test continued over two runs:
    /// +11 [+2, +21] Elo, H1 after 2 892 games.)
    pruning_history_depth, "pruning-history-depth" = true, "quiet pruning at a history-adjusted depth";
    /// Quiet moves that give check without losing material (SEE above
    /// `-QUIET_CHECK_SEE`) are ordered ahead by `QUIET_CHECK_BONUS`.
    /// (SPRT [0, 10] at 5 000 nodes on the defaults of ea38a41: +14 [+3,
    /// +25] Elo, H1 after 2 238 games; two earlier runs on older defaults
    /// had been undecided at +8 over 3 000. Those runs counted repeated
    /// games; re-tested off on 5 199 distinct games it scored +5 [−2, +12],
    /// H1 of SPRT [−5, 0]: off since.)
    quiet_check_order, "quiet-check-order" = false, "safe quiet checks ordered earlier";
    /// A history of quiet moves at the first `LOW_PLY` plies of the
    /// search, cleared at each new search: it orders the moves near the
    /// root by what worked there in this search.
    low_ply_history, "low-ply-history" = false, "history of the first plies, for ordering";
    /// A capture whose victim, history and a depth margin still leave the
    /// static evaluation below alpha is skipped (futility for captures).
    /// (SPRT [0, 10] at 5 000 nodes, one test continued over three runs:
    /// +10 [+2, +19] Elo, H1 after 3 367 games.)
    capture_futility, "capture-futility" = true, "futility pruning of captures";
    /// Quiet moves that take a piece off a square a lesser enemy piece
    /// attacks are ordered earlier, moves onto such a square later.
    /// (SPRT [0, 10] at 5 000 nodes, one test continued over two runs:
    /// +12 [+3, +21] Elo, H1 after 2 795 games; re-tested off on 2 410
    /// distinct games: −19 [−29, −9], H0 of SPRT [−5, 0].)
    threat_escape, "threat-escape" = true, "quiet moves ordered by escaping or entering attacks of lesser pieces";
    /// Reverse futility pruning is not tried where the table holds a
    /// quiet hash move: a quiet move has already refuted or held this
    /// position, so the margin over beta is the search's, not a capture's.
    rfp_quiet_tt, "rfp-quiet-tt" = false, "no reverse futility with a quiet hash move";
    /// Captures that are reduced (those losing material by SEE) are
    /// reduced less for a good capture history and more for a bad one.
    /// (SPRT [0, 10] at 5 000 nodes: +23 [+7, +38] Elo, H1 after 1 004
    /// games.)
    lmr_capture_history, "lmr-capture-history" = true, "capture reductions moved by capture history";
    /// Internal iterative reduction also where the hash entry is far
    /// shallower than the node (by `IIR_SHALLOW_TT`): its move was found by
    /// a much smaller search.
    iir_shallow_tt, "iir-shallow-tt" = false, "internal iterative reduction after a shallow hash entry too";
    /// A cut-off's score is pulled towards beta by a share that shrinks
    /// with depth: `(score × depth + beta) / (depth + 1)`.
    fail_high_blend, "fail-high-blend" = false, "cut-off scores pulled towards beta by depth";
    /// "Improving" compares with four plies back when the node two plies
    /// back was in check (it has no static evaluation); off, such a node
    /// counts as improving.
    improving_fallback, "improving-fallback" = false, "improving from four plies back past a check";
    /// Later moves are reduced more when the nodes below keep failing high.
    cutoff_count, "cutoff-count" = true, "cut-off counts of the children in reductions";
    /// After a reduced search beats alpha, the full-depth search goes a
    /// ply deeper when it beat the best score by far, a ply shallower
    /// when barely (doDeeper / doShallower).
    deeper, "deeper" = false, "deeper or shallower re-searches after LMR";
    /// A table lower bound or exact score at most four plies shallower
    /// that lies `tt_probcut_margin` above beta ends the node with beta plus that
    /// margin, before any move is searched (a small ProbCut from the table
    /// alone, in check too).
    tt_probcut, "tt-probcut" = false, "a table lower bound or exact score far above beta cuts the node (small ProbCut)";
    /// Expected cut-nodes without a hash move are reduced a ply more: with
    /// no move known to refute, the first moves are guesses.
    cut_no_tt_lmr, "cut-no-tt-lmr" = false, "expected cut-nodes without a hash move reduced a ply more";
    /// Quiescence stands pat on the table's score where its bound says
    /// the static evaluation is too low (a lower bound above it) or too
    /// high (an upper bound below it), as the main search's evaluation is
    /// refined in its step 4. (SPRT [0, 10] at 5 000 nodes: undecided at
    /// +8 after 3 000 games on the defaults of ea38a41, then H1 on those of
    /// 2a49beb, +22 [+7, +36] after 1 233 games.)
    qs_tt_eval, "qs-tt-eval" = true, "quiescence stands pat on the table's score where its bound refines the evaluation";
    /// The move picker counts a quiet move's butterfly history twice
    /// (the continuation and pawn histories once), as Stockfish weighs its
    /// main history; pruning and reductions read the plain sum. (SPRT
    /// [0, 10] at 5 000 nodes on the defaults of 5cdd65e: +15 [+4, +27]
    /// Elo, H1 after 1 917 games. That run counted repeated games;
    /// re-tested off on 6 243 distinct games it scored +4 [−2, +10], H1
    /// of SPRT [−5, 0]: off since.)
    order_butterfly_x2, "order-butterfly-x2" = false, "the butterfly history counted twice in the quiet move order";
    /// The move picker counts a quiet move's pawn history twice, as
    /// Stockfish's picker weighs it beside its main history (no effect
    /// without `pawn-history`); pruning and reductions read the plain sum. (SPRT
    /// [0, 10] at 5 000 nodes on the defaults of 650f904: +13 [+3, +23]
    /// Elo, H1 after 2 318 games.)
    order_pawn_x2, "order-pawn-x2" = true, "the pawn history counted twice in the quiet move order";
    /// In check, the quiescence search stops after two quiet evasions
    /// once a move has escaped the mate (Stockfish's quiet-evasion limit).
    qs_evasion_limit, "qs-evasion-limit" = false, "quiescence in check stops after two quiet evasions once the mate is escaped";

    /// Mate-distance pruning.
    mate_distance, "mdp" = true, "mate-distance pruning";
    /// Null-move pruning (adaptive R, verified in late endgames).
    null_move, "null" = true, "null-move pruning";
    /// Reverse futility pruning (static null move).
    reverse_futility, "rfp" = true, "reverse futility pruning";
    /// Reverse futility's margin shrinks by a third of a depth's margin
    /// when the opponent's last move made its position worse (by the two
    /// static evaluations). (SPRT [0, 10] at 5 000 nodes: +21 [+7, +36]
    /// Elo, H1 after 1 102 games; replicated: +19 [+4, +34] in 1 000.)
    rfp_worsening, "rfp-worsening" = true, "reverse futility margin lower when the opponent worsened";
    /// Futility pruning of quiet moves near the horizon.
    futility, "futility" = true, "futility pruning";
    /// Razoring: drop into quiescence far below alpha near the horizon.
    razoring, "razoring" = true, "razoring";
    /// Late-move reductions.
    lmr, "lmr" = true, "late-move reductions";
    /// Once a move has raised alpha at a PV node of middling depth, the
    /// moves after it are searched (and the node stored and its histories
    /// taught) `alpha_raise_reduction` plies shallower: each must now beat
    /// a real score, which a shallower search tells well enough
    /// (Stockfish's reduction after an alpha raise). With one ply: +10
    /// [+3, +18] Elo at 5 000 nodes, H1 after 3 022 games (SPRT [0, 10]),
    /// but those games repeated 600 distinct ones; with two, −34 [−57,
    /// −11] after 478 (H0). Off since its removal passed on 8 093
    /// distinct games of the 6 000-opening book: off scored +2.7 [−3.1,
    /// +8.4], H1 of SPRT [−5, 0].
    alpha_raise, "alpha-raise" = false, "the moves after an alpha raise searched shallower";
    /// Late-move pruning (move-count pruning of quiet moves).
    lmp, "lmp" = true, "late-move pruning";
    /// SEE pruning of losing moves near the horizon.
    see_pruning, "see-pruning" = true, "SEE pruning in the main search";
    /// The search's SEE (pruning, reductions, ProbCut, quiescence) leaves
    /// pinned pieces out of the exchange (off: every attacker takes part,
    /// as in most engines' SEE). Off: pins cost time on every call and no
    /// SPRT has shown that they pay (the last, at [0, 5] on 5 000 nodes:
    /// +0.7 [−8.6, +9.9] Elo after 2 984 games, undecided).
    see_pins, "see-pins" = false, "pinned pieces left out of the search's SEE";
    /// ProbCut: a shallow search predicts a fail-high of the deep one.
    probcut, "probcut" = true, "ProbCut";
    /// ProbCut by Buro's fitted regressions ([`ProbCut::fits`], cut
    /// probability [`ProbCut::confidence`]); off: the fixed margin
    /// (`probcut_margin` above beta, `probcut_reduction` plies shallower,
    /// tunables of [`SearchParams`]), until the fitted rule wins an SPRT.
    probcut_fitted, "probcut-fitted" = false, "ProbCut by fitted regressions instead of the fixed margin";
    /// Internal iterative reduction: search one ply shallower without a
    /// hash move.
    iir, "iir" = true, "internal iterative reduction";
    /// Internal iterative reduction takes a second ply off an expected
    /// cut-node without a hash move from depth 8 (Stockfish 16's rule).
    iir_cut_deep, "iir-cut-deep" = false, "internal iterative reduction of two plies at deep cut-nodes";
    /// Internal iterative reduction takes a second ply off a PV node
    /// without a hash move (Stockfish reduces such nodes by 2–3 plies).
    iir_pv_deep, "iir-pv-deep" = false, "internal iterative reduction of two plies at PV nodes";

    /// Lazy SMP: the move played is voted for by every thread's last
    /// completed iteration (weighted by depth and score), not taken from
    /// the main thread alone.
    smp_vote, "smp-vote" = false, "threads vote for the move played (Lazy SMP)";
    /// Lazy SMP: every odd-numbered helper searches one ply deeper than
    /// its own iteration count; off, every thread deepens in step and only
    /// the shared table and their own histories set them apart.
    smp_offset, "smp-offset" = true, "odd helper threads search a ply ahead (Lazy SMP)";
    /// Lazy SMP: when a helper thread has completed an iteration as deep
    /// as the one the main thread is about to start, the main thread takes
    /// it (move, score and line) as its own and starts the next depth.
    smp_adopt, "smp-adopt" = false, "the main thread adopts a helper's deeper completed iteration (Lazy SMP)";
    /// Lazy SMP: as `smp-adopt`, and the main thread also leaves the
    /// iteration it is searching as soon as a helper completes that depth,
    /// taking the helper's iteration instead of finishing the same work.
    smp_join, "smp-join" = false, "the main thread leaves its iteration once a helper completes that depth (Lazy SMP)";
    /// Upcoming-repetition detection: raise alpha to a draw where the side
    /// to move can repeat a position (cuckoo tables, [`crate::cuckoo`]).
    cuckoo, "cuckoo" = true, "upcoming-repetition detection (cuckoo tables)";
    /// Draws inside the tree score one unit above or below zero (by the
    /// node count) instead of exactly zero, so that the search does not
    /// walk into a repetition it cannot see through. (SPRT [0, 10] at 5 000
    /// nodes: +12 [+3, +22] Elo, H1 after 2 854 games, but those games
    /// repeated 600 distinct ones.) Off since its removal passed on 10 533
    /// distinct games of the 6 000-opening book: off scored +1.5 [−3.6,
    /// +6.5], H1 of SPRT [−5, 0].
    draw_jitter, "draw-jitter" = false, "draw scores jittered by a unit";
    /// Time management scales the optimum by the best move's node share
    /// and a falling score as well as by best-move stability (off: by
    /// stability alone; see [`crate::time::IterationTracker`]). Off:
    /// undecided at 2+0.02 (+6 [−5, +16] Elo after 1 200 games on idle
    /// cores; −18 ± 32 on a loaded machine before), at 10+0.1 (+0.9
    /// [−19.6, +21.4] after 384 games) and at 60+0.6 (−3.2 [−35.4, +29.1]
    /// after 110 games).
    time_signals, "tm-signals" = false, "time management by node share and falling score too";
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

    /// Switches on each feature of a comma-separated list (`ttpv,deeper`,
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

    /// Whether any correction history is on.
    pub(crate) fn correction(&self) -> bool {
        self.correction_history || self.correction_pieces || self.correction_cont
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
        assert!(help.contains("qs-checks: ") && help.contains("corrhist: "));
    }
}
