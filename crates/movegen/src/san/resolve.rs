//! Finding the one legal move a [`San`] names on a board, or saying why
//! there is none.

use super::*;

/// The file a `San::Normal` move must start from, if the text says: the
/// file it gives, or for a pawn move with neither file nor capture mark the
/// destination's file (a plain pawn move is a push: `d5` never means
/// `exd5`).
fn source_file(role: Role, from_file: Option<File>, capture: bool, to: Square) -> Option<File> {
    match from_file {
        None if role == Role::Pawn && !capture => Some(to.file()),
        other => other,
    }
}

/// The one legal move `san` names, found without generating every
/// legal move (what reading PGN spends most of its time on): the squares
/// from which a piece of the named kind reaches the destination, each
/// checked by whether the king is attacked after the move. `None` when that
/// finds no move or several, and for castling: [`resolve_slow`] then
/// decides, and words the error.
pub(super) fn resolve_fast<B: Board>(board: &B, san: San) -> Option<Move> {
    let San::Normal {
        role,
        from_file,
        from_rank,
        capture,
        en_passant,
        to,
        promotion,
        ..
    } = san
    else {
        return None;
    };
    let from_file = source_file(role, from_file, capture, to);
    let us = board.turn();
    let them = !us;
    let theirs = board.by_color(them);
    if board.by_color(us).contains(to) {
        return None;
    }
    let mut from_mask = Bitboard::FULL;
    if let Some(file) = from_file {
        from_mask &= Bitboard::file(file);
    }
    if let Some(rank) = from_rank {
        from_mask &= Bitboard::rank(rank);
    }
    let takes = theirs.contains(to);
    // The squares a piece of the named kind would come from, and the kind
    // of move it would make.
    let (sources, kind) = if role == Role::Pawn {
        let last_rank = to.rank() == Rank::EIGHTH.relative(us);
        if last_rank != promotion.is_some() {
            // A promotion without its piece is ambiguous, one elsewhere
            // illegal: the slow path says which.
            return None;
        }
        let kind = |capture: bool| match promotion {
            Some(role) => MoveKind::promotion(role, capture),
            None if capture => Some(MoveKind::Capture),
            None => Some(MoveKind::Quiet),
        };
        let pawns = board.pieces(us, Role::Pawn) & from_mask;
        let en_passant_target = !takes && board.ep_square() == Some(to);
        if takes || en_passant_target {
            let kind = if en_passant_target {
                MoveKind::EnPassant
            } else {
                kind(true)?
            };
            (pawn_attacks(them, to) & pawns, kind)
        } else {
            let step = -us.forward();
            let one = to.offset(step)?;
            if pawns.contains(one) {
                (Bitboard::from_square(one), kind(false)?)
            } else if !board.occupied().contains(one) && to.rank().relative(us).index() == 3 {
                let two = one.offset(step)?;
                (pawns & Bitboard::from_square(two), MoveKind::DoublePush)
            } else {
                return None;
            }
        }
    } else {
        if promotion.is_some() {
            return None;
        }
        let kind = if takes {
            MoveKind::Capture
        } else {
            MoveKind::Quiet
        };
        let pieces = board.pieces(us, role) & from_mask;
        let sources = match role {
            Role::Bishop | Role::Rook | Role::Queen => {
                sliders_reaching(role, pieces, to, board.occupied())
            }
            _ => attacks(role, us, to, board.occupied()) & pieces,
        };
        (sources, kind)
    };
    // The one legal move among them, if there is exactly one.
    let mut found = None;
    for from in sources {
        let mv = Move::new(from, to, kind);
        if (capture && !mv.is_capture()) || (en_passant && !mv.is_en_passant()) {
            continue;
        }
        if !king_safe_after(board, mv, role) {
            continue;
        }
        if found.is_some() {
            return None;
        }
        found = Some(mv);
    }
    found
}

/// The sliders of `role` among `pieces` that reach `to` through
/// `occupied`: each on a line of its kind through `to`, with nothing
/// between. `pieces` are few (the pieces a SAN move names, or one side's
/// sliders), and this reads two small tables for each where the slider
/// attack table (large, so a cache miss a move) would be read once.
#[inline]
fn sliders_reaching(role: Role, pieces: Bitboard, to: Square, occupied: Bitboard) -> Bitboard {
    let mut found = Bitboard::EMPTY;
    for from in pieces {
        let ray = line(from, to);
        if ray.is_empty() {
            continue;
        }
        let straight = from.file() == to.file() || from.rank() == to.rank();
        let fits = match role {
            Role::Rook => straight,
            Role::Bishop => !straight,
            _ => true,
        };
        if fits && (between(from, to) & occupied).is_empty() {
            found = found.with(from);
        }
    }
    found
}

/// Whether the side to move's king is safe after `mv` (a move of a `role`
/// that is not castling): no piece of the other side attacks it once the
/// move's squares are updated and its capture removed.
fn king_safe_after<B: Board>(board: &B, mv: Move, role: Role) -> bool {
    let us = board.turn();
    let (from, to) = (mv.from(), mv.to());
    let mut occupied = board.occupied().without(from).with(to);
    if role != Role::King && !mv.is_en_passant() {
        let king = board.king(us);
        let checkers = board.checkers();
        if checkers.any() {
            // In check, a move other than the king's must take the one
            // checker or stand between it and the king; it must then
            // uncover nothing, as below.
            if checkers.more_than_one() {
                return false;
            }
            let checker = checkers.lowest();
            if to != checker && !between(king, checker).contains(to) {
                return false;
            }
        }
        // A move can only uncover its king along the line from the king
        // through its square; a piece off every such line, or moving along
        // it, uncovers nothing (most moves: no attacker set to compute).
        let ray = line(king, from);
        if ray.is_empty() || ray.contains(to) {
            return true;
        }
        // Leaving the line, it uncovers a slider of that line's kind on it
        // that now reaches the king (the checker, if any, is off the line:
        // `to` would be on it). Found with the small line tables: the
        // slider attack table read here was a cache miss in a tenth of the
        // calls.
        let slider = if king.file() == from.file() || king.rank() == from.rank() {
            Role::Rook
        } else {
            Role::Bishop
        };
        let them = !us;
        let on_line = ray & (board.pieces(them, slider) | board.pieces(them, Role::Queen));
        return sliders_reaching(slider, on_line, king, occupied).is_empty();
    }
    let mut captured = Bitboard::from_square(to);
    if mv.is_en_passant() {
        let victim = Square::from_coords(to.file(), from.rank());
        occupied = occupied.without(victim);
        captured = captured.with(victim);
    }
    let king = if role == Role::King {
        to
    } else {
        board.king(us)
    };
    !attacked(board, king, !us, occupied, captured)
}

/// Whether a piece of `them`, other than those on `captured`, attacks `sq`
/// through `occupied`: the leapers from their tables, then the sliders
/// with [`sliders_reaching`], which reads small tables where
/// `Board::attackers` reads the large slider table (a cache miss). A legal
/// king move has every attacker tested.
fn attacked<B: Board>(
    board: &B,
    sq: Square,
    them: Color,
    occupied: Bitboard,
    captured: Bitboard,
) -> bool {
    let leapers = (knight_attacks(sq) & board.pieces(them, Role::Knight))
        | (pawn_attacks(!them, sq) & board.pieces(them, Role::Pawn))
        | (king_attacks(sq) & board.pieces(them, Role::King));
    if (leapers & !captured).any() {
        return true;
    }
    let queens = board.pieces(them, Role::Queen);
    let straight = (board.pieces(them, Role::Rook) | queens) & !captured;
    let diagonal = (board.pieces(them, Role::Bishop) | queens) & !captured;
    (sliders_reaching(Role::Rook, straight, sq, occupied)
        | sliders_reaching(Role::Bishop, diagonal, sq, occupied))
    .any()
}

/// Finds the move among all legal ones, or says why there is none or more
/// than one (naming the move as `text` gives it: only called on errors).
pub(super) fn resolve_slow<B: MoveGen>(
    board: &B,
    text: impl FnOnce() -> String,
    san: San,
) -> Result<Move, SanError> {
    let legal = board.legal_moves();
    let mut found: Option<Move> = None;
    let mut others = Vec::new();
    for &m in &legal {
        if matches(board, m, san) {
            match found {
                None => found = Some(m),
                Some(_) => others.push(m),
            }
        }
    }
    match found {
        Some(m) if others.is_empty() => Ok(m),
        Some(m) => {
            others.insert(0, m);
            Err(SanError::Ambiguous {
                text: text(),
                // Legal moves of `board`, so each has its SAN.
                candidates: others
                    .into_iter()
                    .filter_map(|m| to_san(board, m).ok())
                    .collect(),
                fen: board.fen(),
            })
        }
        None => Err(SanError::Illegal {
            text: text(),
            reason: why_illegal(board, san),
            fen: board.fen(),
        }),
    }
}

/// Whether the legal move `m` is one that `san` describes.
fn matches<B: Board>(board: &B, m: Move, san: San) -> bool {
    match san {
        San::Castle { side, .. } => m.castling_side() == Some(side),
        San::Normal {
            role,
            from_file,
            from_rank,
            capture,
            en_passant,
            to,
            promotion,
            ..
        } => {
            let from_file = source_file(role, from_file, capture, to);
            !m.is_castle()
                && m.to() == to
                && moving_role(board, m) == role
                && from_file.is_none_or(|f| m.from().file() == f)
                && from_rank.is_none_or(|r| m.from().rank() == r)
                && (!capture || m.is_capture())
                && (!en_passant || m.is_en_passant())
                // No promotion letter matches every promotion, so that `e8`
                // comes back as ambiguous and the user picks the piece.
                && (promotion.is_none() || m.promotion() == promotion)
        }
    }
}

/// A sentence saying why no legal move matches `san`.
fn why_illegal<B: MoveGen>(board: &B, san: San) -> String {
    let side = board.turn();
    match san {
        San::Castle { side: wing, .. } => {
            let wing = match wing {
                CastlingSide::King => "king",
                CastlingSide::Queen => "queen",
            };
            format!("{side} cannot castle on the {wing} side here")
        }
        San::Normal {
            role,
            capture,
            en_passant,
            to,
            ..
        } => {
            let name = role_name(role);
            if board.in_check() {
                format!("{side} is in check and no {name} move to {to} answers it")
            } else if en_passant && board.ep_square() != Some(to) {
                format!("no en-passant capture on {to} is possible")
            } else if capture && board.piece_at(to).is_none() && board.ep_square() != Some(to) {
                format!("there is nothing to capture on {to}")
            } else {
                format!("no {side} {name} matching the text can move to {to}")
            }
        }
    }
}

/// The English name of a role, for messages.
fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}
