//! Validation of a [`Setup`]: every backend builds from a setup that passed
//! through [`validate`], so all three reject the same positions with the same
//! errors and agree on the normalised en-passant square.

use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use crate::bitboard::Bitboard;
use crate::castling::CastlingSide;
use crate::setup::Setup;
use crate::types::{Color, Piece, Role, Square};

/// The largest halfmove clock accepted: what boards keep in 16 bits. (The
/// 75-move rule ends a game at 150, but a board that plays on past it must
/// still write a FEN that reads back, so the limit is representability.)
pub const MAX_HALFMOVE_CLOCK: u32 = u16::MAX as u32;

/// The largest fullmove number accepted (boards keep it in 16 bits).
pub const MAX_FULLMOVE_NUMBER: u32 = u16::MAX as u32;

/// Why a setup is not a position that can arise in a game (or be played from).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A side has no king.
    #[error("{0} has no king")]
    NoKing(Color),
    /// A side has more than one king.
    #[error("{0} has {1} kings; expected exactly one")]
    TooManyKings(Color, u32),
    /// A pawn stands on the first or eighth rank.
    #[error("a pawn stands on {0}, on the first or eighth rank")]
    PawnOnBackRank(Square),
    /// A side has more than 16 pieces.
    #[error("{color} has {count} pieces; at most 16 are possible")]
    TooManyPieces {
        /// The side.
        color: Color,
        /// How many it has.
        count: u32,
    },
    /// A side has more than 8 pawns.
    #[error("{color} has {count} pawns; at most 8 are possible")]
    TooManyPawns {
        /// The side.
        color: Color,
        /// How many it has.
        count: u32,
    },
    /// A side has more extra pieces than pawns it could have promoted.
    #[error("{color} has {promoted} pieces beyond the initial set but only {missing_pawns} pawns missing to have promoted")]
    TooManyPromoted {
        /// The side.
        color: Color,
        /// Pieces beyond 1 queen, 2 rooks, 2 bishops and 2 knights.
        promoted: u32,
        /// 8 minus the pawns on the board.
        missing_pawns: u32,
    },
    /// A castling right without the king and rook on their starting squares
    /// (for standard chess e1/e8 and the corners; in Chess960 the squares
    /// the right records, both on the back rank).
    #[error(
        "{color} may castle {side:?}-side, but the king is not on {king} or the rook not on {rook}"
    )]
    CastlingRight {
        /// The side.
        color: Color,
        /// Which castling.
        side: CastlingSide,
        /// Where the king must stand.
        king: Square,
        /// Where the rook must stand.
        rook: Square,
    },
    /// A castling right whose rook is not on the side of the king the right
    /// is for (possible only for rights built by hand: FEN letters take their
    /// side from where the rook stands).
    #[error("{color} may castle {side:?}-side with the rook on {rook}, but that rook is not on the {side:?} side of the king on {king}")]
    CastlingRookSide {
        /// The side.
        color: Color,
        /// Which castling.
        side: CastlingSide,
        /// Where the king stands.
        king: Square,
        /// Where the rook stands.
        rook: Square,
    },
    /// The en-passant square is not one a pawn just skipped.
    #[error("en-passant square {0} is impossible: it must be empty on the third rank of the side that just moved, with that side's pawn in front of it and the square behind empty")]
    EnPassant(Square),
    /// The side not to move is in check.
    #[error("the side not to move ({0}) is in check")]
    OppositeCheck(Color),
    /// The side to move is attacked by more pieces than any move can give.
    #[error("the side to move is in check from {0} pieces; at most 2 is possible")]
    TooManyCheckers(u32),
    /// The halfmove clock is beyond what the 75-move rule allows.
    #[error("halfmove clock {0} is above {MAX_HALFMOVE_CLOCK}, the largest a board keeps")]
    HalfmoveClock(u32),
    /// The fullmove number is 0 or too large.
    #[error("fullmove number {0} is out of range; expected 1 to {MAX_FULLMOVE_NUMBER}")]
    FullmoveNumber(u32),
}

/// Bitboards of a setup: per colour and per role.
pub(crate) struct SetupBoards {
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) by_role: [Bitboard; 6],
}

impl SetupBoards {
    pub(crate) fn new(setup: &Setup) -> SetupBoards {
        let mut b = SetupBoards {
            by_color: [Bitboard::EMPTY; 2],
            by_role: [Bitboard::EMPTY; 6],
        };
        for sq in Square::all() {
            if let Some(p) = setup.board[sq.index()] {
                b.by_color[p.color.index()] = b.by_color[p.color.index()].with(sq);
                b.by_role[p.role.index()] = b.by_role[p.role.index()].with(sq);
            }
        }
        b
    }

    pub(crate) fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_color[color.index()] & self.by_role[role.index()]
    }

    pub(crate) fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// Pieces of `by` attacking `sq` with the board's occupancy.
    pub(crate) fn attackers(&self, sq: Square, by: Color) -> Bitboard {
        let occ = self.occupied();
        let rq = self.by_role[Role::Rook.index()] | self.by_role[Role::Queen.index()];
        let bq = self.by_role[Role::Bishop.index()] | self.by_role[Role::Queen.index()];
        self.by_color[by.index()]
            & ((knight_attacks(sq) & self.by_role[Role::Knight.index()])
                | (king_attacks(sq) & self.by_role[Role::King.index()])
                | (pawn_attacks(!by, sq) & self.by_role[Role::Pawn.index()])
                | (rook_attacks(sq, occ) & rq)
                | (bishop_attacks(sq, occ) & bq))
    }
}

/// What is wrong with `color`'s castling right on `side` in `setup`, if it
/// holds that right: the king or rook not on the squares the right records,
/// or the rook on the wrong side of the king. `None` when the right is not
/// held or is sound.
fn castling_problem(setup: &Setup, color: Color, side: CastlingSide) -> Option<PositionError> {
    if !setup.castling.has(color, side) {
        return None;
    }
    let king = setup
        .castling
        .king_square(color)
        .unwrap_or(side.king_from(color));
    let rook = setup
        .castling
        .rook_square(color, side)
        .unwrap_or(side.rook_from(color));
    if setup.piece_at(king) != Some(Piece::new(color, Role::King))
        || setup.piece_at(rook) != Some(Piece::new(color, Role::Rook))
    {
        return Some(PositionError::CastlingRight {
            color,
            side,
            king,
            rook,
        });
    }
    if CastlingSide::of_rook(king.file(), rook.file()) != Some(side) {
        return Some(PositionError::CastlingRookSide {
            color,
            side,
            king,
            rook,
        });
    }
    None
}

/// Whether `ep` can be the square a pawn just skipped in `setup`: on the
/// third rank of the side that just moved, empty, with the square it came
/// from empty and that side's pawn in front of it.
fn ep_square_possible(setup: &Setup, ep: Square) -> bool {
    let us = setup.turn;
    // White to move: the ep square is on rank 6 with a black pawn on rank 5.
    let forward = us.forward();
    let pusher = ep.offset(-forward);
    let origin = ep.offset(forward);
    ep.rank().index() == us.fold(5, 2)
        && setup.piece_at(ep).is_none()
        && origin.is_some_and(|o| setup.piece_at(o).is_none())
        && pusher.is_some_and(|p| setup.piece_at(p) == Some(Piece::new(!us, Role::Pawn)))
}

/// Repairs what lenient FEN reading forgives (see
/// [`crate::FenOptions::LENIENT`]): drops each castling right whose king or
/// rook is not where the right says, drops an en-passant square that no pawn
/// can just have skipped, and reads fullmove number 0 as 1. Everything else
/// is left for [`validate`] to judge.
pub(crate) fn repair(setup: &mut Setup) {
    for color in Color::ALL {
        for side in CastlingSide::ALL {
            if castling_problem(setup, color, side).is_some() {
                setup.castling = setup.castling.without(color, side);
            }
        }
    }
    if setup
        .ep_square
        .is_some_and(|ep| !ep_square_possible(setup, ep))
    {
        setup.ep_square = None;
    }
    if setup.fullmove_number == 0 {
        setup.fullmove_number = 1;
    }
}

/// Checks that `setup` is a playable position and returns it normalised: the
/// en-passant square is kept only when a pawn of the side to move attacks it
/// (so that equal positions have equal hashes and FENs, as in Polyglot).
pub fn validate(setup: &Setup) -> Result<Setup, PositionError> {
    let b = SetupBoards::new(setup);
    for color in Color::ALL {
        let kings = b.pieces(color, Role::King).count();
        if kings == 0 {
            return Err(PositionError::NoKing(color));
        }
        if kings > 1 {
            return Err(PositionError::TooManyKings(color, kings));
        }
    }
    if let Some(sq) =
        (b.by_role[Role::Pawn.index()] & (Bitboard::RANK_1 | Bitboard::RANK_8)).first()
    {
        return Err(PositionError::PawnOnBackRank(sq));
    }
    for color in Color::ALL {
        let count = b.by_color[color.index()].count();
        if count > 16 {
            return Err(PositionError::TooManyPieces { color, count });
        }
        let pawns = b.pieces(color, Role::Pawn).count();
        if pawns > 8 {
            return Err(PositionError::TooManyPawns {
                color,
                count: pawns,
            });
        }
        let extra =
            |role: Role, initial: u32| b.pieces(color, role).count().saturating_sub(initial);
        let promoted = extra(Role::Queen, 1)
            + extra(Role::Rook, 2)
            + extra(Role::Bishop, 2)
            + extra(Role::Knight, 2);
        if promoted > 8 - pawns {
            return Err(PositionError::TooManyPromoted {
                color,
                promoted,
                missing_pawns: 8 - pawns,
            });
        }
    }
    for color in Color::ALL {
        for side in CastlingSide::ALL {
            if let Some(error) = castling_problem(setup, color, side) {
                return Err(error);
            }
        }
    }
    let us = setup.turn;
    let mut out = setup.clone();
    if let Some(ep) = setup.ep_square {
        if !ep_square_possible(setup, ep) {
            return Err(PositionError::EnPassant(ep));
        }
        if (pawn_attacks(!us, ep) & b.pieces(us, Role::Pawn)).is_empty() {
            out.ep_square = None;
        }
    }
    let their_king = b.pieces(!us, Role::King).lowest();
    if b.attackers(their_king, us).any() {
        return Err(PositionError::OppositeCheck(!us));
    }
    let checkers = b.attackers(b.pieces(us, Role::King).lowest(), !us).count();
    if checkers > 2 {
        return Err(PositionError::TooManyCheckers(checkers));
    }
    if setup.halfmove_clock > MAX_HALFMOVE_CLOCK {
        return Err(PositionError::HalfmoveClock(setup.halfmove_clock));
    }
    if setup.fullmove_number == 0 || setup.fullmove_number > MAX_FULLMOVE_NUMBER {
        return Err(PositionError::FullmoveNumber(setup.fullmove_number));
    }
    Ok(out)
}
