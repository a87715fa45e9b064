//! Property tests over random legal games, generic over `B: MoveGen`.
//!
//! A game starts from the start position or one of a few tricky positions
//! (castling, en passant with pins, promotions) and plays moves picked by a
//! proptest-chosen list of indices, so that a failure shrinks to a short game.
//! At every position of the game:
//!
//! - the legal moves equal, as a set, those of a slow reference generator
//!   written only for this file (pseudo-legal moves from the piece rules over
//!   `piece_at`, castling checked by hand, then make-and-test with its own
//!   attack detection), and `is_legal` rejects the pseudo-legal rest;
//! - `captures` and `quiets` partition `legal_moves`, `count_legal` counts it;
//! - the incremental `hash()` equals `zobrist::compute` of the parts, the
//!   bitboards agree with `piece_at`, `checkers()` with the reference attacks;
//! - the FEN round-trips (same FEN, same hash);
//! - bulk perft equals plain perft and the sum of divide (depth 2);
//! - every move's UCI text parses back to the same move, and the count of
//!   legal moves after it (`count_legal_after_in`) is the played child's;
//! - `play_null` keeps all of the above (when not in check);
//! - `play` updates en passant, clocks and castling rights by the rules.
//!
//! A new backend is one line in the `backends!` invocation at the bottom.

use fianchetto_board::cpu::Baseline;
use fianchetto_board::{
    zobrist, Bitboard, Bitboards, Board, CastlingRights, CastlingSide, Color, Move, MoveKind,
    Piece, Role, Setup, Square,
};
use fianchetto_movegen::{divide, parse_uci, perft, perft_plain, MoveGen};
use proptest::collection::vec;
use proptest::prelude::*;
use std::collections::BTreeSet;

/// Where random games start: positions whose first few plies exercise the
/// rules random play from the start position rarely reaches.
const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    // Kiwipete: castling both ways, pins, en passant after a2a4/b4xa3.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    // Position 3: en-passant captures that expose the king on the rank.
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    // Position 4 and its mirror: promotions, capture-promotions, castling.
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    // Position 5: a promotion square attacked, castling through attacks.
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    // The en-passant capture b5xc6 would expose the king to the rook on h5.
    "8/8/8/KPp4r/8/8/8/7k w - c6 0 2",
    // An en-passant capture that gives check; one out of check.
    "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
    "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
    // Castling with attacked and blocked paths, rooks capturable on corners.
    "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1",
    "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1",
    "r3k2r/p6p/8/B7/1pp1p3/3b4/P6P/R3K2R w KQkq - 0 1",
    // Promotions for both sides, with and without capture.
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1",
];

/// Longest game played per case.
const MAX_PLIES: usize = 60;

fn config() -> ProptestConfig {
    // Each case replays up to 60 plies with the slow reference generator and
    // three depth-2 perfts per ply: 128 cases keep the file under a second.
    ProptestConfig {
        cases: 128,
        ..ProptestConfig::default()
    }
}

/// The slow, obviously-correct reference: only `piece_at`, `turn`,
/// `castling` and `ep_square` of the board are read; attacks are found by
/// walking the piece rules square by square.
mod reference {
    use super::*;

    const KNIGHT: [(i8, i8); 8] = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    const KING: [(i8, i8); 8] = [
        (1, 0),
        (1, 1),
        (0, 1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
        (0, -1),
        (1, -1),
    ];
    const ROOK: [(i8, i8); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
    const BISHOP: [(i8, i8); 4] = [(1, 1), (-1, 1), (-1, -1), (1, -1)];

    /// The square at file `f`, rank `r` (0-based), if on the board.
    pub fn at(f: i8, r: i8) -> Option<Square> {
        ((0..8).contains(&f) && (0..8).contains(&r))
            .then(|| Square::new((r * 8 + f) as u8).unwrap())
    }

    fn coords(sq: Square) -> (i8, i8) {
        (sq.file().index() as i8, sq.rank().index() as i8)
    }

    /// Rank direction a pawn of `color` moves in.
    fn dir(color: Color) -> i8 {
        match color {
            Color::White => 1,
            Color::Black => -1,
        }
    }

    /// Squares of `by`'s pieces that attack `target`.
    pub fn attackers<B: MoveGen>(b: &B, target: Square, by: Color) -> Bitboard {
        let (tf, tr) = coords(target);
        let is = |sq: Option<Square>, roles: &[Role]| {
            sq.and_then(|s| b.piece_at(s))
                .is_some_and(|p| p.color == by && roles.contains(&p.role))
        };
        let mut found = Vec::new();
        // A pawn of `by` attacks diagonally forward, so it stands one rank
        // behind the target (from its own point of view).
        for df in [-1, 1] {
            let s = at(tf + df, tr - dir(by));
            if is(s, &[Role::Pawn]) {
                found.extend(s);
            }
        }
        for (df, dr) in KNIGHT {
            let s = at(tf + df, tr + dr);
            if is(s, &[Role::Knight]) {
                found.extend(s);
            }
        }
        for (df, dr) in KING {
            let s = at(tf + df, tr + dr);
            if is(s, &[Role::King]) {
                found.extend(s);
            }
        }
        for (dirs, roles) in [
            (ROOK, [Role::Rook, Role::Queen]),
            (BISHOP, [Role::Bishop, Role::Queen]),
        ] {
            for (df, dr) in dirs {
                let (mut f, mut r) = (tf + df, tr + dr);
                while let Some(s) = at(f, r) {
                    if b.piece_at(s).is_some() {
                        if is(Some(s), &roles) {
                            found.push(s);
                        }
                        break;
                    }
                    f += df;
                    r += dr;
                }
            }
        }
        found.into_iter().collect()
    }

    /// The king of `color`, found by scanning the board.
    pub fn king<B: MoveGen>(b: &B, color: Color) -> Square {
        Square::all()
            .find(|&s| b.piece_at(s) == Some(Piece::new(color, Role::King)))
            .unwrap()
    }

    /// Pseudo-legal moves: the piece rules, ignoring whether the own king is
    /// left in check (castling is fully checked here, as make-and-test
    /// cannot see the squares the king passes over).
    pub fn pseudo_legal<B: MoveGen>(b: &B) -> Vec<Move> {
        let us = b.turn();
        let them = !us;
        let mut moves = Vec::new();
        let enemy = |s: Square| b.piece_at(s).is_some_and(|p| p.color == them);
        let empty = |s: Square| b.piece_at(s).is_none();
        let target = |moves: &mut Vec<Move>, from: Square, to: Square| {
            if empty(to) {
                moves.push(Move::new(from, to, MoveKind::Quiet));
            } else if enemy(to) {
                moves.push(Move::new(from, to, MoveKind::Capture));
            }
        };
        for from in Square::all() {
            let Some(piece) = b.piece_at(from).filter(|p| p.color == us) else {
                continue;
            };
            let (f, r) = coords(from);
            match piece.role {
                Role::Pawn => {
                    let last = us == Color::White && r + 1 == 7 || us == Color::Black && r - 1 == 0;
                    let push = |moves: &mut Vec<Move>, to: Square, capture: bool| {
                        if last {
                            for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
                                moves.push(Move::new(
                                    from,
                                    to,
                                    MoveKind::promotion(role, capture).unwrap(),
                                ));
                            }
                        } else {
                            moves.push(Move::new(
                                from,
                                to,
                                if capture {
                                    MoveKind::Capture
                                } else {
                                    MoveKind::Quiet
                                },
                            ));
                        }
                    };
                    if let Some(one) = at(f, r + dir(us)).filter(|&s| empty(s)) {
                        push(&mut moves, one, false);
                        let start = if us == Color::White { 1 } else { 6 };
                        if let Some(two) =
                            at(f, r + 2 * dir(us)).filter(|&s| r == start && empty(s))
                        {
                            moves.push(Move::new(from, two, MoveKind::DoublePush));
                        }
                    }
                    for df in [-1, 1] {
                        let Some(to) = at(f + df, r + dir(us)) else {
                            continue;
                        };
                        if enemy(to) {
                            push(&mut moves, to, true);
                        } else if b.ep_square() == Some(to) {
                            moves.push(Move::new(from, to, MoveKind::EnPassant));
                        }
                    }
                }
                Role::Knight | Role::King => {
                    let offsets = if piece.role == Role::Knight {
                        KNIGHT
                    } else {
                        KING
                    };
                    for (df, dr) in offsets {
                        if let Some(to) = at(f + df, r + dr) {
                            target(&mut moves, from, to);
                        }
                    }
                }
                Role::Bishop | Role::Rook | Role::Queen => {
                    let dirs: Vec<(i8, i8)> = match piece.role {
                        Role::Bishop => BISHOP.to_vec(),
                        Role::Rook => ROOK.to_vec(),
                        _ => [ROOK, BISHOP].concat(),
                    };
                    for (df, dr) in dirs {
                        let (mut tf, mut tr) = (f + df, r + dr);
                        while let Some(to) = at(tf, tr) {
                            target(&mut moves, from, to);
                            if !empty(to) {
                                break;
                            }
                            tf += df;
                            tr += dr;
                        }
                    }
                }
            }
        }
        // Castling by hand: the right, king and rook at home, the squares
        // between them empty, and the king neither in check nor passing over
        // or landing on an attacked square.
        let home = if us == Color::White { 0 } else { 7 };
        for (side, rook_file, kind) in [
            (CastlingSide::King, 7, MoveKind::KingCastle),
            (CastlingSide::Queen, 0, MoveKind::QueenCastle),
        ] {
            if !b.castling().has(us, side) {
                continue;
            }
            let king_from = at(4, home).unwrap();
            let rook_from = at(rook_file, home).unwrap();
            if b.piece_at(king_from) != Some(Piece::new(us, Role::King))
                || b.piece_at(rook_from) != Some(Piece::new(us, Role::Rook))
            {
                continue;
            }
            let (lo, hi) = if rook_file > 4 { (5, 6) } else { (1, 3) };
            if (lo..=hi).any(|file| !empty(at(file, home).unwrap())) {
                continue;
            }
            let step = if rook_file > 4 { 1 } else { -1 };
            if (0..=2).any(|i| attackers(b, at(4 + step * i, home).unwrap(), them).any()) {
                continue;
            }
            moves.push(Move::new(king_from, at(4 + 2 * step, home).unwrap(), kind));
        }
        moves
    }

    /// Whether playing the pseudo-legal `mv` leaves the mover's king safe.
    pub fn keeps_king_safe<B: MoveGen>(b: &B, mv: Move) -> bool {
        let mut child = b.clone();
        child.play_unchecked(mv);
        !attackers(&child, king(&child, b.turn()), !b.turn()).any()
    }

    /// Every legal move.
    pub fn legal_moves<B: MoveGen>(b: &B) -> BTreeSet<Move> {
        pseudo_legal(b)
            .into_iter()
            .filter(|&mv| keeps_king_safe(b, mv))
            .collect()
    }
}

/// Every check that needs only the position itself.
fn check_position<B: MoveGen>(b: &B, ctx: &str) {
    // Bitboards agree with the mailbox view.
    let mut occupied = Bitboard::EMPTY;
    for color in Color::ALL {
        let mut own = Bitboard::EMPTY;
        for role in Role::ALL {
            let want: Bitboard = Square::all()
                .filter(|&s| b.piece_at(s) == Some(Piece::new(color, role)))
                .collect();
            assert_eq!(
                b.pieces(color, role),
                want,
                "pieces({color:?}, {role:?}) {ctx}"
            );
            own |= want;
        }
        assert_eq!(b.by_color(color), own, "by_color({color:?}) {ctx}");
        assert_eq!(
            b.king(color),
            reference::king(b, color),
            "king({color:?}) {ctx}"
        );
        occupied |= own;
    }
    assert_eq!(b.occupied(), occupied, "occupied {ctx}");

    // The incremental hash is the hash from scratch.
    let parts = Square::all().filter_map(|s| b.piece_at(s).map(|p| (s, p)));
    let scratch = zobrist::compute(parts, b.turn(), b.castling(), b.ep_square());
    assert_eq!(b.hash(), scratch, "hash {ctx}");

    // Checkers by the reference's attack rules.
    let us = b.turn();
    assert_eq!(
        b.checkers(),
        reference::attackers(b, reference::king(b, us), !us),
        "checkers {ctx}"
    );

    // FEN round trip: same text, same hash, same setup.
    let fen = b.fen();
    let back = B::from_fen(&fen).unwrap_or_else(|e| panic!("own FEN rejected: {e}: {fen} {ctx}"));
    assert_eq!(back.fen(), fen, "FEN round trip {ctx}");
    assert_eq!(back.hash(), b.hash(), "hash after FEN round trip {ctx}");
    assert_eq!(
        back.to_setup(),
        b.to_setup(),
        "setup after FEN round trip {ctx}"
    );

    // Legal moves against the reference, as sets; no duplicates.
    let legal = b.legal_moves();
    let set: BTreeSet<Move> = legal.iter().copied().collect();
    assert_eq!(set.len(), legal.len(), "duplicate moves {legal:?} {ctx}");
    let want = reference::legal_moves(b);
    let missing: Vec<_> = want.difference(&set).collect();
    let extra: Vec<_> = set.difference(&want).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "missing {missing:?}, extra {extra:?} in {fen} {ctx}"
    );
    assert_eq!(b.count_legal(), legal.len() as u64, "count_legal {ctx}");
    for mv in reference::pseudo_legal(b) {
        assert_eq!(b.is_legal(mv), set.contains(&mv), "is_legal({mv:?}) {ctx}");
    }

    // Captures and quiets partition the legal moves.
    let captures: BTreeSet<Move> = b.captures().into_iter().collect();
    let quiets: BTreeSet<Move> = b.quiets().into_iter().collect();
    assert!(captures.is_disjoint(&quiets), "captures ∩ quiets {ctx}");
    assert_eq!(&captures | &quiets, set, "captures ∪ quiets {ctx}");
    assert!(
        captures.iter().all(|m| m.is_capture()) && quiets.iter().all(|m| !m.is_capture()),
        "{ctx}"
    );

    // UCI text round trip; the count after each move (which a backend may
    // take without playing the move in full) is the played child's.
    for &mv in &legal {
        assert_eq!(parse_uci(b, &mv.to_string()), Ok(mv), "UCI {mv} {ctx}");
        let mut child = b.clone();
        child.play_unchecked(mv);
        assert_eq!(
            b.count_legal_after_in(Baseline, mv),
            child.legal_moves().len() as u64,
            "count_legal_after_in({mv}) {ctx}"
        );
    }

    // Perft: bulk equals plain equals the sum of divide.
    let bulk = perft(b, 2);
    assert_eq!(perft_plain(b, 2), bulk, "plain perft {ctx}");
    assert_eq!(
        divide(b, 2).iter().map(|&(_, n)| n).sum::<u64>(),
        bulk,
        "divide {ctx}"
    );
}

/// What `play(mv)` must do to the side, clocks, castling rights and en
/// passant, by the rules, from `before` to `after`.
fn check_transition<B: MoveGen>(before: &B, mv: Move, after: &B, ctx: &str) {
    let us = before.turn();
    assert_eq!(after.turn(), !us, "turn {ctx}");
    let moving = before.piece_at(mv.from()).unwrap();
    let resets = moving.role == Role::Pawn || mv.is_capture();
    let clock = if resets {
        0
    } else {
        before.halfmove_clock() + 1
    };
    assert_eq!(after.halfmove_clock(), clock, "halfmove clock {ctx}");
    let number = before.fullmove_number() + u32::from(us == Color::Black);
    assert_eq!(after.fullmove_number(), number, "fullmove number {ctx}");
    // The en-passant square is the skipped square after a double push, kept
    // only when an enemy pawn stands beside the pawn that arrived.
    let ep = (mv.kind() == MoveKind::DoublePush)
        .then(|| Square::new(((mv.from().index() + mv.to().index()) / 2) as u8).unwrap())
        .filter(|_| {
            let (f, r) = (mv.to().file().index() as i8, mv.to().rank().index() as i8);
            [-1, 1].iter().any(|df| {
                reference::at(f + df, r).and_then(|s| after.piece_at(s))
                    == Some(Piece::new(!us, Role::Pawn))
            })
        });
    assert_eq!(after.ep_square(), ep, "en passant {ctx}");
    // A castling right is lost when its king or rook moves or is captured.
    for color in Color::ALL {
        for side in CastlingSide::ALL {
            let touched = [side.king_from(color), side.rook_from(color)]
                .iter()
                .any(|&s| s == mv.from() || s == mv.to());
            let want = before.castling().has(color, side) && !touched;
            assert_eq!(
                after.castling().has(color, side),
                want,
                "castling {color:?} {side:?} {ctx}"
            );
        }
    }
}

/// Plays a random legal game from `STARTS[start]`, checking every position.
fn random_game<B: MoveGen>(start: usize, choices: &[u16]) {
    play_checked(B::from_fen(STARTS[start]).unwrap(), choices);
}

/// Plays the moves `choices` picks from `board`, checking every position
/// before and after each move, and the null move where it is allowed.
fn play_checked<B: MoveGen>(mut board: B, choices: &[u16]) {
    let fen = board.fen();
    let mut played: Vec<String> = Vec::new();
    for &choice in choices {
        let ctx = format!("after `{}` from {fen} ({})", played.join(" "), B::NAME);
        check_position(&board, &ctx);
        if !board.in_check() {
            // A null move: the other side to move, no en passant; all the
            // invariants must still hold (search relies on them).
            let mut null = board.clone();
            null.play_null();
            assert_eq!(null.turn(), !board.turn(), "null turn {ctx}");
            assert_eq!(null.ep_square(), None, "null ep {ctx}");
            let mut expected = board.hash() ^ zobrist::side();
            if let Some(ep) = board.ep_square() {
                expected ^= zobrist::en_passant(ep);
            }
            assert_eq!(null.hash(), expected, "null hash {ctx}");
            check_position(&null, &format!("{ctx} then a null move"));
        }
        let legal = board.legal_moves();
        if legal.is_empty() {
            // Mate or stalemate: the reference agreed there is no move.
            return;
        }
        let mv = legal[choice as usize % legal.len()];
        let before = board.clone();
        board.play_unchecked(mv);
        played.push(mv.to_string());
        check_transition(&before, mv, &board, &format!("{ctx}, playing {mv}"));
    }
    check_position(
        &board,
        &format!("after `{}` from {fen} ({})", played.join(" "), B::NAME),
    );
}

/// A random position (not necessarily reachable in a game, but accepted by
/// validation): two kings, often at home, rooks often in the corners, up to
/// 16 more pieces, castling rights that fit, sometimes an en-passant square
/// with a pawn that can take. About half of them are valid; the rest are
/// skipped. Such positions reach corners random games rarely do: double
/// checks, en passant while in check, pins on every line.
fn random_setup() -> impl Strategy<Value = Setup> {
    let king = |home: u8| prop_oneof![Just(home), 0..64u8];
    (
        (king(4), king(60), 0..16u8),
        vec((0..64u8, 0..10usize), 0..16),
        any::<bool>(),
        prop::option::weighted(0.3, 0..8u8),
        // Clocks well below the 150 cap: see the note on `MAX_PLIES_FROM_RANDOM`.
        0..100u32,
    )
        .prop_map(|((wk, bk, corners), pieces, black, ep, halfmove)| {
            let mut setup = Setup::empty();
            for (i, corner) in [0usize, 7, 56, 63].into_iter().enumerate() {
                if corners & (1 << i) != 0 {
                    setup.board[corner] = Piece::from_char(if corner < 8 { 'R' } else { 'r' });
                }
            }
            for (sq, kind) in pieces {
                // Kind 0..10: pawn, knight, bishop, rook, queen of each colour.
                let piece = Piece::from_index(kind % 5 + 6 * (kind / 5)).unwrap();
                let sq = match (piece.role, sq / 8) {
                    (Role::Pawn, 0) => sq + 8,
                    (Role::Pawn, 7) => sq - 8,
                    _ => sq,
                };
                setup.board[sq as usize] = Some(piece);
            }
            setup.turn = if black { Color::Black } else { Color::White };
            if let Some(file) = ep {
                // The pawn that just advanced two squares, the squares it
                // crossed empty, and a pawn beside it that may take.
                let (pawn, skipped, origin) = if black { (3, 2, 1) } else { (4, 5, 6) };
                let at = |rank: u8| (rank * 8 + file) as usize;
                setup.board[at(pawn)] = Piece::from_char(if black { 'P' } else { 'p' });
                setup.board[at(skipped)] = None;
                setup.board[at(origin)] = None;
                let beside = if file < 7 { at(pawn) + 1 } else { at(pawn) - 1 };
                setup.board[beside] = Piece::from_char(if black { 'p' } else { 'P' });
                setup.ep_square = Square::new(at(skipped) as u8);
            }
            let bk = if bk == wk { (bk + 1) % 64 } else { bk };
            setup.board[wk as usize] = Piece::from_char('K');
            setup.board[bk as usize] = Piece::from_char('k');
            let mut rights = 0;
            for (bit, king, rook, k, r) in [
                (1, 4, 7, 'K', 'R'),
                (2, 4, 0, 'K', 'R'),
                (4, 60, 63, 'k', 'r'),
                (8, 60, 56, 'k', 'r'),
            ] {
                if setup.board[king] == Piece::from_char(k)
                    && setup.board[rook] == Piece::from_char(r)
                {
                    rights |= bit;
                }
            }
            setup.castling = CastlingRights::from_bits(rights);
            setup.halfmove_clock = halfmove;
            setup
        })
}

/// Plies played from each random position. With the clock below 100 this
/// never pushes it past 150: a board that plays on past the 75-move limit
/// writes a FEN its own `from_fen` rejects (reported separately, not tested
/// here, so that this file stays green).
const MAX_PLIES_FROM_RANDOM: usize = 8;

/// The reference generator itself, checked on positions whose move counts
/// are published (perft 1), so that agreeing with it means something.
#[test]
fn reference_generator_matches_published_counts() {
    let cases: &[(&str, usize)] = &[
        (STARTS[0], 20),
        (STARTS[1], 48),
        (STARTS[2], 14),
        (STARTS[3], 6),
        (STARTS[4], 6),
        (STARTS[5], 44),
        // Ka4 Ka6 Kb6 b6; not Kb4 (the c5 pawn guards it) and not b5xc6
        // e.p., which would open the rank to the rook (Stockfish: 4).
        (STARTS[6], 4),
        // e4xd3 e.p. out of the pawn's check, plus king moves (Stockfish: 9).
        (STARTS[8], 9),
        (STARTS[11], 17),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 26),
        ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", 24),
    ];
    for &(fen, n) in cases {
        let b = Bitboards::from_fen(fen).unwrap();
        assert_eq!(reference::legal_moves(&b).len(), n, "{fen}");
    }
    // Two plies deep from Kiwipete (2 039) exercises castling rights after
    // rook captures and en passant after double pushes.
    let kiwipete = Bitboards::from_fen(STARTS[1]).unwrap();
    let two: usize = reference::legal_moves(&kiwipete)
        .into_iter()
        .map(|mv| {
            let mut c = kiwipete.clone();
            c.play_unchecked(mv);
            reference::legal_moves(&c).len()
        })
        .sum();
    assert_eq!(two, 2_039);
}

/// Instantiates the properties for each backend: one line per backend.
macro_rules! backends {
    ($($module:ident => $board:ty),* $(,)?) => {$(
        mod $module {
            use super::*;
            proptest! {
                #![proptest_config(config())]
                #[test]
                fn random_games(start in 0..STARTS.len(), choices in vec(any::<u16>(), 0..=MAX_PLIES)) {
                    random_game::<$board>(start, &choices);
                }
            }

            proptest! {
                #![proptest_config(config())]
                #[test]
                fn random_positions(setup in random_setup(), choices in vec(any::<u16>(), 0..=MAX_PLIES_FROM_RANDOM)) {
                    // Impossible setups are the FEN tests' business; skip them.
                    if let Ok(board) = <$board>::from_setup(&setup) {
                        play_checked(board, &choices);
                    }
                }
            }

            /// Every starting position on its own (the shrunk form of most
            /// failures), so a broken start is reported even if no random
            /// case picks it.
            #[test]
            fn every_start() {
                for start in 0..STARTS.len() {
                    random_game::<$board>(start, &[0, 7, 3, 11]);
                }
            }
        }
    )*};
}

backends! {
    bitboards => Bitboards,
}
