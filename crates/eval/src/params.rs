//! `Params`: every weight of the hand-crafted evaluations in one plain struct
//! of `i32`s, that a tuner can list, read and write by name or by index.
//!
//! Conventions: a [`Tapered`] pair is `[middlegame, endgame]` in centipawns;
//! tables indexed by square use a1 = 0 … h8 = 63 from white's point of view
//! (black reads them flipped vertically); tables indexed by rank use the
//! rank relative to the piece's owner (0 = its first rank).

/// A `[middlegame, endgame]` pair of centipawn weights.
pub type Tapered = [i32; 2];

/// Something made of `i32` weights that can be walked by flat index (an
/// `i32`, or arrays of them, nested).
trait Weights {
    const LEN: usize;
    fn get(&self, i: usize) -> i32;
    fn slot(&mut self, i: usize) -> &mut i32;
    fn suffix(i: usize, out: &mut String);
}

impl Weights for i32 {
    const LEN: usize = 1;
    #[inline]
    fn get(&self, _: usize) -> i32 {
        *self
    }
    #[inline]
    fn slot(&mut self, _: usize) -> &mut i32 {
        self
    }
    fn suffix(_: usize, _: &mut String) {}
}

impl<T: Weights, const N: usize> Weights for [T; N] {
    const LEN: usize = N * T::LEN;
    #[inline]
    fn get(&self, i: usize) -> i32 {
        self[i / T::LEN].get(i % T::LEN)
    }
    #[inline]
    fn slot(&mut self, i: usize) -> &mut i32 {
        self[i / T::LEN].slot(i % T::LEN)
    }
    fn suffix(i: usize, out: &mut String) {
        out.push('[');
        out.push_str(&(i / T::LEN).to_string());
        out.push(']');
        T::suffix(i % T::LEN, out);
    }
}

macro_rules! params {
    ($( $(#[$doc:meta])* $name:ident : $ty:ty, )*) => {
        /// The parameter groups (struct fields) in index order, for the
        /// evaluation's trace: [`offset`] gives a group's first flat index.
        #[allow(non_camel_case_types, dead_code)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub(crate) enum Field {
            $( $name, )*
        }

        /// The number of weights in each group, in [`Field`] order.
        const FIELD_LENS: &[usize] = &[ $( <$ty as Weights>::LEN, )* ];

        /// Every weight of the hand-crafted evaluation, in one place.
        ///
        /// A term whose weights are all zero contributes nothing, so the
        /// presets ([`Params::material_only`], [`Params::buhochess`],
        /// [`Params::classical`]) differ only in these numbers. A tuner walks
        /// the weights with [`Params::len`], [`Params::get`], [`Params::set`]
        /// and [`Params::name`] (names look like `passed_rank[5][1]`).
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Params {
            $( $(#[$doc])* pub $name: $ty, )*
        }

        impl Params {
            /// The number of individual `i32` weights.
            pub const LEN: usize = 0 $( + <$ty as Weights>::LEN )*;

            /// The number of individual `i32` weights (same as [`Params::LEN`]).
            #[allow(clippy::len_without_is_empty)]
            pub const fn len(&self) -> usize {
                Self::LEN
            }

            /// The weight at flat `index`, `None` past the end.
            pub fn get(&self, index: usize) -> Option<i32> {
                let mut i = index;
                $(
                    if i < <$ty as Weights>::LEN {
                        return Some(Weights::get(&self.$name, i));
                    }
                    i -= <$ty as Weights>::LEN;
                )*
                let _ = i;
                None
            }

            /// A mutable reference to the weight at flat `index`.
            pub fn get_mut(&mut self, index: usize) -> Option<&mut i32> {
                let mut i = index;
                $(
                    if i < <$ty as Weights>::LEN {
                        return Some(Weights::slot(&mut self.$name, i));
                    }
                    i -= <$ty as Weights>::LEN;
                )*
                let _ = i;
                None
            }

            /// The name of the weight at flat `index`, e.g. `bishop_pair[0]`.
            pub fn name(index: usize) -> Option<String> {
                let mut i = index;
                $(
                    if i < <$ty as Weights>::LEN {
                        let mut s = String::from(stringify!($name));
                        <$ty as Weights>::suffix(i, &mut s);
                        return Some(s);
                    }
                    i -= <$ty as Weights>::LEN;
                )*
                let _ = i;
                None
            }

            /// The names of the parameter groups (struct fields), in index order,
            /// with their flat start index and length.
            pub fn groups() -> Vec<(&'static str, usize, usize)> {
                let mut out = Vec::new();
                let mut start = 0;
                $(
                    out.push((stringify!($name), start, <$ty as Weights>::LEN));
                    start += <$ty as Weights>::LEN;
                )*
                let _ = start;
                out
            }
        }
    };
}

params! {
    /// Piece values by role (pawn … king; the king's is unused), tapered.
    piece_value: [Tapered; 6],
    /// Piece-square bonuses by role and square (white's view, a1 = 0).
    psqt: [[Tapered; 64]; 6],
    /// Game-phase weight of each role (the usual 0/1/1/2/4/0, total 24).
    phase_weight: [i32; 6],
    /// When positive, the phase is all-or-nothing instead of tapered: the
    /// endgame weights apply when both sides have less non-king material
    /// than this (BuhoChess: 1300 cp), the middlegame ones otherwise.
    endgame_material: i32,

    /// Per pawn with another own pawn in front of it on its file.
    pawn_doubled: Tapered,
    /// Per pawn with no own pawn on an adjacent file.
    pawn_isolated: Tapered,
    /// Per pawn behind every own pawn of the adjacent files (not isolated).
    pawn_backward: Tapered,
    /// Extra, per backward pawn whose stop square an enemy pawn attacks.
    pawn_backward_exposed: Tapered,
    /// Per pawn defended by an own pawn (a chain link).
    pawn_chain: Tapered,
    /// Per pawn with an own pawn beside it on the same rank.
    pawn_phalanx: Tapered,
    /// Per chained or phalanx pawn, by its relative rank.
    pawn_connected: [Tapered; 8],
    /// Per passed pawn, by its relative rank.
    passed_rank: [Tapered; 8],
    /// Extra per passed pawn whose path to promotion is empty, by rank.
    passed_free: [Tapered; 8],
    /// Endgame: per square of distance from the own king to the passed
    /// pawn's stop square, times (relative rank − 2) (a penalty: use ≤ 0).
    passed_king_own: i32,
    /// Endgame: per square of distance from the enemy king to the stop
    /// square, times (relative rank − 2).
    passed_king_enemy: i32,

    /// Knight mobility by the number of safe squares it reaches.
    mobility_knight: [Tapered; 9],
    /// Bishop mobility by safe squares.
    mobility_bishop: [Tapered; 14],
    /// Rook mobility by safe squares.
    mobility_rook: [Tapered; 15],
    /// Queen mobility by safe squares.
    mobility_queen: [Tapered; 28],

    /// Bishops on both colours of square.
    bishop_pair: Tapered,
    /// Per bishop still on its own first rank.
    bishop_back_rank: Tapered,
    /// Per rook on a file without pawns.
    rook_open: Tapered,
    /// Per rook on a file with enemy pawns only.
    rook_semi_open: Tapered,
    /// Per rook on its seventh rank.
    rook_seventh: Tapered,
    /// Per pair of rooks on one file with nothing between them.
    rooks_connected_file: Tapered,
    /// Per pair of rooks on one rank with nothing between them.
    rooks_connected_rank: Tapered,
    /// Per knight on relative ranks 4–6, defended by a pawn, that no enemy
    /// pawn can ever attack.
    knight_outpost: Tapered,
    /// Per pawn on d4, e4, d5 or e5.
    center_pawn: Tapered,
    /// Per knight or bishop on d4, e4, d5 or e5.
    center_minor: Tapered,
    /// Per queen on d4, e4, d5 or e5.
    center_queen: Tapered,
    /// Per non-king piece (pawns included) defended by an own piece.
    protected_piece: Tapered,
    /// Per square attacked by at least one own piece.
    attacked_square: Tapered,
    /// Per enemy knight, bishop, rook or queen attacked by an own pawn.
    threat_by_pawn: Tapered,
    /// Per enemy rook or queen attacked by an own knight or bishop.
    threat_by_minor: Tapered,
    /// Per enemy knight, bishop, rook or queen attacked and not defended.
    threat_hanging: Tapered,

    /// King shield, per file next to the king (its own and the adjacent
    /// ones), by the relative rank of the own pawn nearest in front
    /// (index 0: no such pawn).
    king_shield: [Tapered; 8],
    /// Pawn storm, per file next to the king, by the relative rank (from the
    /// defender's side) of the nearest enemy pawn in front (0: none).
    king_storm: [Tapered; 8],
    /// Per file next to the king without any pawn.
    king_open_file: Tapered,
    /// Per file next to the king with enemy pawns only.
    king_semi_open_file: Tapered,
    /// Attack units per enemy piece (by role) hitting the king zone.
    king_attack_weight: [i32; 6],
    /// Percent of the attack units that count, by number of attackers.
    king_attack_scale: [i32; 8],

    /// BuhoChess: king castled on the king side (on g1 or h1).
    castled_kingside: Tapered,
    /// BuhoChess: king castled on the queen side (on a1, b1 or c1).
    castled_queenside: Tapered,
    /// BuhoChess: king not castled and no castling right left.
    castling_lost: Tapered,
    /// BuhoChess: per enemy slider on a line to the king (through pieces).
    king_attack_line: Tapered,
    /// BuhoChess shield, per f/g/h (or a/b/c) pawn moved one square.
    shield_advanced_one: Tapered,
    /// BuhoChess shield, per shield pawn moved two or more squares.
    shield_advanced_more: Tapered,
    /// BuhoChess shield, per shield file without an own pawn.
    shield_missing: Tapered,
    /// BuhoChess shield, per shield file without an enemy pawn.
    shield_no_enemy_pawn: Tapered,
    /// BuhoChess shield, per enemy pawn on the defender's third rank.
    shield_storm_near: Tapered,
    /// BuhoChess shield, per enemy pawn on the defender's fourth rank.
    shield_storm_far: Tapered,
    /// BuhoChess: uncastled king, per open file among its own and adjacent.
    uncastled_open_file: Tapered,

    /// Bonus for the side to move.
    tempo: Tapered,
    /// Endgame scale (of 128) with opposite-coloured bishops and no other pieces.
    scale_opposite_bishops: i32,
    /// Endgame scale (of 128) when the stronger side has no pawns and is at
    /// most a minor piece up (with less than a rook it is 0).
    scale_no_pawns_minor: i32,
    /// Endgame scale (of 128) when the stronger side has no pawns and only
    /// a minor piece, or two knights against a bare king: it cannot mate.
    scale_no_pawns_lone_minor: i32,
    /// KBN v K: bonus for the stronger side.
    kbnk_base: i32,
    /// KBN v K: per step (Manhattan distance, so that both the edge and
    /// the corner pull) the lone king stands from a corner of the bishop's
    /// colour (a penalty for the stronger side: use ≤ 0).
    kbnk_corner: i32,
    /// Against a lone king: per square its king stands from the centre.
    mopup_edge: i32,
    /// Against a lone king: per square the kings are closer than 14 (Manhattan).
    mopup_closeness: i32,
}

/// The flat index of the first weight of group `field`.
#[inline(always)]
pub(crate) const fn offset(field: Field) -> usize {
    let mut i = 0;
    let mut sum = 0;
    while i < field as usize {
        sum += FIELD_LENS[i];
        i += 1;
    }
    sum
}

/// Builds a square table from 8 rows (rank 8 first, as printed) of 8 files.
pub(crate) const fn table_from_rows(rows: [[i32; 8]; 8]) -> [i32; 64] {
    let mut t = [0; 64];
    let mut r = 0;
    while r < 8 {
        let mut f = 0;
        while f < 8 {
            t[(7 - r) * 8 + f] = rows[r][f];
            f += 1;
        }
        r += 1;
    }
    t
}

/// Builds a left-right symmetric table from 8 rows (rank 8 first) of the
/// files a–d; e–h mirror them.
pub(crate) const fn table_from_halves(rows: [[i32; 4]; 8]) -> [i32; 64] {
    let mut t = [0; 64];
    let mut r = 0;
    while r < 8 {
        let mut f = 0;
        while f < 4 {
            t[(7 - r) * 8 + f] = rows[r][f];
            t[(7 - r) * 8 + 7 - f] = rows[r][f];
            f += 1;
        }
        r += 1;
    }
    t
}

/// Zips a middlegame and an endgame table into tapered pairs.
pub(crate) const fn zip(mg: [i32; 64], eg: [i32; 64]) -> [Tapered; 64] {
    let mut t = [[0; 2]; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = [mg[i], eg[i]];
        i += 1;
    }
    t
}

/// A table whose middlegame and endgame values are the same.
pub(crate) const fn flat(t: [i32; 64]) -> [Tapered; 64] {
    zip(t, t)
}

impl Params {
    /// Every weight zero (the phase weights set): an evaluation that always
    /// says 0. The starting point for building a custom set.
    pub fn zero() -> Params {
        Params {
            piece_value: [[0; 2]; 6],
            psqt: [[[0; 2]; 64]; 6],
            phase_weight: [0, 1, 1, 2, 4, 0],
            endgame_material: 0,
            pawn_doubled: [0; 2],
            pawn_isolated: [0; 2],
            pawn_backward: [0; 2],
            pawn_backward_exposed: [0; 2],
            pawn_chain: [0; 2],
            pawn_phalanx: [0; 2],
            pawn_connected: [[0; 2]; 8],
            passed_rank: [[0; 2]; 8],
            passed_free: [[0; 2]; 8],
            passed_king_own: 0,
            passed_king_enemy: 0,
            mobility_knight: [[0; 2]; 9],
            mobility_bishop: [[0; 2]; 14],
            mobility_rook: [[0; 2]; 15],
            mobility_queen: [[0; 2]; 28],
            bishop_pair: [0; 2],
            bishop_back_rank: [0; 2],
            rook_open: [0; 2],
            rook_semi_open: [0; 2],
            rook_seventh: [0; 2],
            rooks_connected_file: [0; 2],
            rooks_connected_rank: [0; 2],
            knight_outpost: [0; 2],
            center_pawn: [0; 2],
            center_minor: [0; 2],
            center_queen: [0; 2],
            protected_piece: [0; 2],
            attacked_square: [0; 2],
            threat_by_pawn: [0; 2],
            threat_by_minor: [0; 2],
            threat_hanging: [0; 2],
            king_shield: [[0; 2]; 8],
            king_storm: [[0; 2]; 8],
            king_open_file: [0; 2],
            king_semi_open_file: [0; 2],
            king_attack_weight: [0; 6],
            king_attack_scale: [0; 8],
            castled_kingside: [0; 2],
            castled_queenside: [0; 2],
            castling_lost: [0; 2],
            king_attack_line: [0; 2],
            shield_advanced_one: [0; 2],
            shield_advanced_more: [0; 2],
            shield_missing: [0; 2],
            shield_no_enemy_pawn: [0; 2],
            shield_storm_near: [0; 2],
            shield_storm_far: [0; 2],
            uncastled_open_file: [0; 2],
            tempo: [0; 2],
            // 128 = no scaling: a set without endgame knowledge.
            scale_opposite_bishops: 128,
            scale_no_pawns_minor: 128,
            scale_no_pawns_lone_minor: 128,
            kbnk_base: 0,
            kbnk_corner: 0,
            mopup_edge: 0,
            mopup_closeness: 0,
        }
    }

    /// Material only, with the given values (the same in both phases).
    pub fn material_only(values: crate::MaterialValues) -> Params {
        let mut p = Params::zero();
        for (role, v) in values.by_role().into_iter().enumerate() {
            p.piece_value[role] = [v, v];
        }
        p
    }

    /// Index of the weight called `name` (as [`Params::name`] writes it).
    pub fn index_of(name: &str) -> Option<usize> {
        static INDEX: std::sync::OnceLock<std::collections::HashMap<String, usize>> =
            std::sync::OnceLock::new();
        INDEX
            .get_or_init(|| {
                (0..Self::LEN)
                    .filter_map(|i| Self::name(i).map(|n| (n, i)))
                    .collect()
            })
            .get(name)
            .copied()
    }

    /// Sets the weight at flat `index`; `false` past the end.
    pub fn set(&mut self, index: usize, value: i32) -> bool {
        match self.get_mut(index) {
            Some(w) => {
                *w = value;
                true
            }
            None => false,
        }
    }

    /// The weight called `name`.
    pub fn get_by_name(&self, name: &str) -> Option<i32> {
        Self::index_of(name).and_then(|i| self.get(i))
    }

    /// Sets the weight called `name`; `false` if there is none.
    pub fn set_by_name(&mut self, name: &str, value: i32) -> bool {
        match Self::index_of(name) {
            Some(i) => self.set(i, value),
            None => false,
        }
    }

    /// All weights, flattened in index order.
    pub fn to_vec(&self) -> Vec<i32> {
        (0..Self::LEN).filter_map(|i| self.get(i)).collect()
    }

    /// Sets all weights from a flat slice (as [`Params::to_vec`] gives);
    /// `false`, and nothing changed, if the length differs.
    pub fn set_all(&mut self, values: &[i32]) -> bool {
        if values.len() != Self::LEN {
            return false;
        }
        for (i, &v) in values.iter().enumerate() {
            self.set(i, v);
        }
        true
    }
}

/// A weights file that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParamsError {
    /// A line is not `name value` (or `name = value`).
    #[error("line {line}: expected `name value`, found `{text}`")]
    Syntax {
        /// 1-based line number.
        line: usize,
        /// The offending line.
        text: String,
    },
    /// No weight has this name.
    #[error("line {line}: no weight called `{name}`")]
    UnknownName {
        /// 1-based line number.
        line: usize,
        /// The name given.
        name: String,
    },
    /// The value is not a 32-bit integer.
    #[error("line {line}: `{value}` is not an integer")]
    Value {
        /// 1-based line number.
        line: usize,
        /// The value given.
        value: String,
    },
}

impl Params {
    /// Every weight as a `name value` line, in index order: the plain text
    /// format [`Params::from_text`] reads (what `fianchetto tune texel`
    /// writes).
    ///
    /// ```
    /// use fianchetto_eval::Params;
    ///
    /// let text = Params::classical().to_text();
    /// assert!(text.starts_with("piece_value[0][0] "));
    /// assert_eq!(text.lines().count(), Params::LEN);
    /// assert_eq!(Params::from_text(Params::zero(), &text), Ok(Params::classical()));
    /// ```
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for i in 0..Self::LEN {
            if let (Some(name), Some(v)) = (Self::name(i), self.get(i)) {
                out.push_str(&name);
                out.push(' ');
                out.push_str(&v.to_string());
                out.push('\n');
            }
        }
        out
    }

    /// `base` with the weights of `text` applied: one `name value` (or
    /// `name = value`) per line; blank lines and `#` comments are skipped,
    /// weights not named keep `base`'s values. An error names the line.
    ///
    /// ```
    /// use fianchetto_eval::{Params, ParamsError};
    ///
    /// let p = Params::from_text(Params::classical(), "# tuned\nbishop_pair[0] 31\ntempo[1] = 7\n")?;
    /// assert_eq!((p.bishop_pair[0], p.tempo[1]), (31, 7));
    /// let err = Params::from_text(Params::classical(), "\nbishop_pair[0] lots").unwrap_err();
    /// assert_eq!(err.to_string(), "line 2: `lots` is not an integer");
    /// # Ok::<(), ParamsError>(())
    /// ```
    pub fn from_text(base: Params, text: &str) -> Result<Params, ParamsError> {
        let mut p = base;
        for (n, raw) in text.lines().enumerate() {
            let line = n + 1;
            let body = raw.split('#').next().unwrap_or("").trim();
            if body.is_empty() {
                continue;
            }
            let fields: Vec<&str> = body
                .split(|c: char| c == '=' || c.is_whitespace())
                .filter(|f| !f.is_empty())
                .collect();
            let [name, value] = fields[..] else {
                return Err(ParamsError::Syntax {
                    line,
                    text: raw.to_string(),
                });
            };
            if body.matches('=').count() > 1 {
                return Err(ParamsError::Syntax {
                    line,
                    text: raw.to_string(),
                });
            }
            let Some(i) = Self::index_of(name) else {
                return Err(ParamsError::UnknownName {
                    line,
                    name: name.to_string(),
                });
            };
            let Ok(v) = value.parse::<i32>() else {
                return Err(ParamsError::Value {
                    line,
                    value: value.to_string(),
                });
            };
            p.set(i, v);
        }
        Ok(p)
    }
}

impl Default for Params {
    /// The [`Params::classical`] set, the project's strongest.
    fn default() -> Params {
        Params::classical()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_index_round_trips() {
        let mut p = Params::classical();
        assert_eq!(p.to_vec().len(), Params::LEN);
        assert_eq!(Params::name(0).as_deref(), Some("piece_value[0][0]"));
        let i = Params::index_of("bishop_pair[1]").expect("exists");
        assert_eq!(p.get(i), Some(p.bishop_pair[1]));
        assert!(p.set(i, 77));
        assert_eq!(p.bishop_pair[1], 77);
        assert!(p.set_by_name("psqt[1][27][0]", -5));
        assert_eq!(p.psqt[1][27][0], -5);
        assert_eq!(p.get(Params::LEN), None);
        assert!(!p.set(Params::LEN, 1));
        assert_eq!(Params::name(Params::LEN), None);
        let v = p.to_vec();
        let mut q = Params::zero();
        assert!(q.set_all(&v));
        assert_eq!(p, q);
        let groups = Params::groups();
        assert_eq!(groups.iter().map(|g| g.2).sum::<usize>(), Params::LEN);
    }

    #[test]
    fn text_round_trips_and_reports_errors() {
        let p = Params::buhochess();
        assert_eq!(
            Params::from_text(Params::zero(), &p.to_text()),
            Ok(p.clone())
        );
        let q =
            Params::from_text(p.clone(), "# tuned\n\nbishop_pair[0] = 31 # mg\n").expect("parses");
        let r = Params::from_text(p.clone(), "bishop_pair[1]\t26\n").expect("parses");
        assert_eq!(r.bishop_pair, [25, 26]);
        assert!(matches!(
            Params::from_text(p.clone(), "tempo[0] 1 2"),
            Err(ParamsError::Syntax { line: 1, .. })
        ));
        assert_eq!(q.bishop_pair, [31, 25]);
        assert!(matches!(
            Params::from_text(p.clone(), "x"),
            Err(ParamsError::Syntax { line: 1, .. })
        ));
        assert!(matches!(
            Params::from_text(p.clone(), "\nnope = 1"),
            Err(ParamsError::UnknownName { line: 2, .. })
        ));
        assert!(matches!(
            Params::from_text(p, "tempo[0] = 1.5"),
            Err(ParamsError::Value { line: 1, .. })
        ));
    }

    #[test]
    fn names_are_unique() {
        let names: std::collections::HashSet<String> =
            (0..Params::LEN).filter_map(Params::name).collect();
        assert_eq!(names.len(), Params::LEN);
    }

    #[test]
    fn tables_are_laid_out_white_view() {
        let t = table_from_rows([
            [1, 0, 0, 0, 0, 0, 0, 2],
            [0; 8],
            [0; 8],
            [0; 8],
            [0; 8],
            [0; 8],
            [0; 8],
            [3, 0, 0, 0, 0, 0, 0, 4],
        ]);
        assert_eq!((t[56], t[63], t[0], t[7]), (1, 2, 3, 4));
    }
}
