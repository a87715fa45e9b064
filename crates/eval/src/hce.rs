//! The hand-crafted evaluation: every term, computed from bitboards that
//! any [`Board`] backend gives through `pieces()`, weighted by a [`Params`]
//! set and recorded term by term into a [`Breakdown`].

// Colour indices (0 = white) address several parallel arrays at once here.
#![allow(clippy::needless_range_loop)]

use crate::breakdown::{Breakdown, Term, PHASE_MAX};
use crate::params::{Params, Tapered};
use crate::pawns::{self, PawnTable};
use crate::trace::{at, tap, tap_halves, NoTrace, Tracer};
use fianchetto_board::attacks::{bishop_attacks, king_attacks, knight_attacks, rook_attacks};
use fianchetto_board::{Bitboard, Board, Color, Role, Square};

pub(crate) const FILE_A: u64 = 0x0101_0101_0101_0101;
pub(crate) const FILE_H: u64 = 0x8080_8080_8080_8080;
// a1 is dark: the dark squares are a1, c1, …, b2, d2, … (0x55 on ranks 1,
// 3, 5, 7 and 0xaa on the others, a1 being bit 0). The KBN corner depends on
// it; the bishop-pair and opposite-bishop tests only ask whether two bishops
// differ.
const DARK: u64 = 0xaa55_aa55_aa55_aa55;
const LIGHT: u64 = !DARK;
const CENTER: u64 = (1 << 27) | (1 << 28) | (1 << 35) | (1 << 36);

/// Standard piece values used only to classify endings (who is a minor
/// piece up, …), so that tuning the weights cannot change what an ending is.
const CLASSIFY_VALUE: [i32; 6] = [100, 300, 300, 500, 900, 0];

#[inline(always)]
pub(crate) const fn north_fill(mut b: u64) -> u64 {
    b |= b << 8;
    b |= b << 16;
    b |= b << 32;
    b
}

#[inline(always)]
pub(crate) const fn south_fill(mut b: u64) -> u64 {
    b |= b >> 8;
    b |= b >> 16;
    b |= b >> 32;
    b
}

#[inline(always)]
pub(crate) const fn east(b: u64) -> u64 {
    (b & !FILE_H) << 1
}

#[inline(always)]
pub(crate) const fn west(b: u64) -> u64 {
    (b & !FILE_A) >> 1
}

/// One rank towards the enemy.
#[inline(always)]
pub(crate) const fn forward(white: bool, b: u64) -> u64 {
    if white {
        b << 8
    } else {
        b >> 8
    }
}

/// Every square strictly in front of `b` on its files.
#[inline(always)]
pub(crate) const fn front_span(white: bool, b: u64) -> u64 {
    if white {
        north_fill(b << 8)
    } else {
        south_fill(b >> 8)
    }
}

/// `b` and every square behind it on its files.
#[inline(always)]
pub(crate) const fn rear_fill(white: bool, b: u64) -> u64 {
    if white {
        south_fill(b)
    } else {
        north_fill(b)
    }
}

/// The squares the pawns `b` of a side attack.
#[inline(always)]
pub(crate) const fn pawn_attacks(white: bool, b: u64) -> u64 {
    if white {
        ((b & !FILE_A) << 7) | ((b & !FILE_H) << 9)
    } else {
        ((b & !FILE_A) >> 9) | ((b & !FILE_H) >> 7)
    }
}

/// The rank of `sq` seen from `white`'s side or black's (0 = own first rank).
#[inline(always)]
pub(crate) const fn rel_rank(white: bool, sq: usize) -> usize {
    if white {
        sq >> 3
    } else {
        7 - (sq >> 3)
    }
}

#[inline(always)]
fn popcnt(b: u64) -> i32 {
    b.count_ones() as i32
}

#[inline(always)]
fn sq(i: usize) -> Square {
    Square::from_index_wrapping(i)
}

#[inline(always)]
fn bits(b: u64) -> impl Iterator<Item = usize> {
    Bitboard(b).into_iter().map(|s| s.index())
}

/// Chebyshev distance between two square indices.
#[inline(always)]
fn dist(a: usize, b: usize) -> i32 {
    let df = ((a & 7) as i32 - (b & 7) as i32).abs();
    let dr = ((a >> 3) as i32 - (b >> 3) as i32).abs();
    df.max(dr)
}

/// Manhattan distance from the four centre squares (0 … 6).
#[inline(always)]
fn center_distance(s: usize) -> i32 {
    let f = (s & 7) as i32;
    let r = (s >> 3) as i32;
    (3 - f).max(f - 4) + (3 - r).max(r - 4)
}

#[inline(always)]
fn add(a: &mut Tapered, v: Tapered) {
    a[0] += v[0];
    a[1] += v[1];
}

#[inline(always)]
fn add_n(a: &mut Tapered, v: Tapered, n: i32) {
    a[0] += v[0] * n;
    a[1] += v[1] * n;
}

/// The positions' bitboards, read once from the backend.
pub(crate) struct Bbs {
    /// `p[color][role]`.
    pub p: [[u64; 6]; 2],
    /// All of a colour's pieces.
    pub side: [u64; 2],
    pub occ: u64,
}

impl Bbs {
    #[inline(always)]
    pub(crate) fn read<B: Board>(board: &B) -> Bbs {
        let mut p = [[0u64; 6]; 2];
        let mut side = [0u64; 2];
        for c in Color::ALL {
            for r in Role::ALL {
                let b = board.pieces(c, r).0;
                p[c.index()][r.index()] = b;
                side[c.index()] |= b;
            }
        }
        Bbs {
            p,
            side,
            occ: side[0] | side[1],
        }
    }

    #[inline(always)]
    fn count(&self, c: usize, r: Role) -> i32 {
        popcnt(self.p[c][r.index()])
    }

    /// Whether neither side can mate by any sequence of legal moves (K v K,
    /// K+minor v K, bishops all on one colour of square).
    pub(crate) fn insufficient(&self) -> bool {
        let heavy =
            self.p[0][0] | self.p[1][0] | self.p[0][3] | self.p[1][3] | self.p[0][4] | self.p[1][4];
        if heavy != 0 {
            return false;
        }
        let knights = self.p[0][1] | self.p[1][1];
        let bishops = self.p[0][2] | self.p[1][2];
        if popcnt(knights | bishops) <= 1 {
            return true;
        }
        knights == 0 && (bishops & LIGHT == 0 || bishops & DARK == 0)
    }

    /// Non-pawn material of colour `c` by the fixed classification values.
    fn npm(&self, c: usize) -> i32 {
        (1..5)
            .map(|r| popcnt(self.p[c][r]) * CLASSIFY_VALUE[r])
            .sum()
    }
}

/// Evaluates `board` with `params` into `out` (cleared first); returns the
/// score for the side to move. `pawns`, when given, caches the pawn
/// structure; it must have been cleared since `params` last changed.
///
/// Compiled once per CPU tier (mobility and the other terms count bits on
/// every call); the CPU's tier runs, see [`fianchetto_board::cpu`].
pub(crate) fn evaluate<B: Board>(
    params: &Params,
    board: &B,
    pawn_table: Option<&mut PawnTable>,
    out: &mut Breakdown,
) -> i32 {
    fianchetto_board::cpu::multiversion(
        #[inline(always)]
        || evaluate_with(params, board, pawn_table, out, &mut NoTrace),
    )
}

/// [`evaluate`], telling `tr` how often each weight counts (the trace of
/// [`crate::trace`]). Every tracer call sits in an `if T::ON` block beside
/// the term it records, so that with [`NoTrace`] the code is the plain
/// evaluation's. A tracing evaluation computes the pawn structure afresh,
/// whatever `pawn_table`. Inlined into `evaluate`'s CPU tier; a tracing
/// caller runs it in its own (baseline) code.
#[inline(always)]
pub(crate) fn evaluate_with<B: Board, T: Tracer>(
    params: &Params,
    board: &B,
    pawn_table: Option<&mut PawnTable>,
    out: &mut Breakdown,
    tr: &mut T,
) -> i32 {
    *out = Breakdown {
        scale: 128,
        phase: PHASE_MAX,
        ..Breakdown::default()
    };
    let white_to_move = board.turn() == Color::White;
    let bb = Bbs::read(board);
    if bb.insufficient() {
        out.draw = true;
        return out.finish(white_to_move);
    }
    let p = params;
    let kings = [
        board.king(Color::White).index(),
        board.king(Color::Black).index(),
    ];

    // Material, piece-square tables, phase.
    let mut phase = 0;
    let mut material_mg = [0; 2];
    for c in 0..2 {
        let flip = if c == 0 { 0 } else { 56 };
        let mut mat = [0; 2];
        let mut pst = [0; 2];
        for r in 0..6 {
            let b = bb.p[c][r];
            let n = popcnt(b);
            phase += n * p.phase_weight[r];
            add_n(&mut mat, p.piece_value[r], n);
            if T::ON {
                tap(tr, c, at!(piece_value) + 2 * r, n);
                for s in bits(b) {
                    tap(tr, c, at!(psqt) + 2 * (r * 64 + (s ^ flip)), 1);
                }
            }
            for s in bits(b) {
                add(&mut pst, p.psqt[r][s ^ flip]);
            }
        }
        material_mg[c] = mat[0];
        out.add(Term::Material, c, mat);
        out.add(Term::PieceSquare, c, pst);
    }
    out.phase = if p.endgame_material > 0 {
        // BuhoChess switches wholesale: endgame once both sides are low.
        if material_mg[0] < p.endgame_material && material_mg[1] < p.endgame_material {
            0
        } else {
            PHASE_MAX
        }
    } else {
        phase.min(PHASE_MAX)
    };

    // Pawn structure, cached by pawn key.
    let entry = if T::ON {
        pawns::structure_with(p, bb.p[0][0], bb.p[1][0], tr)
    } else {
        match pawn_table {
            Some(t) => t.probe(p, bb.p[0][0], bb.p[1][0]),
            None => pawns::structure(p, bb.p[0][0], bb.p[1][0]),
        }
    };
    out.add(Term::PawnStructure, 0, entry.score[0]);
    out.add(Term::PawnStructure, 1, entry.score[1]);

    let pawn_att = [
        pawn_attacks(true, bb.p[0][0]),
        pawn_attacks(false, bb.p[1][0]),
    ];
    let all_pawns = bb.p[0][0] | bb.p[1][0];

    let mut attacked_by = [0u64; 2];
    for c in 0..2 {
        let white = c == 0;
        let o = 1 - c;
        let own = bb.side[c];
        let own_pawns = bb.p[c][0];
        let opp_pawns = bb.p[o][0];
        let safe = !own & !pawn_att[o];
        let opp_zone = king_attacks(sq(kings[o])).0 | (1u64 << kings[o]);

        let mut mob = [0; 2];
        let mut pieces = [0; 2];
        let mut control = [0; 2];
        let mut attacked = pawn_att[c] | king_attacks(sq(kings[c])).0;
        let mut minor_att = 0u64;
        let mut zone_attackers = 0;
        let mut zone_units = 0;
        // Attackers by role, for the trace only.
        let mut zone_roles = [0i32; 6];

        // Mobility and attack maps.
        for s in bits(bb.p[c][1]) {
            let a = knight_attacks(sq(s)).0;
            attacked |= a;
            minor_att |= a;
            add(
                &mut mob,
                p.mobility_knight[popcnt(a & safe).min(8) as usize],
            );
            if a & opp_zone != 0 {
                zone_attackers += 1;
                zone_units += p.king_attack_weight[1];
            }
            if T::ON {
                let k = popcnt(a & safe).min(8) as usize;
                tap(tr, c, at!(mobility_knight) + 2 * k, 1);
                zone_roles[1] += i32::from(a & opp_zone != 0);
            }
        }
        for s in bits(bb.p[c][2]) {
            let a = bishop_attacks(sq(s), Bitboard(bb.occ)).0;
            attacked |= a;
            minor_att |= a;
            add(
                &mut mob,
                p.mobility_bishop[popcnt(a & safe).min(13) as usize],
            );
            if a & opp_zone != 0 {
                zone_attackers += 1;
                zone_units += p.king_attack_weight[2];
            }
            if T::ON {
                let k = popcnt(a & safe).min(13) as usize;
                tap(tr, c, at!(mobility_bishop) + 2 * k, 1);
                zone_roles[2] += i32::from(a & opp_zone != 0);
            }
        }
        for s in bits(bb.p[c][3]) {
            let a = rook_attacks(sq(s), Bitboard(bb.occ)).0;
            attacked |= a;
            add(&mut mob, p.mobility_rook[popcnt(a & safe).min(14) as usize]);
            if a & opp_zone != 0 {
                zone_attackers += 1;
                zone_units += p.king_attack_weight[3];
            }
            if T::ON {
                let k = popcnt(a & safe).min(14) as usize;
                tap(tr, c, at!(mobility_rook) + 2 * k, 1);
                zone_roles[3] += i32::from(a & opp_zone != 0);
            }
            // Rooks on files and ranks.
            let file = FILE_A << (s & 7);
            if file & all_pawns == 0 {
                add(&mut pieces, p.rook_open);
            } else if file & own_pawns == 0 {
                add(&mut pieces, p.rook_semi_open);
            }
            if rel_rank(white, s) == 6 {
                add(&mut pieces, p.rook_seventh);
            }
            if T::ON {
                if file & all_pawns == 0 {
                    tap(tr, c, at!(rook_open), 1);
                } else if file & own_pawns == 0 {
                    tap(tr, c, at!(rook_semi_open), 1);
                }
                if rel_rank(white, s) == 6 {
                    tap(tr, c, at!(rook_seventh), 1);
                }
            }
        }
        for s in bits(bb.p[c][4]) {
            let o_bb = Bitboard(bb.occ);
            let a = bishop_attacks(sq(s), o_bb).0 | rook_attacks(sq(s), o_bb).0;
            attacked |= a;
            add(
                &mut mob,
                p.mobility_queen[popcnt(a & safe).min(27) as usize],
            );
            if a & opp_zone != 0 {
                zone_attackers += 1;
                zone_units += p.king_attack_weight[4];
            }
            if T::ON {
                let k = popcnt(a & safe).min(27) as usize;
                tap(tr, c, at!(mobility_queen) + 2 * k, 1);
                zone_roles[4] += i32::from(a & opp_zone != 0);
            }
        }
        out.add(Term::Mobility, c, mob);

        // Pieces.
        let bishops = bb.p[c][2];
        if bishops & LIGHT != 0 && bishops & DARK != 0 {
            add(&mut pieces, p.bishop_pair);
        }
        let first_rank = if white { 0xff } else { 0xff << 56 };
        add_n(
            &mut pieces,
            p.bishop_back_rank,
            popcnt(bishops & first_rank),
        );
        if T::ON {
            if bishops & LIGHT != 0 && bishops & DARK != 0 {
                tap(tr, c, at!(bishop_pair), 1);
            }
            let n = popcnt(bishops & first_rank);
            tap(tr, c, at!(bishop_back_rank), n);
        }
        let rooks = bb.p[c][3];
        if rooks.count_ones() >= 2 {
            for a in bits(rooks) {
                // The rooks above `a` (each pair once).
                for b in bits(rooks & (u64::MAX << a) & !(1u64 << a)) {
                    let clear = fianchetto_board::attacks::between(sq(a), sq(b)).0 & bb.occ == 0;
                    if clear && a & 7 == b & 7 {
                        add(&mut pieces, p.rooks_connected_file);
                        if T::ON {
                            tap(tr, c, at!(rooks_connected_file), 1);
                        }
                    } else if clear && a >> 3 == b >> 3 {
                        add(&mut pieces, p.rooks_connected_rank);
                        if T::ON {
                            tap(tr, c, at!(rooks_connected_rank), 1);
                        }
                    }
                }
            }
        }
        let outpost_ranks: u64 = if white {
            0x0000_ffff_ff00_0000
        } else {
            0x0000_00ff_ffff_0000
        };
        // Squares an enemy pawn could ever attack: its attacks, filled forward.
        let opp_span = if white {
            south_fill(pawn_att[o])
        } else {
            north_fill(pawn_att[o])
        };
        add_n(
            &mut pieces,
            p.knight_outpost,
            popcnt(bb.p[c][1] & outpost_ranks & pawn_att[c] & !opp_span),
        );
        if T::ON {
            let n = popcnt(bb.p[c][1] & outpost_ranks & pawn_att[c] & !opp_span);
            tap(tr, c, at!(knight_outpost), n);
        }
        out.add(Term::Pieces, c, pieces);

        // Control.
        add_n(&mut control, p.center_pawn, popcnt(own_pawns & CENTER));
        add_n(
            &mut control,
            p.center_minor,
            popcnt((bb.p[c][1] | bishops) & CENTER),
        );
        add_n(&mut control, p.center_queen, popcnt(bb.p[c][4] & CENTER));
        add_n(
            &mut control,
            p.protected_piece,
            popcnt(own & !bb.p[c][5] & attacked),
        );
        add_n(&mut control, p.attacked_square, popcnt(attacked));
        let opp_pieces = bb.p[o][1] | bb.p[o][2] | bb.p[o][3] | bb.p[o][4];
        add_n(
            &mut control,
            p.threat_by_pawn,
            popcnt(pawn_att[c] & opp_pieces),
        );
        add_n(
            &mut control,
            p.threat_by_minor,
            popcnt(minor_att & (bb.p[o][3] | bb.p[o][4])),
        );
        if T::ON {
            for (index, n) in [
                (at!(center_pawn), popcnt(own_pawns & CENTER)),
                (at!(center_minor), popcnt((bb.p[c][1] | bishops) & CENTER)),
                (at!(center_queen), popcnt(bb.p[c][4] & CENTER)),
                (at!(protected_piece), popcnt(own & !bb.p[c][5] & attacked)),
                (at!(attacked_square), popcnt(attacked)),
                (at!(threat_by_pawn), popcnt(pawn_att[c] & opp_pieces)),
                (
                    at!(threat_by_minor),
                    popcnt(minor_att & (bb.p[o][3] | bb.p[o][4])),
                ),
            ] {
                tap(tr, c, index, n);
            }
        }
        out.add(Term::Control, c, control);
        attacked_by[c] = attacked;

        // King safety of the opponent, from our attackers on its zone (we
        // score it as a penalty on their side of the table).
        let scale = p.king_attack_scale[(zone_attackers as usize).min(7)];
        out.add(Term::KingSafety, o, [-(zone_units * scale / 100), 0]);
        if T::ON {
            tr.king_attack(o, zone_roles, (zone_attackers as usize).min(7));
        }
        out.add(
            Term::KingSafety,
            c,
            king_shelter(p, &bb, c, kings[c], board, tr),
        );

        // Passed pawns.
        let mut passed = [0; 2];
        for s in bits(entry.passed[c]) {
            let rr = rel_rank(white, s);
            add(&mut passed, p.passed_rank[rr]);
            let b = 1u64 << s;
            if front_span(white, b) & bb.occ == 0 {
                add(&mut passed, p.passed_free[rr]);
            }
            let w = rr as i32 - 2;
            if w > 0 {
                let stop = if white { s + 8 } else { s - 8 };
                let own_d = dist(kings[c], stop).min(5);
                let opp_d = dist(kings[o], stop).min(5);
                passed[1] += w * (own_d * p.passed_king_own + opp_d * p.passed_king_enemy);
                if T::ON {
                    tr.add(c, at!(passed_king_own), 0, 2 * w * own_d);
                    tr.add(c, at!(passed_king_enemy), 0, 2 * w * opp_d);
                }
            }
            if T::ON {
                tap(tr, c, at!(passed_rank) + 2 * rr, 1);
                if front_span(white, b) & bb.occ == 0 {
                    tap(tr, c, at!(passed_free) + 2 * rr, 1);
                }
            }
        }
        out.add(Term::PassedPawns, c, passed);
        let _ = opp_pawns;
    }

    // Hanging pieces: enemy pieces we attack that nothing defends.
    for c in 0..2 {
        let o = 1 - c;
        let opp_pieces = bb.p[o][1] | bb.p[o][2] | bb.p[o][3] | bb.p[o][4];
        let hanging = popcnt(opp_pieces & attacked_by[c] & !attacked_by[o]);
        out.add(
            Term::Control,
            c,
            [p.threat_hanging[0] * hanging, p.threat_hanging[1] * hanging],
        );
        if T::ON {
            tap(tr, c, at!(threat_hanging), hanging);
        }
    }

    // Endgame knowledge against a lone king.
    for c in 0..2 {
        let o = 1 - c;
        if bb.side[o] != bb.p[o][5] || bb.side[c] == bb.p[c][5] {
            continue;
        }
        let only_bn = bb.p[c][0] | bb.p[c][3] | bb.p[c][4] == 0
            && bb.count(c, Role::Bishop) == 1
            && bb.count(c, Role::Knight) == 1;
        let v = if only_bn {
            // Mate is forced only in a corner of the bishop's colour. The
            // distance to it is Manhattan, not Chebyshev: with Chebyshev a
            // king on d4 and one on a4 stand equally far from a1, so nothing
            // drove the lone king to the edge first, and PVS at 10 000 to
            // 40 000 nodes a move let 3 of 18 central starts run into the
            // fifty-move rule (none of 30 with Manhattan at -70 a step).
            let corners = if bb.p[c][2] & DARK != 0 {
                [0, 63]
            } else {
                [7, 56]
            };
            let d = manhattan(kings[o], corners[0]).min(manhattan(kings[o], corners[1]));
            if T::ON {
                let close = 14 - manhattan(kings[0], kings[1]);
                tr.add(c, at!(kbnk_base), 2, 2);
                tr.add(c, at!(kbnk_corner), 2 * d, 2 * d);
                tr.add(c, at!(mopup_closeness), 2 * close, 2 * close);
            }
            p.kbnk_base
                + p.kbnk_corner * d
                + p.mopup_closeness * (14 - manhattan(kings[0], kings[1]))
        } else if bb.npm(c) >= CLASSIFY_VALUE[3] {
            if T::ON {
                let edge = center_distance(kings[o]);
                let close = 14 - manhattan(kings[0], kings[1]);
                tr.add(c, at!(mopup_edge), 2 * edge, 2 * edge);
                tr.add(c, at!(mopup_closeness), 2 * close, 2 * close);
            }
            p.mopup_edge * center_distance(kings[o])
                + p.mopup_closeness * (14 - manhattan(kings[0], kings[1]))
        } else {
            0
        };
        out.add(Term::Endgame, c, [v, v]);
    }

    // Tempo.
    out.add(Term::Tempo, if white_to_move { 0 } else { 1 }, p.tempo);
    if T::ON {
        tap(tr, if white_to_move { 0 } else { 1 }, at!(tempo), 1);
    }

    out.scale = endgame_scale(p, &bb, out.total()[1], tr);
    out.finish(white_to_move)
}

fn manhattan(a: usize, b: usize) -> i32 {
    ((a & 7) as i32 - (b & 7) as i32).abs() + ((a >> 3) as i32 - (b >> 3) as i32).abs()
}

/// Scale (of 128) of the whole score for drawish material; the tracer
/// hears the flat index of the weight that set it (`None`: 128).
#[inline(always)] // into `evaluate`'s CPU tier
fn endgame_scale<T: Tracer>(p: &Params, bb: &Bbs, eg: i32, tr: &mut T) -> i32 {
    let strong = if eg >= 0 { 0 } else { 1 };
    let weak = 1 - strong;
    let mut scale = 128;
    // The weight that set the scale, for the trace.
    let mut rule = None;
    if bb.p[strong][0] == 0 {
        let (ns, nw) = (bb.npm(strong), bb.npm(weak));
        let only_knights = bb.p[strong][2] | bb.p[strong][3] | bb.p[strong][4] == 0;
        if ns < CLASSIFY_VALUE[3]
            || (only_knights
                && bb.count(strong, Role::Knight) <= 2
                && bb.side[weak] == bb.p[weak][5])
        {
            // A lone minor (or two knights) cannot force mate.
            if T::ON && p.scale_no_pawns_lone_minor < scale {
                rule = Some(at!(scale_no_pawns_lone_minor));
            }
            scale = scale.min(p.scale_no_pawns_lone_minor);
        } else if ns - nw <= CLASSIFY_VALUE[2] {
            if T::ON && p.scale_no_pawns_minor < scale {
                rule = Some(at!(scale_no_pawns_minor));
            }
            scale = scale.min(p.scale_no_pawns_minor);
        }
    }
    let b = [bb.p[0][2], bb.p[1][2]];
    let others = bb.p[0][1] | bb.p[1][1] | bb.p[0][3] | bb.p[1][3] | bb.p[0][4] | bb.p[1][4];
    if others == 0
        && b[0].count_ones() == 1
        && b[1].count_ones() == 1
        && ((b[0] & LIGHT != 0) != (b[1] & LIGHT != 0))
    {
        if T::ON && p.scale_opposite_bishops < scale {
            rule = Some(at!(scale_opposite_bishops));
        }
        scale = scale.min(p.scale_opposite_bishops);
    }
    if T::ON {
        tr.scale(rule);
    }
    scale
}

/// The own-side king safety terms that do not depend on enemy piece
/// attacks: the Classical shield/storm/files and all of BuhoChess's.
#[inline(always)] // into `evaluate`'s CPU tier
fn king_shelter<B: Board, T: Tracer>(
    p: &Params,
    bb: &Bbs,
    c: usize,
    k: usize,
    board: &B,
    tr: &mut T,
) -> Tapered {
    let white = c == 0;
    let o = 1 - c;
    let own_pawns = bb.p[c][0];
    let opp_pawns = bb.p[o][0];
    let mut v = [0; 2];
    let kf = k & 7;
    let kr = rel_rank(white, k);

    // Classical: the three files around the king (b–g centred).
    let centre = kf.clamp(1, 6);
    // Squares on the king's rank and in front of it.
    let ahead = if white {
        north_fill(0xffu64 << (k & !7))
    } else {
        south_fill(0xffu64 << (k & !7))
    };
    for f in centre - 1..=centre + 1 {
        let file = FILE_A << f;
        let mine = own_pawns & file & ahead;
        let theirs = opp_pawns & file & ahead;
        // Nearest pawn to the king: the lowest for white, the highest for black.
        let nearest = |b: u64| -> usize {
            if b == 0 {
                0
            } else if white {
                rel_rank(true, b.trailing_zeros() as usize)
            } else {
                rel_rank(false, 63 - b.leading_zeros() as usize)
            }
        };
        add(&mut v, p.king_shield[nearest(mine)]);
        add(&mut v, p.king_storm[nearest(theirs)]);
        if file & (own_pawns | opp_pawns) == 0 {
            add(&mut v, p.king_open_file);
        } else if file & own_pawns == 0 {
            add(&mut v, p.king_semi_open_file);
        }
        if T::ON {
            tap(tr, c, at!(king_shield) + 2 * nearest(mine), 1);
            tap(tr, c, at!(king_storm) + 2 * nearest(theirs), 1);
            if file & (own_pawns | opp_pawns) == 0 {
                tap(tr, c, at!(king_open_file), 1);
            } else if file & own_pawns == 0 {
                tap(tr, c, at!(king_semi_open_file), 1);
            }
        }
    }

    // BuhoChess: castling status.
    let color = if white { Color::White } else { Color::Black };
    if kr == 0 && kf >= 6 {
        add(&mut v, p.castled_kingside);
    } else if kr == 0 && kf <= 2 {
        add(&mut v, p.castled_queenside);
    } else if !board.castling().has_any(color) {
        add(&mut v, p.castling_lost);
    }
    if T::ON {
        if kr == 0 && kf >= 6 {
            tap(tr, c, at!(castled_kingside), 1);
        } else if kr == 0 && kf <= 2 {
            tap(tr, c, at!(castled_queenside), 1);
        } else if !board.castling().has_any(color) {
            tap(tr, c, at!(castling_lost), 1);
        }
    }
    // BuhoChess: enemy sliders lined up with the king, blockers ignored.
    let ks = sq(k);
    let diag = bishop_attacks(ks, Bitboard::EMPTY).0 & (bb.p[o][2] | bb.p[o][4]);
    let orth = rook_attacks(ks, Bitboard::EMPTY).0 & (bb.p[o][3] | bb.p[o][4]);
    add_n(&mut v, p.king_attack_line, popcnt(diag | orth));
    if T::ON {
        tap(tr, c, at!(king_attack_line), popcnt(diag | orth));
    }
    // BuhoChess: the pawn shield of a castled king, or open files next to an
    // uncastled one.
    let shield_files: Option<([usize; 3], usize)> = if kf >= 5 {
        Some(([5, 6, 7], 5))
    } else if kf <= 2 {
        Some(([0, 1, 2], 2))
    } else {
        None
    };
    match shield_files {
        Some((files, halved)) => {
            for f in files {
                let file = FILE_A << f;
                let mut fv = [0; 2];
                let mine = own_pawns & file;
                // The own pawn nearest its starting square.
                let nearest = if mine == 0 {
                    None
                } else if white {
                    Some(rel_rank(true, mine.trailing_zeros() as usize))
                } else {
                    Some(rel_rank(false, 63 - mine.leading_zeros() as usize))
                };
                match nearest {
                    None => add(&mut fv, p.shield_missing),
                    Some(r) if r <= 1 => {}
                    Some(2) => add(&mut fv, p.shield_advanced_one),
                    Some(_) => add(&mut fv, p.shield_advanced_more),
                }
                let theirs = opp_pawns & file;
                if theirs == 0 {
                    add(&mut fv, p.shield_no_enemy_pawn);
                }
                let rank3 = if white { 0xffu64 << 16 } else { 0xffu64 << 40 };
                let rank4 = if white { 0xffu64 << 24 } else { 0xffu64 << 32 };
                if theirs & rank3 != 0 {
                    add(&mut fv, p.shield_storm_near);
                }
                if theirs & rank4 != 0 {
                    add(&mut fv, p.shield_storm_far);
                }
                if T::ON {
                    // The f- and c-files count half (the trace keeps halves).
                    let halves = if f == halved { 1 } else { 2 };
                    let mut count = |index: usize| tap_halves(tr, c, index, halves);
                    match nearest {
                        None => count(at!(shield_missing)),
                        Some(r) if r <= 1 => {}
                        Some(2) => count(at!(shield_advanced_one)),
                        Some(_) => count(at!(shield_advanced_more)),
                    }
                    if theirs == 0 {
                        count(at!(shield_no_enemy_pawn));
                    }
                    if theirs & rank3 != 0 {
                        count(at!(shield_storm_near));
                    }
                    if theirs & rank4 != 0 {
                        count(at!(shield_storm_far));
                    }
                }
                // The f- and c-pawns are more flexible: half penalties.
                if f == halved {
                    fv = [fv[0] / 2, fv[1] / 2];
                }
                add(&mut v, fv);
            }
        }
        None => {
            for f in kf.saturating_sub(1)..=(kf + 1).min(7) {
                if (FILE_A << f) & (own_pawns | opp_pawns) == 0 {
                    add(&mut v, p.uncastled_open_file);
                    if T::ON {
                        tap(tr, c, at!(uncastled_open_file), 1);
                    }
                }
            }
        }
    }
    v
}
