//! Attack sets: precomputed tables for the leapers (pawn, knight, king), magic
//! bitboards or `PEXT` for the sliders ([`SliderLookup`]; which one runs is
//! picked at run time, see [`crate::cpu`]), and the `between` / `line` tables
//! that pin and check masks are made of.

use crate::bitboard::Bitboard;
use crate::types::{Color, Role, Square};

/// One square's entry in a magic table.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Magic {
    /// Relevant occupancy: the rays without their last square.
    pub(crate) mask: u64,
    /// The magic multiplier.
    pub(crate) magic: u64,
    /// `64 - popcount(mask)`.
    pub(crate) shift: u32,
    /// Where this square's attack sets start in the shared table.
    pub(crate) offset: usize,
}

include!(concat!(env!("OUT_DIR"), "/magics.rs"));

const fn leaper_table(steps: &[(i8, i8)]) -> [Bitboard; 64] {
    let mut t = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut b = 0u64;
        let mut i = 0;
        while i < steps.len() {
            let f = (sq % 8) as i8 + steps[i].0;
            let r = (sq / 8) as i8 + steps[i].1;
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                b |= 1 << (r * 8 + f);
            }
            i += 1;
        }
        t[sq] = Bitboard(b);
        sq += 1;
    }
    t
}

static KNIGHT: [Bitboard; 64] = leaper_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [Bitboard; 64] = leaper_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static PAWN: [[Bitboard; 64]; 2] = [
    leaper_table(&[(-1, 1), (1, 1)]),
    leaper_table(&[(-1, -1), (1, -1)]),
];

const fn ray_walk(from: usize, df: i8, dr: i8, stop: usize) -> (u64, bool) {
    // Squares strictly after `from` along (df, dr) up to `stop` (exclusive);
    // the bool says whether `stop` was reached.
    let mut b = 0u64;
    let mut f = (from % 8) as i8 + df;
    let mut r = (from / 8) as i8 + dr;
    while f >= 0 && f < 8 && r >= 0 && r < 8 {
        let s = (r * 8 + f) as usize;
        if s == stop {
            return (b, true);
        }
        b |= 1 << s;
        f += df;
        r += dr;
    }
    (b, false)
}

const DIRS: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

const fn between_table() -> [[Bitboard; 64]; 64] {
    let mut t = [[Bitboard::EMPTY; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let mut b = 0;
            while b < 64 {
                let (ray, hit) = ray_walk(a, DIRS[d].0, DIRS[d].1, b);
                if hit {
                    t[a][b] = Bitboard(ray);
                }
                b += 1;
            }
            d += 1;
        }
        a += 1;
    }
    t
}

const fn line_table() -> [[Bitboard; 64]; 64] {
    let mut t = [[Bitboard::EMPTY; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let (fwd, _) = ray_walk(a, DIRS[d].0, DIRS[d].1, 64);
            let (back, _) = ray_walk(a, -DIRS[d].0, -DIRS[d].1, 64);
            let full = fwd | back | (1 << a);
            let mut b = 0;
            while b < 64 {
                if fwd & (1 << b) != 0 {
                    t[a][b] = Bitboard(full);
                }
                b += 1;
            }
            d += 1;
        }
        a += 1;
    }
    t
}

/// The squares a slider moving along `dirs` reaches from each square on an
/// empty board.
const fn empty_board_table(dirs: [(i8, i8); 4]) -> [Bitboard; 64] {
    let mut t = [Bitboard::EMPTY; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 4 {
            let (ray, _) = ray_walk(a, dirs[d].0, dirs[d].1, 64);
            t[a] = Bitboard(t[a].0 | ray);
            d += 1;
        }
        a += 1;
    }
    t
}

static ROOK_RAYS: [Bitboard; 64] = empty_board_table([DIRS[0], DIRS[1], DIRS[2], DIRS[3]]);
static BISHOP_RAYS: [Bitboard; 64] = empty_board_table([DIRS[4], DIRS[5], DIRS[6], DIRS[7]]);
static BETWEEN: [[Bitboard; 64]; 64] = between_table();
static LINE: [[Bitboard; 64]; 64] = line_table();

/// Squares a knight on `sq` attacks.
#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    KNIGHT[sq.index()]
}

/// Squares a king on `sq` attacks.
#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    KING[sq.index()]
}

/// Squares a pawn of `color` on `sq` attacks (captures towards).
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    PAWN[color.index()][sq.index()]
}

/// How rook and bishop attack sets are looked up: [`MagicLookup`] anywhere,
/// [`PextLookup`] on CPUs with BMI2. Both index one shared table and give the
/// same sets.
///
/// Code that is generic over the method gets it as a type, so that the
/// choice costs nothing per lookup; [`crate::cpu::Level::sliders`] gives the
/// method chosen for the running CPU. The free functions ([`rook_attacks`],
/// [`bishop_attacks`], [`queen_attacks`]) use magics.
///
/// ```
/// use fianchetto_board::attacks::{rook_attacks, MagicLookup, PextLookup, SliderLookup};
/// use fianchetto_board::{Bitboard, Square};
///
/// let occupied = Bitboard::from_square(Square::E6);
/// let by_magic = MagicLookup.rook(Square::E2, occupied);
/// assert_eq!(by_magic, rook_attacks(Square::E2, occupied));
/// if let Some(pext) = PextLookup::new() {
///     assert_eq!(pext.rook(Square::E2, occupied), by_magic);
/// }
/// ```
pub trait SliderLookup: Copy + Send + Sync + core::fmt::Debug + sealed::Sealed + 'static {
    /// Squares a rook on `sq` attacks, given the occupied squares.
    fn rook(self, sq: Square, occupied: Bitboard) -> Bitboard;

    /// Squares a bishop on `sq` attacks, given the occupied squares.
    fn bishop(self, sq: Square, occupied: Bitboard) -> Bitboard;

    /// Squares a queen on `sq` attacks, given the occupied squares.
    #[inline(always)]
    fn queen(self, sq: Square, occupied: Bitboard) -> Bitboard {
        self.rook(sq, occupied) | self.bishop(sq, occupied)
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::MagicLookup {}
    impl Sealed for super::PextLookup {}
}

/// Magic multiplication: `(occupied & mask) * magic >> shift` indexes the
/// square's block of attack sets. Runs on any CPU.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MagicLookup;

impl SliderLookup for MagicLookup {
    #[inline(always)]
    fn rook(self, sq: Square, occupied: Bitboard) -> Bitboard {
        magic_slider(&ROOK_MAGICS[sq.index()], occupied)
    }

    #[inline(always)]
    fn bishop(self, sq: Square, occupied: Bitboard) -> Bitboard {
        magic_slider(&BISHOP_MAGICS[sq.index()], occupied)
    }
}

#[inline(always)]
fn magic_slider(m: &Magic, occupied: Bitboard) -> Bitboard {
    let i = ((occupied.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
    // SAFETY: the shift leaves `i < 2^(64 - shift)`, and the build script
    // gave each square's block exactly that many entries (the test
    // `slider_blocks_fit_their_tables` checks every block ends inside the
    // table): the index is in bounds. Unchecked, as `pext_slider`.
    Bitboard(unsafe { *MAGIC_ATTACKS.get_unchecked(m.offset + i) })
}

/// The BMI2 `PEXT` instruction: the mask's bits of `occupied`, packed, index
/// the square's block. A value exists only on a CPU that has BMI2 (from
/// [`PextLookup::new`] or [`crate::cpu`]), which is what makes using it
/// sound; whether it is *fast* there is [`crate::cpu`]'s business.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PextLookup(());

impl PextLookup {
    /// The `PEXT` lookup, if this CPU has BMI2 and the `pext` feature is on.
    pub fn new() -> Option<PextLookup> {
        #[cfg(all(feature = "pext", target_arch = "x86_64"))]
        {
            // Without the standard library there is no run-time detection:
            // BMI2 only if the build targets it.
            #[cfg(feature = "std")]
            let bmi2 = std::arch::is_x86_feature_detected!("bmi2");
            #[cfg(not(feature = "std"))]
            let bmi2 = cfg!(target_feature = "bmi2");
            if bmi2 {
                return Some(PextLookup(()));
            }
        }
        None
    }

    /// A `PextLookup` without the check: for [`crate::cpu`], which has made
    /// it already.
    pub(crate) fn checked() -> PextLookup {
        PextLookup(())
    }
}

impl SliderLookup for PextLookup {
    #[inline(always)]
    fn rook(self, sq: Square, occupied: Bitboard) -> Bitboard {
        pext_slider(&ROOK_MAGICS[sq.index()], occupied)
    }

    #[inline(always)]
    fn bishop(self, sq: Square, occupied: Bitboard) -> Bitboard {
        pext_slider(&BISHOP_MAGICS[sq.index()], occupied)
    }
}

#[inline(always)]
fn pext_slider(m: &Magic, occupied: Bitboard) -> Bitboard {
    #[cfg(all(feature = "pext", target_arch = "x86_64"))]
    {
        // SAFETY: this is reached only through a `PextLookup`, and one exists
        // only on a CPU with BMI2.
        let i = unsafe { pext(occupied.0, m.mask) } as usize;
        // SAFETY: `PEXT` packs the mask's bits, so `i < 2^popcount(mask)`,
        // and the build script gave each square's block exactly that many
        // entries (the test `slider_blocks_fit_their_tables` checks every
        // block ends inside the table): the index is in bounds, and the
        // bounds check, a compare and branch on every slider lookup (2 % of
        // perft's time), is left out.
        Bitboard(unsafe { *PEXT_ATTACKS.get_unchecked(m.offset + i) })
    }
    #[cfg(not(all(feature = "pext", target_arch = "x86_64")))]
    {
        // Never built here (`PextLookup::new` says no); magics keep it total.
        magic_slider(m, occupied)
    }
}

/// `PEXT`: the bits of `src` selected by `mask`, packed into the low bits.
///
/// # Safety
///
/// The CPU must have BMI2.
#[cfg(all(feature = "pext", target_arch = "x86_64"))]
#[inline(always)]
unsafe fn pext(src: u64, mask: u64) -> u64 {
    let out: u64;
    // Inline assembly rather than `_pext_u64`: the intrinsic is compiled
    // inline only into functions built with BMI2 enabled and is a call
    // everywhere else; the instruction runs wherever the CPU has it.
    // SAFETY: the caller guarantees BMI2; `pext` reads only its registers
    // and leaves the flags alone.
    unsafe {
        core::arch::asm!(
            "pext {out}, {src}, {mask}",
            out = lateout(reg) out,
            src = in(reg) src,
            mask = in(reg) mask,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    out
}

/// Squares a rook on `sq` attacks, given the occupied squares (magics).
#[inline(always)]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    MagicLookup.rook(sq, occupied)
}

/// Squares a bishop on `sq` attacks, given the occupied squares (magics).
#[inline(always)]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    MagicLookup.bishop(sq, occupied)
}

/// Squares a queen on `sq` attacks, given the occupied squares (magics).
#[inline(always)]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// Squares a piece of `role` and `color` on `sq` attacks.
///
/// Always inlined: the search's check test calls it for every move it
/// orders, with a role known only at run time, and as a call it cost a
/// fifth of that test.
#[inline(always)]
pub fn attacks(role: Role, color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => pawn_attacks(color, sq),
        Role::Knight => knight_attacks(sq),
        Role::Bishop => bishop_attacks(sq, occupied),
        Role::Rook => rook_attacks(sq, occupied),
        Role::Queen => queen_attacks(sq, occupied),
        Role::King => king_attacks(sq),
    }
}

/// Squares a rook on `sq` reaches on an empty board: its rank and file.
#[inline(always)]
pub fn rook_rays(sq: Square) -> Bitboard {
    ROOK_RAYS[sq.index()]
}

/// Squares a bishop on `sq` reaches on an empty board: its diagonals.
#[inline(always)]
pub fn bishop_rays(sq: Square) -> Bitboard {
    BISHOP_RAYS[sq.index()]
}

/// Squares strictly between `a` and `b` if they share a rank, file or
/// diagonal; empty otherwise.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN[a.index()][b.index()]
}

/// The whole line (rank, file or diagonal, edge to edge) through `a` and `b`,
/// or empty if they share none.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    LINE[a.index()][b.index()]
}

/// Whether `a`, `b` and `c` lie on one line.
#[inline]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bittricks::subsets;

    fn slow_slider(sq: Square, occ: Bitboard, dirs: &[(i8, i8)]) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for &(df, dr) in dirs {
            let (mut f, mut r) = (sq.file().index() as i8 + df, sq.rank().index() as i8 + dr);
            while (0..8).contains(&f) && (0..8).contains(&r) {
                let s = Square::from_index_wrapping((r * 8 + f) as usize);
                out = out.with(s);
                if occ.contains(s) {
                    break;
                }
                f += df;
                r += dr;
            }
        }
        out
    }

    #[test]
    fn sliders_match_ray_walking_for_every_relevant_occupancy() {
        for sq in Square::all() {
            for (magic, dirs, f) in [
                (
                    &ROOK_MAGICS[sq.index()],
                    &DIRS[..4],
                    rook_attacks as fn(Square, Bitboard) -> Bitboard,
                ),
                (&BISHOP_MAGICS[sq.index()], &DIRS[4..], bishop_attacks),
            ] {
                for occ in subsets(magic.mask) {
                    // Noise outside the mask must not matter.
                    let noisy = Bitboard(occ | !magic.mask & 0x1234_5678_9abc_def0);
                    assert_eq!(
                        f(sq, noisy),
                        slow_slider(sq, Bitboard(occ), dirs),
                        "{sq} {occ:#x}"
                    );
                }
            }
        }
    }

    /// The small empty-board tables that filter the pin scan are the slider
    /// attack sets with nothing on the board.
    #[test]
    fn empty_board_rays_are_the_attacks_on_an_empty_board() {
        for sq in Square::all() {
            assert_eq!(rook_rays(sq), rook_attacks(sq, Bitboard::EMPTY), "{sq}");
            assert_eq!(bishop_rays(sq), bishop_attacks(sq, Bitboard::EMPTY), "{sq}");
        }
        assert_eq!(rook_rays(Square::A1).count(), 14);
        assert_eq!(bishop_rays(Square::D4).count(), 13);
    }

    /// The slider lookups index their tables without a bounds check: every
    /// square's block, `2^popcount(mask)` entries from its offset, must end
    /// inside the table, and the magic's shift must leave no more bits.
    #[test]
    fn slider_blocks_fit_their_tables() {
        for magic in ROOK_MAGICS.iter().chain(BISHOP_MAGICS.iter()) {
            let bits = magic.mask.count_ones();
            assert_eq!(magic.shift, 64 - bits);
            let end = magic.offset + (1usize << bits);
            assert!(
                end <= MAGIC_ATTACKS.len(),
                "{end} > {}",
                MAGIC_ATTACKS.len()
            );
            #[cfg(all(feature = "pext", target_arch = "x86_64"))]
            assert!(end <= PEXT_ATTACKS.len(), "{end} > {}", PEXT_ATTACKS.len());
        }
    }

    /// Both lookups, whatever the process-wide choice, against ray walking
    /// (every relevant occupancy, with noise outside the mask).
    #[test]
    fn magic_and_pext_lookups_agree() {
        let pext = PextLookup::new();
        let mut pext_checked = 0;
        for sq in Square::all() {
            for (magic, dirs, rook) in [
                (&ROOK_MAGICS[sq.index()], &DIRS[..4], true),
                (&BISHOP_MAGICS[sq.index()], &DIRS[4..], false),
            ] {
                for occ in subsets(magic.mask) {
                    let noisy = Bitboard(occ | !magic.mask & 0x0fed_cba9_8765_4321);
                    let want = slow_slider(sq, Bitboard(occ), dirs);
                    let (m, q) = if rook {
                        (MagicLookup.rook(sq, noisy), MagicLookup.queen(sq, noisy))
                    } else {
                        (MagicLookup.bishop(sq, noisy), MagicLookup.queen(sq, noisy))
                    };
                    assert_eq!(m, want, "{sq} {occ:#x}");
                    if let Some(p) = pext {
                        let got = if rook {
                            p.rook(sq, noisy)
                        } else {
                            p.bishop(sq, noisy)
                        };
                        assert_eq!(got, want, "pext {sq} {occ:#x}");
                        assert_eq!(p.queen(sq, noisy), q);
                        pext_checked += 1;
                    }
                }
            }
        }
        if pext.is_some() {
            assert_eq!(pext_checked, 102_400 + 5_248);
        }
    }

    #[test]
    fn leapers() {
        assert_eq!(knight_attacks(Square::A1).count(), 2);
        assert_eq!(knight_attacks(Square::E4).count(), 8);
        assert_eq!(king_attacks(Square::H8).count(), 3);
        assert_eq!(
            pawn_attacks(Color::White, Square::E4),
            Bitboard::from_square(Square::D5).with(Square::F5)
        );
        assert_eq!(
            pawn_attacks(Color::Black, Square::A5),
            Bitboard::from_square(Square::B4)
        );
    }

    #[test]
    fn between_and_line() {
        assert_eq!(
            between(Square::A1, Square::D4),
            Bitboard::from_square(Square::B2).with(Square::C3)
        );
        assert_eq!(between(Square::A1, Square::B3), Bitboard::EMPTY);
        assert_eq!(between(Square::E1, Square::E2), Bitboard::EMPTY);
        assert_eq!(line(Square::A1, Square::C3).count(), 8);
        assert_eq!(line(Square::A1, Square::B3), Bitboard::EMPTY);
        assert!(aligned(Square::E1, Square::E4, Square::E8));
        assert!(!aligned(Square::E1, Square::E4, Square::D8));
    }
}
