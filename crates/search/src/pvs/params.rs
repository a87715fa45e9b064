//! [`SearchParams`]: every number of the PVS search that is not a switch,
//! in one named, documented set that a tuner (SPSA) or a UCI option can read
//! and write by name.
//!
//! Each entry carries its default, the range a tuner may move it in, and
//! the perturbation size at the end of an SPSA run (OpenBench's `c_end`);
//! [`SearchParams::ENTRIES`] lists them all. Margins are centipawns unless
//! the documentation says otherwise; the search reads the fields directly,
//! so a value costs nothing to use.
//!
//! The defaults are the rounded result of the SPSA tunes with the NNUE
//! evaluation that passed their SPRTs (`fianchetto tune spsa`, at 5 000 and
//! 10 000 nodes a move, each over the tunables of the switches then on);
//! `docs/tuning.md` has every run, its command and its SPRT.
//!
//! ```
//! use fianchetto_eval::Tunable;
//! use fianchetto_search::pvs::SearchParams;
//!
//! let mut p = SearchParams::default();
//! assert_eq!(p.value("rfp_margin"), Some(p.rfp_margin));
//! p.set_value("rfp_margin", 90)?;
//! assert_eq!(p.rfp_margin, 90);
//! // Outside the documented range: refused, the value stays.
//! assert!(p.set_value("rfp_margin", 100_000).is_err());
//! assert_eq!(p.rfp_margin, 90);
//! assert!(p.set_value("no_such_margin", 1).is_err());
//! # Ok::<(), fianchetto_eval::TunableError>(())
//! ```

use fianchetto_eval::{Tunable, TunableError, TunableSpec};

/// One entry of [`SearchParams::ENTRIES`]: what a tuner or a UCI front end
/// needs to know about a search tunable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamInfo {
    /// The name (also the UCI option's name).
    pub name: &'static str,
    /// The default value.
    pub default: i32,
    /// The smallest accepted value.
    pub min: i32,
    /// The largest accepted value.
    pub max: i32,
    /// The SPSA perturbation at the end of a run (OpenBench's `c_end`).
    pub step: i32,
    /// What the number does.
    pub doc: &'static str,
}

macro_rules! search_params {
    ($( $(#[doc = $doc:literal])+ $name:ident = $default:literal, $min:literal ..= $max:literal, step $step:literal; )*) => {
        /// The search's tunable numbers (see the [module documentation](self)).
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub struct SearchParams {
            $( $(#[doc = $doc])+ pub $name: i32, )*
        }

        impl Default for SearchParams {
            fn default() -> SearchParams {
                SearchParams { $( $name: $default, )* }
            }
        }

        impl SearchParams {
            /// Every tunable: name, default, range, SPSA step and description.
            pub const ENTRIES: &'static [ParamInfo] = &[
                $( ParamInfo {
                    name: stringify!($name),
                    default: $default,
                    min: $min,
                    max: $max,
                    step: $step,
                    doc: concat!($($doc),+),
                }, )*
            ];

            fn slot(&mut self, name: &str) -> Option<&mut i32> {
                match name {
                    $( stringify!($name) => Some(&mut self.$name), )*
                    _ => None,
                }
            }

            /// The value of `name`, `None` if no tunable has that name.
            pub fn get(&self, name: &str) -> Option<i32> {
                match name {
                    $( stringify!($name) => Some(self.$name), )*
                    _ => None,
                }
            }
        }
    };
}

search_params! {
    /// Reverse futility: margin per ply of depth.
    rfp_margin = 100, 40..=250, step 8;
    /// Reverse futility: margin taken off when the evaluation improves.
    rfp_improving = 50, 0..=150, step 6;
    /// Reverse futility: deepest depth it applies at.
    rfp_depth = 7, 3..=14, step 1;
    /// Razoring: base margin below alpha.
    razor_base = 152, 0..=500, step 15;
    /// Razoring: margin per ply of depth.
    razor_mult = 171, 50..=400, step 12;
    /// Razoring: deepest depth it applies at (0: never).
    razor_depth = 0, 0..=8, step 1;
    /// Null move: base reduction.
    nmp_base = 5, 2..=9, step 1;
    /// Null move: one more ply of reduction every this many plies of depth.
    nmp_depth_div = 3, 2..=8, step 1;
    /// Null move: one more ply of reduction per this much evaluation above beta (at most 3).
    nmp_eval_div = 161, 80..=400, step 15;
    /// Null move: the static evaluation must reach beta − this × depth + `nmp_offset`.
    nmp_depth_margin = 13, 0..=60, step 3;
    /// Null move: see `nmp_depth_margin`.
    nmp_offset = 100, 0..=300, step 12;
    /// Internal iterative reduction: smallest depth.
    iir_depth = 3, 1..=10, step 1;
    /// Futility pruning: base margin over the static evaluation.
    futility_base = 33, 0..=200, step 8;
    /// Futility pruning: margin per ply of reduced depth.
    futility_mult = 53, 20..=200, step 6;
    /// Futility pruning: deepest reduced depth it applies at.
    futility_depth = 8, 3..=14, step 1;
    /// Late-move pruning: quiet moves kept at depth d are (this + d²), halved when not improving.
    lmp_base = 9, 1..=16, step 1;
    /// Late-move pruning: deepest depth it applies at.
    lmp_depth = 9, 3..=14, step 1;
    /// SEE pruning of quiet moves: threshold −this × (reduced depth)².
    see_quiet_mult = 40, 5..=120, step 4;
    /// SEE pruning of captures: threshold −this × depth.
    see_noisy_mult = 93, 20..=250, step 8;
    /// SEE pruning: deepest depth it applies at.
    see_depth = 8, 3..=14, step 1;
    /// History pruning: quiet moves whose history is below −this × depth are pruned (reduced depth < `history_prune_depth`).
    history_prune_mult = 3456, 1000..=12000, step 300;
    /// History pruning: deepest reduced depth it applies at.
    history_prune_depth = 3, 1..=8, step 1;
    /// Late-move reductions: the table's constant, hundredths of a ply.
    lmr_base = 71, 0..=200, step 8;
    /// Late-move reductions: the table's divisor of ln(depth)·ln(move number), hundredths.
    lmr_div = 203, 150..=400, step 12;
    /// Late-move reductions: one ply less per this much history (history-adjusted reductions).
    lmr_history_div = 8388, 2048..=20000, step 500;
    /// Late-move reductions: a reduced capture's one ply less per this much capture history (`history-extras`).
    lmr_capture_history_div = 5802, 1500..=16000, step 500;
    /// Late-move reductions: plies more at an expected cut-node (a node whose parent expects it to fail high: its late moves are least likely to matter).
    lmr_cut_node = 1, 0..=3, step 1;
    /// History bonus: per ply of depth squared.
    history_bonus_quad = 11, 0..=64, step 2;
    /// History bonus: per ply of depth.
    history_bonus_mult = 119, 0..=600, step 20;
    /// History bonus: constant term (may be negative).
    history_bonus_base = 45, -500..=300, step 25;
    /// History bonus: largest bonus (without `history-extras`, the malus of the moves tried before is the same).
    history_bonus_max = 9555, 500..=16384, step 400;
    /// History malus (`history-extras`): per ply of depth squared.
    history_malus_quad = 15, 0..=64, step 2;
    /// History malus (`history-extras`): per ply of depth.
    history_malus_mult = 168, 0..=800, step 20;
    /// History malus (`history-extras`): constant term (may be negative).
    history_malus_base = 68, -500..=400, step 25;
    /// History malus (`history-extras`): largest malus.
    history_malus_max = 12000, 500..=16384, step 400;
    /// Move ordering: capture score is this × the victim's value plus its capture history.
    capture_mvv_mult = 18, 4..=64, step 2;
    /// Move ordering: captures with SEE below −this are tried after the quiet moves.
    bad_capture_margin = 25, -100..=200, step 10;
    /// Quiescence: delta-pruning margin over the captured piece's value.
    delta_margin = 221, 50..=500, step 15;
    /// Aspiration window: initial half-width.
    aspiration_delta = 9, 4..=80, step 3;
    /// Aspiration window: each fail-high or fail-low widens it by this many 1/1024 of its half-width (512: half again).
    aspiration_growth = 531, 128..=1024, step 64;
    /// Correction history: the entry's scale (correction = entry / this, centipawns).
    corr_grain = 218, 64..=1024, step 32;
    /// Correction history: largest |correction| stored, in entry units.
    corr_max = 7744, 1024..=32000, step 512;
    /// Correction history: update weight per ply of depth, in sixteenths of 1/256 (16: the published min(depth + 1, 16) / 256).
    corr_weight_mult = 19, 2..=64, step 3;
    /// Correction history: the pawn table's weight in the correction, percent.
    corr_pawn_weight = 108, 0..=300, step 10;
    /// Correction history: each colour's non-pawn table's weight, percent.
    corr_non_pawn_weight = 51, 0..=300, step 10;
    /// Correction history: the minor-piece table's weight, percent.
    corr_minor_weight = 59, 0..=300, step 10;
    /// Correction history: the major-piece table's weight, percent.
    corr_major_weight = 52, 0..=300, step 10;
    /// Correction history: the continuation (last two moves) table's weight, percent.
    corr_cont_weight = 58, 0..=300, step 10;
    /// Evaluation scaling: the evaluation is multiplied by (this + non-pawn material) / 32768 (material: knight and bishop 450, rook 650, queen 1250).
    eval_material_base = 23272, 16000..=32768, step 800;
    /// Evaluation scaling: the evaluation is multiplied by (this − half-move clock) / this.
    eval_clock_div = 237, 100..=1000, step 20;
    /// ProbCut (margin rule): a capture whose shallow search reaches β + this cuts the node.
    probcut_margin = 204, 60..=400, step 15;
    /// ProbCut (margin rule): smallest depth probed.
    probcut_depth = 7, 3..=10, step 1;
    /// ProbCut (margin rule): how many plies shallower the probe searches.
    probcut_reduction = 3, 1..=6, step 1;
    /// Singular extensions: smallest depth.
    se_depth = 7, 4..=14, step 1;
    /// Singular extensions: how much shallower the table's entry may be.
    se_tt_depth_margin = 2, 0..=6, step 1;
    /// Singular extensions: singular beta is the table score minus this × depth / 8.
    se_beta_mult = 14, 4..=64, step 2;
    /// Double extensions: how far below singular beta a non-PV move must stay.
    se_double_margin = 23, 0..=100, step 5;
    /// Double extensions: at most this many along a line.
    se_double_max = 5, 0..=16, step 1;
}

impl SearchParams {
    /// The entry called `name`.
    pub fn info(name: &str) -> Option<&'static ParamInfo> {
        Self::ENTRIES.iter().find(|e| e.name == name)
    }
}

impl Tunable for SearchParams {
    fn names(&self) -> Vec<String> {
        Self::ENTRIES.iter().map(|e| e.name.to_string()).collect()
    }

    fn value(&self, name: &str) -> Option<i32> {
        self.get(name)
    }

    fn set_value(&mut self, name: &str, value: i32) -> Result<(), TunableError> {
        let info = Self::info(name).ok_or_else(|| TunableError::UnknownName(name.to_string()))?;
        if !(info.min..=info.max).contains(&value) {
            return Err(TunableError::OutOfRange {
                name: name.to_string(),
                value,
                min: info.min,
                max: info.max,
            });
        }
        if let Some(slot) = self.slot(name) {
            *slot = value;
        }
        Ok(())
    }

    fn spec(&self, name: &str) -> Option<TunableSpec> {
        let info = Self::info(name)?;
        Some(TunableSpec {
            value: self.get(name)?,
            min: info.min,
            max: info.max,
            c_end: info.step as f64,
            r_end: 0.002,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_lie_in_their_ranges_and_names_are_unique() {
        let p = SearchParams::default();
        let mut names = std::collections::HashSet::new();
        for e in SearchParams::ENTRIES {
            assert!(names.insert(e.name), "{} twice", e.name);
            assert!(e.min <= e.default && e.default <= e.max, "{}", e.name);
            assert_eq!(p.get(e.name), Some(e.default));
            assert!(e.step >= 1);
            assert!(!e.doc.is_empty());
        }
    }

    #[test]
    fn every_entry_round_trips_by_name() {
        let mut p = SearchParams::default();
        for e in SearchParams::ENTRIES {
            p.set_value(e.name, e.max).expect("in range");
            assert_eq!(p.value(e.name), Some(e.max));
            assert!(p.set_value(e.name, e.max + 1).is_err());
            assert_eq!(p.value(e.name), Some(e.max));
        }
        assert_ne!(p, SearchParams::default());
    }
}
