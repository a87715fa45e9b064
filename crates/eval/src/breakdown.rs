//! `Breakdown`: an evaluation taken apart term by term, for each side and
//! phase, as the `fianchetto eval` command prints it.

use crate::params::Tapered;
use std::fmt;

/// One term of the hand-crafted evaluation, as the breakdown lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// Piece values.
    Material,
    /// Piece-square tables.
    PieceSquare,
    /// Doubled, isolated, backward, chained and phalanx pawns (pawn hash).
    PawnStructure,
    /// Passed pawns: rank, free path, king distances.
    PassedPawns,
    /// Safe squares reached, per piece kind.
    Mobility,
    /// Bishop pair and back rank, rooks on files, 7th rank and connected,
    /// knight outposts.
    Pieces,
    /// Board control: centre occupation, protected pieces, attacked squares,
    /// threats.
    Control,
    /// King shield, storm, open files, attackers, castling.
    KingSafety,
    /// Endgame knowledge: mating patterns against a lone king.
    Endgame,
    /// Bonus for the side to move.
    Tempo,
}

impl Term {
    /// The number of terms.
    pub const COUNT: usize = 10;

    /// Every term, in breakdown order.
    pub const ALL: [Term; Term::COUNT] = [
        Term::Material,
        Term::PieceSquare,
        Term::PawnStructure,
        Term::PassedPawns,
        Term::Mobility,
        Term::Pieces,
        Term::Control,
        Term::KingSafety,
        Term::Endgame,
        Term::Tempo,
    ];

    /// The term's display name.
    pub const fn name(self) -> &'static str {
        match self {
            Term::Material => "Material",
            Term::PieceSquare => "Piece-square",
            Term::PawnStructure => "Pawn structure",
            Term::PassedPawns => "Passed pawns",
            Term::Mobility => "Mobility",
            Term::Pieces => "Pieces",
            Term::Control => "Control",
            Term::KingSafety => "King safety",
            Term::Endgame => "Endgame",
            Term::Tempo => "Tempo",
        }
    }

    /// Index into per-term arrays.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The phase at which the middlegame weights apply in full.
pub const PHASE_MAX: i32 = 24;

/// Blends a middlegame and an endgame value by `phase` (0 = endgame,
/// [`PHASE_MAX`] = middlegame), rounding toward zero so that a value and its
/// negation blend to exact opposites (the colour-symmetry tests rely on it).
#[inline(always)]
pub const fn blend(mg: i32, eg: i32, phase: i32) -> i32 {
    (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX
}

/// An evaluation taken apart: for every [`Term`], white's and black's
/// `[middlegame, endgame]` values (each from its own side's point of view),
/// plus the phase, the endgame scale and the final score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Breakdown {
    /// `terms[term][color]` = `[mg, eg]` for that colour (white = 0).
    pub terms: [[Tapered; 2]; Term::COUNT],
    /// Game phase, 0 (bare kings and pawns) to [`PHASE_MAX`] (all pieces).
    pub phase: i32,
    /// Scale of the blended score, of 128 (drawish endings score less; set
    /// only in endings, where the phase is low anyway).
    pub scale: i32,
    /// Whether the position was scored a dead draw (insufficient material).
    pub draw: bool,
    /// The final score from white's point of view.
    pub white_score: i32,
    /// The final score from the side to move's point of view.
    pub score: i32,
}

impl Breakdown {
    /// Adds `v` to `color`'s (0 = white) value of `term`.
    #[inline(always)]
    pub(crate) fn add(&mut self, term: Term, color: usize, v: Tapered) {
        let t = &mut self.terms[term.index()][color];
        t[0] += v[0];
        t[1] += v[1];
    }

    /// White's `[mg, eg]` for `term`.
    pub fn white(&self, term: Term) -> Tapered {
        self.terms[term.index()][0]
    }

    /// Black's `[mg, eg]` for `term`.
    pub fn black(&self, term: Term) -> Tapered {
        self.terms[term.index()][1]
    }

    /// White minus black, `[mg, eg]`, for `term`.
    pub fn diff(&self, term: Term) -> Tapered {
        let (w, b) = (self.white(term), self.black(term));
        [w[0] - b[0], w[1] - b[1]]
    }

    /// The term's white-minus-black value blended by the phase and scaled (white's point of view; the rows may not add up to the
    /// total exactly because each is rounded on its own).
    pub fn blended(&self, term: Term) -> i32 {
        let d = self.diff(term);
        blend(d[0], d[1], self.phase) * self.scale / 128
    }

    /// The sum over all terms, white minus black, `[mg, eg]`.
    pub fn total(&self) -> Tapered {
        let mut t = [0; 2];
        for term in Term::ALL {
            let d = self.diff(term);
            t[0] += d[0];
            t[1] += d[1];
        }
        t
    }

    /// Sets the phase and scale and computes the final scores for `white_to_move`.
    pub(crate) fn finish(&mut self, white_to_move: bool) -> i32 {
        let t = self.total();
        self.white_score = if self.draw {
            0
        } else {
            blend(t[0], t[1], self.phase) * self.scale / 128
        };
        self.score = if white_to_move {
            self.white_score
        } else {
            -self.white_score
        };
        self.score
    }
}

impl fmt::Display for Breakdown {
    /// A table: term, white mg/eg, black mg/eg, blended (white's view).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<16}|{:>8}{:>8} |{:>8}{:>8} |{:>9}",
            "Term", "White MG", "EG", "Black MG", "EG", "Blended"
        )?;
        writeln!(f, "{}", "-".repeat(16 + 1 + 16 + 2 + 16 + 2 + 9))?;
        for term in Term::ALL {
            let (w, b) = (self.white(term), self.black(term));
            writeln!(
                f,
                "{:<16}|{:>8}{:>8} |{:>8}{:>8} |{:>9}",
                term.name(),
                w[0],
                w[1],
                b[0],
                b[1],
                self.blended(term)
            )?;
        }
        writeln!(f, "{}", "-".repeat(16 + 1 + 16 + 2 + 16 + 2 + 9))?;
        let t = self.total();
        writeln!(
            f,
            "{:<16}| mg {:>6}  eg {:>6}  (white - black)",
            "Total", t[0], t[1]
        )?;
        writeln!(
            f,
            "Phase {}/{PHASE_MAX}, endgame scale {}/128{}",
            self.phase,
            self.scale,
            if self.draw {
                ", dead draw (insufficient material)"
            } else {
                ""
            }
        )?;
        write!(f, "White's view: {} cp", self.white_score)
    }
}
