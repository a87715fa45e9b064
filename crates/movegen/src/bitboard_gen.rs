//! Strictly legal move generation for [`Bitboards`], cozy-chess style: the
//! check mask (the squares that answer a single check) and the pin mask (the
//! line each pinned piece may stay on) make every generated move legal without
//! playing it. Pawns are generated set-wise, by shifting the whole pawn
//! bitboard, so that counting them at the last ply of perft is a popcount.

use crate::sink::Sink;
use fianchetto_board::attacks::{
    between, king_attacks, knight_attacks, line, pawn_attacks, MagicLookup, SliderLookup,
};
use fianchetto_board::{
    Bitboard, Bitboards, Board, CastlingSide, Color, Move, MoveKind, Role, Square,
};

/// Which moves to generate, as a const parameter so each variant compiles to
/// its own loop without run-time tests.
pub(crate) const ALL: u8 = 0;
pub(crate) const CAPTURES: u8 = 1;
pub(crate) const QUIETS: u8 = 2;

/// Whether a slider of `straight` or `diagonal` attacks `sq`, with `occ`
/// as the blockers.
#[inline(always)]
fn sliders_reach<A: SliderLookup>(
    sl: A,
    sq: Square,
    occ: Bitboard,
    straight: Bitboard,
    diagonal: Bitboard,
) -> bool {
    (sl.rook(sq, occ) & straight).any() || (sl.bishop(sq, occ) & diagonal).any()
}

/// Whether no square of `path` is attacked by the sliders `straight` and
/// `diagonal`, with `occ` as the blockers (the leapers are the caller's:
/// the danger map). A plain loop, not `Iterator::all`: a closure-taking
/// iterator method may stay a function of its own, compiled for the
/// baseline CPU, outside the tier that runs the generator (see
/// `fianchetto_board::cpu`).
#[inline(always)]
fn safe_from_sliders<A: SliderLookup>(
    sl: A,
    path: Bitboard,
    straight: Bitboard,
    diagonal: Bitboard,
    occ: Bitboard,
) -> bool {
    for sq in path {
        if sliders_reach(sl, sq, occ, straight, diagonal) {
            return false;
        }
    }
    true
}

/// Generates the legal moves of kind `KIND` (ALL, CAPTURES or QUIETS) into
/// `sink`, looking sliders up with `sl`. `ANY_CASTLING` compiles castling
/// for any start files (Chess960); without it, only standard castling rights
/// are understood, and the standard game's code carries nothing of Chess960.
#[inline(always)]
pub(crate) fn generate<S: Sink, A: SliderLookup, const KIND: u8, const ANY_CASTLING: bool>(
    sl: A,
    b: &Bitboards,
    sink: &mut S,
) {
    // One copy of the generator per side, so that the pawns' directions and
    // ranks, and the castling squares, are constants in each.
    match b.turn() {
        Color::White => generate_for::<S, A, KIND, ANY_CASTLING, true>(sl, b, sink),
        Color::Black => generate_for::<S, A, KIND, ANY_CASTLING, false>(sl, b, sink),
    }
}

/// [`generate`] for the side to move, White if `WHITE`.
#[inline(always)]
fn generate_for<
    S: Sink,
    A: SliderLookup,
    const KIND: u8,
    const ANY_CASTLING: bool,
    const WHITE: bool,
>(
    sl: A,
    b: &Bitboards,
    sink: &mut S,
) {
    let us = if WHITE { Color::White } else { Color::Black };
    let them = !us;
    let ours = b.by_color(us);
    let theirs = b.by_color(them);
    let occ = ours | theirs;
    let ksq = b.king(us);
    let checkers = b.checkers();
    let filter = match KIND {
        CAPTURES => theirs,
        QUIETS => !occ,
        _ => !ours,
    };

    // King moves. Squares the enemy pawns, knights and king attack are found
    // set-wise first; only the targets left are tested against sliders, with
    // the king lifted off the board so that it cannot hide behind itself.
    let their_pawns = b.role_bb(Role::Pawn) & theirs;
    let mut danger = match them {
        Color::White => their_pawns.north().east() | their_pawns.north().west(),
        Color::Black => their_pawns.south().east() | their_pawns.south().west(),
    } | king_attacks(b.king(them));
    for n in b.role_bb(Role::Knight) & theirs {
        danger |= knight_attacks(n);
    }
    let queens = b.role_bb(Role::Queen);
    let their_straight = (b.role_bb(Role::Rook) | queens) & theirs;
    let their_diagonal = (b.role_bb(Role::Bishop) | queens) & theirs;
    // The targets left are tested against their sliders one way or the
    // other, whichever takes fewer slider lookups: each target looked at
    // from (two lookups), or each slider's attacks (one or two) taken away.
    let occ_no_king = occ.without(ksq);
    let mut king_targets = king_attacks(ksq) & filter & !danger;
    if king_targets.any()
        && their_straight.count() + their_diagonal.count() < 2 * king_targets.count()
    {
        for s in their_straight {
            king_targets &= !sl.rook(s, occ_no_king);
        }
        for s in their_diagonal {
            king_targets &= !sl.bishop(s, occ_no_king);
        }
    } else {
        for to in king_targets {
            if sliders_reach(sl, to, occ_no_king, their_straight, their_diagonal) {
                king_targets = king_targets.without(to);
            }
        }
    }
    sink.piece_moves(ksq, king_targets, theirs);

    if checkers.more_than_one() {
        return;
    }
    let check_mask = match checkers.first() {
        Some(c) => between(ksq, c).with(c),
        None => Bitboard::FULL,
    };
    let targets = filter & check_mask;
    let pinned = b.pinned();

    // Pieces other than pawns and the king. A pinned piece keeps to its pin
    // line; in check a pinned piece can never help (the checker is not on
    // its line), so the pin mask and the check mask together drop it.
    let knights = b.pieces(us, Role::Knight) & !pinned;
    for from in knights {
        sink.piece_moves(from, knight_attacks(from) & targets, theirs);
    }
    let diagonal = (b.role_bb(Role::Bishop) | queens) & ours;
    let straight = (b.role_bb(Role::Rook) | queens) & ours;
    for from in diagonal & !pinned {
        sink.piece_moves(from, sl.bishop(from, occ) & targets, theirs);
    }
    for from in straight & !pinned {
        sink.piece_moves(from, sl.rook(from, occ) & targets, theirs);
    }
    if checkers.is_empty() {
        for from in (diagonal | straight) & pinned {
            let attacks = match (diagonal.contains(from), straight.contains(from)) {
                (true, true) => sl.queen(from, occ),
                (true, false) => sl.bishop(from, occ),
                _ => sl.rook(from, occ),
            };
            sink.piece_moves(from, attacks & targets & line(ksq, from), theirs);
        }
    }

    pawn_moves::<S, KIND>(b, sink, us, occ, theirs, ksq, check_mask);

    if KIND != CAPTURES && checkers.is_empty() && b.castling().has_any(us) {
        if !ANY_CASTLING {
            for side in CastlingSide::ALL {
                if b.castling().has(us, side)
                    && (side.empty_squares(us) & occ).is_empty()
                    && (side.king_path(us) & danger).is_empty()
                    && safe_from_sliders(
                        sl,
                        side.king_path(us),
                        their_straight,
                        their_diagonal,
                        occ,
                    )
                {
                    sink.single(Move::new(ksq, side.king_to(us), MoveKind::castle(side)));
                }
            }
        } else {
            castling_960(sl, b, sink, occ, danger, their_straight, their_diagonal);
        }
    }
}

/// [`generate`] for a position whose castling rights are not all standard
/// ones: apart, so that the standard game's code stays as it was.
#[inline(never)]
pub(crate) fn generate_any<S: Sink>(b: &Bitboards, kind: crate::GenKind, sink: &mut S) {
    match kind {
        crate::GenKind::All => generate::<S, _, ALL, true>(MagicLookup, b, sink),
        crate::GenKind::Captures => generate::<S, _, CAPTURES, true>(MagicLookup, b, sink),
        crate::GenKind::Quiets => generate::<S, _, QUIETS, true>(MagicLookup, b, sink),
    }
}

/// The number of legal moves of a position whose castling rights are not
/// all standard ones.
#[inline(never)]
pub(crate) fn count_any(b: &Bitboards) -> u64 {
    let mut sink = crate::sink::CountSink(0);
    generate::<_, _, ALL, true>(MagicLookup, b, &mut sink);
    sink.0
}

/// Castling for any start files (Chess960): every square the king and rook
/// cross or land on empty but for the two of them, and no square of the
/// king's path attacked with the castling rook lifted off the board (it may
/// be what shields the king's destination from a rook or queen on the back
/// rank). The king is not in check, or this is not called. `danger` is
/// what their leapers attack; `straight` and `diagonal` are their sliders.
#[inline(always)]
fn castling_960<S: Sink, A: SliderLookup>(
    sl: A,
    b: &Bitboards,
    sink: &mut S,
    occ: Bitboard,
    danger: Bitboard,
    straight: Bitboard,
    diagonal: Bitboard,
) {
    for side in CastlingSide::ALL {
        let Some(path) = b.castling().path(b.turn(), side) else {
            continue;
        };
        let without_rook = occ.without(path.rook_from);
        if (path.empty & occ).is_empty()
            && (path.king_path & danger).is_empty()
            && safe_from_sliders(sl, path.king_path, straight, diagonal, without_rook)
        {
            sink.single(Move::new(
                path.king_from,
                path.king_to,
                MoveKind::castle(side),
            ));
        }
    }
}

#[inline(always)]
fn pawn_moves<S: Sink, const KIND: u8>(
    b: &Bitboards,
    sink: &mut S,
    us: Color,
    occ: Bitboard,
    theirs: Bitboard,
    ksq: Square,
    check_mask: Bitboard,
) {
    let pawns = b.pieces(us, Role::Pawn);
    if pawns.is_empty() {
        return;
    }
    let pinned = b.pinned();
    let empty = !occ;
    let (last_rank, third_rank) = match us {
        Color::White => (Bitboard::RANK_8, Bitboard::RANK_1.north().north()),
        Color::Black => (Bitboard::RANK_1, Bitboard::RANK_8.south().south()),
    };
    let up = |bb: Bitboard| match us {
        Color::White => bb.north(),
        Color::Black => bb.south(),
    };
    let forward = us.forward();
    // Pinned pawns may push only along a file pin and capture only along a
    // diagonal pin towards the pinner; both come out of the line mask, applied
    // per pawn below. Free pawns go set-wise.
    let free = pawns & !pinned;
    let pinned_pawns = pawns & pinned;

    if KIND != CAPTURES {
        let single = up(free) & empty;
        let double = up(single & third_rank) & empty & check_mask;
        let single = single & check_mask;
        sink.pawn_moves(single & !last_rank, forward, MoveKind::Quiet);
        sink.pawn_promotions(single & last_rank, forward, false);
        sink.pawn_moves(double, 2 * forward, MoveKind::DoublePush);
    }
    if KIND != QUIETS {
        // Captures towards the a-file side (west) and the h-file side (east).
        let west = up(free).west() & theirs & check_mask;
        let east = up(free).east() & theirs & check_mask;
        sink.pawn_moves(west & !last_rank, forward - 1, MoveKind::Capture);
        sink.pawn_promotions(west & last_rank, forward - 1, true);
        sink.pawn_moves(east & !last_rank, forward + 1, MoveKind::Capture);
        sink.pawn_promotions(east & last_rank, forward + 1, true);
    }
    if b.checkers().is_empty() {
        for from in pinned_pawns {
            let pin = line(ksq, from);
            let one = Bitboard::from_square(from);
            let mut quiet = Bitboard::EMPTY;
            let mut caps = Bitboard::EMPTY;
            if KIND != CAPTURES {
                let single = up(one) & empty;
                quiet = (single | (up(single & third_rank) & empty)) & pin;
            }
            if KIND != QUIETS {
                caps = pawn_attacks(us, from) & theirs & pin;
            }
            for to in quiet | caps {
                let capture = caps.contains(to);
                if last_rank.contains(to) {
                    sink.pawn_promotions(
                        Bitboard::from_square(to),
                        to.index() as i8 - from.index() as i8,
                        capture,
                    );
                } else {
                    let kind = if capture {
                        MoveKind::Capture
                    } else if to.index().abs_diff(from.index()) == 16 {
                        MoveKind::DoublePush
                    } else {
                        MoveKind::Quiet
                    };
                    sink.single(Move::new(from, to, kind));
                }
            }
        }
    }
    if KIND != QUIETS {
        if let Some(ep) = b.ep_square() {
            let victim = Square::from_index_wrapping((ep.index() as i32 - forward as i32) as usize);
            for from in pawn_attacks(!us, ep) & pawns {
                // Rare enough to test directly: lift both pawns, drop ours on
                // the ep square, and ask whether the king is attacked by
                // anything but the captured pawn.
                let after = (occ.without(from).without(victim)).with(ep);
                let attackers = b.attackers(ksq, !us, after) & !Bitboard::from_square(victim);
                if attackers.is_empty() {
                    sink.single(Move::new(from, ep, MoveKind::EnPassant));
                }
            }
        }
    }
}
