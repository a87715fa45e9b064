//! The named evaluations: [`Material`], [`BuhoChess`], [`Classical`], and
//! [`Preset`] to pick one by name.

use crate::breakdown::Breakdown;
use crate::evaluator::Evaluator;
use crate::hce::{self, Bbs};
use crate::params::Params;
use crate::pawns::PawnTable;
use crate::score::Score;
use fianchetto_board::{Board, Color};
use std::fmt;
use std::str::FromStr;

/// Piece values in centipawns (the king has none).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MaterialValues {
    /// Pawn.
    pub pawn: i32,
    /// Knight.
    pub knight: i32,
    /// Bishop.
    pub bishop: i32,
    /// Rook.
    pub rook: i32,
    /// Queen.
    pub queen: i32,
}

impl MaterialValues {
    /// The classic 1/3/3/5/9.
    pub const CLASSIC: MaterialValues = MaterialValues {
        pawn: 100,
        knight: 300,
        bishop: 300,
        rook: 500,
        queen: 900,
    };
    /// Greenblatt's 1/3.25/3.5/5/9.75 (Zanin).
    pub const GREENBLATT: MaterialValues = MaterialValues {
        pawn: 100,
        knight: 325,
        bishop: 350,
        rook: 500,
        queen: 975,
    };
    /// BuhoChess's 100/300/310/500/900 (Lugo).
    pub const BUHOCHESS: MaterialValues = MaterialValues {
        pawn: 100,
        knight: 300,
        bishop: 310,
        rook: 500,
        queen: 900,
    };

    /// The values indexed by role (pawn … king, the king 0).
    pub const fn by_role(self) -> [i32; 6] {
        [
            self.pawn,
            self.knight,
            self.bishop,
            self.rook,
            self.queen,
            0,
        ]
    }
}

impl Default for MaterialValues {
    fn default() -> MaterialValues {
        MaterialValues::CLASSIC
    }
}

/// Material only: the sum of piece values, white minus black, for the side
/// to move (0 for a dead draw by insufficient material). The fastest
/// evaluation, and the baseline of every comparison.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Material {
    values: MaterialValues,
}

impl Material {
    /// Material with the given piece values.
    pub const fn new(values: MaterialValues) -> Material {
        Material { values }
    }

    /// Classic 1/3/3/5/9 (the default).
    pub const fn classic() -> Material {
        Material::new(MaterialValues::CLASSIC)
    }

    /// Greenblatt 1/3.25/3.5/5/9.75.
    pub const fn greenblatt() -> Material {
        Material::new(MaterialValues::GREENBLATT)
    }

    /// The piece values.
    pub const fn values(&self) -> MaterialValues {
        self.values
    }

    /// The equivalent parameter set (material weights only).
    pub fn params(&self) -> Params {
        Params::material_only(self.values)
    }

    /// The evaluation taken apart (only the material row is non-zero).
    pub fn breakdown<B: Board>(&self, board: &B) -> Breakdown {
        let mut out = Breakdown::default();
        hce::evaluate(&self.params(), board, None, &mut out);
        out
    }
}

impl<B: Board> Evaluator<B> for Material {
    #[inline]
    fn evaluate(&mut self, board: &B) -> Score {
        let bb = Bbs::read(board);
        if bb.insufficient() {
            return Score::DRAW;
        }
        let v = self.values.by_role();
        let mut s = 0;
        for (r, value) in v.iter().enumerate().take(5) {
            s += (bb.p[0][r].count_ones() as i32 - bb.p[1][r].count_ones() as i32) * value;
        }
        Score(if board.turn() == Color::White { s } else { -s })
    }
}

macro_rules! param_evaluator {
    ($(#[$doc:meta])* $name:ident, $params:expr) => {
        $(#[$doc])*
        #[derive(Clone, Debug)]
        pub struct $name {
            params: Params,
            pawns: PawnTable,
            scratch: Breakdown,
        }

        impl $name {
            /// The evaluation with its preset weights.
            pub fn new() -> $name {
                $name::with_params($params)
            }

            /// The same terms with other weights (for tuning).
            pub fn with_params(params: Params) -> $name {
                $name { params, pawns: PawnTable::default(), scratch: Breakdown::default() }
            }

            /// The weights.
            pub fn params(&self) -> &Params {
                &self.params
            }

            /// Replaces the weights (and clears the pawn cache, which
            /// depends on them).
            pub fn set_params(&mut self, params: Params) {
                self.params = params;
                self.pawns.clear();
            }

            /// Mutable access to the weights; the pawn cache is cleared now,
            /// as the caller is about to change what it depends on.
            pub fn params_mut(&mut self) -> &mut Params {
                self.pawns.clear();
                &mut self.params
            }

            /// The pawn hash table.
            pub fn pawn_table(&self) -> &PawnTable {
                &self.pawns
            }

            /// The evaluation of `board` taken apart term by term.
            pub fn breakdown<B: Board>(&mut self, board: &B) -> Breakdown {
                let mut out = Breakdown::default();
                hce::evaluate(&self.params, board, Some(&mut self.pawns), &mut out);
                out
            }
        }

        impl Default for $name {
            fn default() -> $name {
                $name::new()
            }
        }

        impl<B: Board> Evaluator<B> for $name {
            #[inline]
            fn evaluate(&mut self, board: &B) -> Score {
                Score(hce::evaluate(&self.params, board, Some(&mut self.pawns), &mut self.scratch))
            }
        }
    };
}

param_evaluator!(
    /// The complete evaluation of BuhoChess (Lugo 2010): material
    /// 100/300/310/500/900, protected pieces, attacked squares, centre,
    /// bishop pair and first rank, rook files, connections and 7th rank,
    /// castling, attack lines, pawn shield and open files, passed, isolated,
    /// backward and doubled pawns, and the thesis' piece-square tables, with
    /// the endgame king table below 1300 cp of material a side. See
    /// [`Params::buhochess`].
    BuhoChess,
    Params::buhochess()
);

param_evaluator!(
    /// The project's own strongest hand-crafted evaluation: tapered tables
    /// and every term, with endgame scaling and mating knowledge. See
    /// [`Params::classical`].
    Classical,
    Params::classical()
);

/// A named evaluation a user can pick (`--eval`, the UCI option).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Preset {
    /// [`Material`] (classic values).
    Material,
    /// [`BuhoChess`].
    BuhoChess,
    /// [`Classical`] (the default).
    #[default]
    Classical,
}

impl Preset {
    /// Every preset.
    pub const ALL: [Preset; 3] = [Preset::Material, Preset::BuhoChess, Preset::Classical];

    /// The name users type: `material`, `buhochess`, `classical`.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Material => "material",
            Preset::BuhoChess => "buhochess",
            Preset::Classical => "classical",
        }
    }

    /// A fresh evaluator of this preset.
    pub fn evaluator(self) -> PresetEvaluator {
        match self {
            Preset::Material => PresetEvaluator::Material(Material::default()),
            Preset::BuhoChess => PresetEvaluator::BuhoChess(Box::default()),
            Preset::Classical => PresetEvaluator::Classical(Box::default()),
        }
    }

    /// A fresh evaluator of this preset's terms with other weights (for
    /// example what `tune texel` wrote). [`Preset::Material`] has no
    /// weights to change and ignores them.
    ///
    /// ```
    /// use fianchetto_eval::{Params, ParamsError, Preset};
    ///
    /// let weights = Params::from_text(Preset::Classical.params(), "tempo[0] 0\ntempo[1] 0")?;
    /// let tuned = Preset::Classical.evaluator_with(weights);
    /// assert_eq!(tuned.preset(), Preset::Classical);
    /// # Ok::<(), ParamsError>(())
    /// ```
    pub fn evaluator_with(self, params: Params) -> PresetEvaluator {
        match self {
            Preset::Material => PresetEvaluator::Material(Material::default()),
            Preset::BuhoChess => {
                PresetEvaluator::BuhoChess(Box::new(BuhoChess::with_params(params)))
            }
            Preset::Classical => {
                PresetEvaluator::Classical(Box::new(Classical::with_params(params)))
            }
        }
    }

    /// The preset's weights.
    pub fn params(self) -> Params {
        match self {
            Preset::Material => Params::material_only(MaterialValues::CLASSIC),
            Preset::BuhoChess => Params::buhochess(),
            Preset::Classical => Params::classical(),
        }
    }

    /// The evaluation of `board` by this preset, taken apart.
    pub fn breakdown<B: Board>(self, board: &B) -> Breakdown {
        let mut out = Breakdown::default();
        hce::evaluate(&self.params(), board, None, &mut out);
        out
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The name is not a preset.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown evaluation `{0}`; expected one of: material, buhochess, classical")]
pub struct UnknownPreset(pub String);

impl FromStr for Preset {
    type Err = UnknownPreset;
    /// Case-insensitive: `material`, `buhochess`, `classical`.
    fn from_str(s: &str) -> Result<Preset, UnknownPreset> {
        Preset::ALL
            .iter()
            .copied()
            .find(|p| p.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownPreset(s.to_string()))
    }
}

/// Any preset's evaluator, chosen at run time (the parameter-set ones are
/// boxed: they carry a pawn hash table).
#[derive(Clone, Debug)]
pub enum PresetEvaluator {
    /// [`Material`].
    Material(Material),
    /// [`BuhoChess`].
    BuhoChess(Box<BuhoChess>),
    /// [`Classical`].
    Classical(Box<Classical>),
}

impl PresetEvaluator {
    /// Which preset this is.
    pub fn preset(&self) -> Preset {
        match self {
            PresetEvaluator::Material(_) => Preset::Material,
            PresetEvaluator::BuhoChess(_) => Preset::BuhoChess,
            PresetEvaluator::Classical(_) => Preset::Classical,
        }
    }

    /// The evaluation of `board` taken apart.
    pub fn breakdown<B: Board>(&mut self, board: &B) -> Breakdown {
        match self {
            PresetEvaluator::Material(e) => e.breakdown(board),
            PresetEvaluator::BuhoChess(e) => e.breakdown(board),
            PresetEvaluator::Classical(e) => e.breakdown(board),
        }
    }
}

impl Default for PresetEvaluator {
    fn default() -> PresetEvaluator {
        Preset::default().evaluator()
    }
}

impl<B: Board> Evaluator<B> for PresetEvaluator {
    #[inline]
    fn evaluate(&mut self, board: &B) -> Score {
        match self {
            PresetEvaluator::Material(e) => e.evaluate(board),
            PresetEvaluator::BuhoChess(e) => Evaluator::<B>::evaluate(&mut **e, board),
            PresetEvaluator::Classical(e) => Evaluator::<B>::evaluate(&mut **e, board),
        }
    }
}
