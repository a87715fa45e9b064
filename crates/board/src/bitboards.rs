//! `Bitboards`: the fast backend. Six role bitboards and two colour
//! bitboards, a 64-byte mailbox for `piece_at`, and the check and pin masks of
//! the side to move, recomputed after every move so that legal move
//! generation needs no make-and-test.

use crate::attacks::{
    between, bishop_rays, knight_attacks, pawn_attacks, rook_rays, MagicLookup, SliderLookup,
};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::castling::{CastlingRights, CastlingSide};
use crate::cpu::Level;
use crate::mv::{Move, MoveKind};
use crate::setup::Setup;
use crate::types::{Color, Piece, Role, Square};
use crate::validate::{validate, PositionError};
use crate::zobrist;

/// Mailbox byte for an empty square.
const NO_PIECE: u8 = 12;

/// A position in bitboards, with magic-bitboard attacks and incrementally
/// kept check and pin masks.
///
/// ```
/// use fianchetto_board::{Bitboards, Board, Color, Role};
/// let b = Bitboards::startpos();
/// assert_eq!(b.pieces(Color::White, Role::Pawn).count(), 8);
/// assert_eq!(b.fen(), fianchetto_board::START_FEN);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bitboards {
    by_role: [Bitboard; 6],
    by_color: [Bitboard; 2],
    mailbox: [u8; 64],
    checkers: Bitboard,
    pinned: Bitboard,
    hash: u64,
    turn: Color,
    castling: CastlingRights,
    /// En-passant square index, or 64 for none.
    ep: u8,
    halfmove: u16,
    fullmove: u16,
}

impl Bitboards {
    /// Pieces of the side to move pinned to their king.
    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        self.pinned
    }

    /// Every piece of `role`, both colours (inherent, to skip the trait's
    /// default of OR-ing the colours).
    #[inline(always)]
    pub fn role_bb(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occ(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The role on `sq`, if any.
    #[inline(always)]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        let p = self.mailbox[sq.index()];
        Role::from_index((p % 6) as usize).filter(|_| p != NO_PIECE)
    }

    #[inline(always)]
    fn toggle<const FULL: bool>(&mut self, piece: Piece, sq: Square) {
        let b = Bitboard::from_square(sq);
        self.by_role[piece.role.index()] ^= b;
        self.by_color[piece.color.index()] ^= b;
        if FULL {
            self.hash ^= zobrist::piece(piece, sq);
        }
    }

    #[inline(always)]
    fn put<const FULL: bool>(&mut self, piece: Piece, sq: Square) {
        self.toggle::<FULL>(piece, sq);
        if FULL {
            self.mailbox[sq.index()] = piece.index() as u8;
        }
    }

    #[inline(always)]
    fn remove<const FULL: bool>(&mut self, piece: Piece, sq: Square) {
        self.toggle::<FULL>(piece, sq);
        if FULL {
            self.mailbox[sq.index()] = NO_PIECE;
        }
    }

    #[inline(always)]
    fn piece_byte(&self, sq: Square) -> Option<Piece> {
        Piece::from_index(self.mailbox[sq.index()] as usize)
    }

    /// Recomputes the checkers of and the pieces pinned to the side to move's
    /// king.
    #[inline(always)]
    fn update_masks<A: SliderLookup>(&mut self, sliders: A) {
        let us = self.turn;
        let them = !us;
        let ksq = self.king(us);
        let occ = self.occ();
        let their = self.by_color[them.index()];
        let queens = self.by_role[Role::Queen.index()];
        let rq = (self.by_role[Role::Rook.index()] | queens) & their;
        let bq = (self.by_role[Role::Bishop.index()] | queens) & their;
        let mut checkers = (knight_attacks(ksq) & self.by_role[Role::Knight.index()] & their)
            | (pawn_attacks(us, ksq) & self.by_role[Role::Pawn.index()] & their);
        let mut pinned = Bitboard::EMPTY;
        // A kind of slider none of which stands on the king's lines is not
        // looked up: the empty-board rays are a small table, and the attack
        // table read otherwise (large) was a cache miss a move when reading
        // PGN.
        let mut snipers = Bitboard::EMPTY;
        if (rook_rays(ksq) & rq).any() {
            snipers |= sliders.rook(ksq, their) & rq;
        }
        if (bishop_rays(ksq) & bq).any() {
            snipers |= sliders.bishop(ksq, their) & bq;
        }
        for s in snipers {
            let blockers = between(ksq, s) & occ;
            if blockers.is_empty() {
                checkers |= Bitboard::from_square(s);
            } else if !blockers.more_than_one() {
                pinned |= blockers;
            }
        }
        self.checkers = checkers;
        self.pinned = pinned & self.by_color[us.index()];
    }

    #[inline(always)]
    fn set_ep(&mut self, ep: Option<Square>) {
        if let Some(old) = Square::new(self.ep) {
            self.hash ^= zobrist::en_passant(old);
        }
        self.ep = 64;
        if let Some(sq) = ep {
            self.hash ^= zobrist::en_passant(sq);
            self.ep = sq.index() as u8;
        }
    }

    /// Castling, standard or Chess960: king and rook are both lifted
    /// before either lands, since in Chess960 one may land where the other
    /// stood.
    #[inline(never)]
    fn play_castle(&mut self, mv: Move, side: CastlingSide) {
        let us = self.turn;
        let (Some(king), Some(rook_from)) = (
            self.piece_byte(mv.from()),
            self.castling.rook_square(us, side),
        ) else {
            // Not a move of this position; keep the board consistent.
            return;
        };
        self.set_ep(None);
        self.halfmove = self.halfmove.saturating_add(1);
        let rook = Piece::new(us, Role::Rook);
        self.remove::<true>(king, mv.from());
        self.remove::<true>(rook, rook_from);
        self.put::<true>(king, mv.to());
        self.put::<true>(rook, side.rook_to(us));
        self.finish(self.castling.without_color(us), MagicLookup);
    }

    /// The end of every move: the new castling rights, the move number,
    /// the side to move, the masks.
    #[inline(always)]
    fn finish<A: SliderLookup>(&mut self, rights: CastlingRights, sliders: A) {
        if rights != self.castling {
            self.hash ^= zobrist::castling(self.castling) ^ zobrist::castling(rights);
            self.castling = rights;
        }
        if self.turn == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.turn = !self.turn;
        self.hash ^= zobrist::side();
        self.update_masks(sliders);
    }

    /// [`Board::play_unchecked`] with the slider lookup `sliders`, inlined.
    /// Without `FULL`, only what move generation reads is brought up to date:
    /// the pieces' sets, the side to move, castling, en passant, checkers and
    /// pins, and not the key, the mailbox or the move counters (see
    /// [`Bitboards::play_for_generation_in`]). That path sets the fields
    /// itself rather than through `set_ep` and `finish` made generic over
    /// `FULL`: tried, that cost Kiwipete's perft 4–5 %.
    #[inline(always)]
    fn play_with<A: SliderLookup, const FULL: bool>(&mut self, mv: Move, sliders: A) {
        if let Some(side) = mv.castling_side() {
            // Apart, so that the common moves keep their own tight code.
            return self.play_castle(mv, side);
        }
        let us = self.turn;
        let them = !us;
        let (from, to) = (mv.from(), mv.to());
        let Some(moving) = self.piece_byte(from) else {
            // Not a move of this position; keep the board consistent.
            return;
        };
        if FULL {
            self.set_ep(None);
            self.halfmove = self.halfmove.saturating_add(1);
        } else {
            self.ep = 64;
        }
        if mv.is_capture() {
            if FULL {
                self.halfmove = 0;
            }
            if mv.is_en_passant() {
                if let Some(victim) = to.offset(-us.forward()) {
                    self.remove::<FULL>(Piece::new(them, Role::Pawn), victim);
                }
            } else if let Some(captured) = self.piece_byte(to) {
                self.remove::<FULL>(captured, to);
            }
        }
        self.remove::<FULL>(moving, from);
        match mv.promotion() {
            Some(role) => self.put::<FULL>(Piece::new(us, role), to),
            None => self.put::<FULL>(moving, to),
        }
        if mv.kind() == MoveKind::DoublePush {
            let ep = Square::from_index_wrapping((from.index() + to.index()) / 2);
            if (pawn_attacks(us, ep) & self.pieces(them, Role::Pawn)).any() {
                if FULL {
                    self.set_ep(Some(ep));
                } else {
                    self.ep = ep.index() as u8;
                }
            }
        }
        if FULL && moving.role == Role::Pawn {
            self.halfmove = 0;
        }
        let rights = self.castling.after_move(from, to);
        if FULL {
            self.finish(rights, sliders);
        } else {
            self.castling = rights;
            self.turn = them;
            self.update_masks(sliders);
        }
    }

    /// The position after `mv` with only what move generation reads brought
    /// up to date, for the last ply but one of a bulk-counting perft: the
    /// pieces' sets, the side to move, castling rights, en passant, checkers
    /// and pins. The Zobrist key, the piece on each square and the move
    /// counters are left as they were before the move, so the board may
    /// only be generated from or counted ([`Board::hash`], piece lookups and
    /// playing further moves on it give wrong answers); the board is not
    /// kept. Castling is played in full.
    #[doc(hidden)]
    #[inline(always)]
    pub fn play_for_generation_in<L: Level>(&mut self, level: L, mv: Move) {
        self.play_with::<_, false>(mv, level.sliders());
    }
}

impl Board for Bitboards {
    const NAME: &'static str = "bitboard";

    fn from_setup(setup: &Setup) -> Result<Bitboards, PositionError> {
        let setup = validate(setup)?;
        let mut b = Bitboards {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            mailbox: [NO_PIECE; 64],
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
            hash: 0,
            turn: setup.turn,
            castling: setup.castling,
            ep: 64,
            halfmove: setup.halfmove_clock as u16,
            fullmove: setup.fullmove_number as u16,
        };
        for sq in Square::all() {
            if let Some(p) = setup.board[sq.index()] {
                b.put::<true>(p, sq);
            }
        }
        if setup.turn == Color::Black {
            b.hash ^= zobrist::side();
        }
        b.hash ^= zobrist::castling(setup.castling);
        b.set_ep(setup.ep_square);
        b.update_masks(MagicLookup);
        Ok(b)
    }

    #[inline(always)]
    fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.piece_byte(sq)
    }

    #[inline(always)]
    fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_color[color.index()] & self.by_role[role.index()]
    }

    #[inline(always)]
    fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    #[inline(always)]
    fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    #[inline(always)]
    fn occupied(&self) -> Bitboard {
        self.occ()
    }

    #[inline(always)]
    fn turn(&self) -> Color {
        self.turn
    }

    #[inline(always)]
    fn castling(&self) -> CastlingRights {
        self.castling
    }

    #[inline(always)]
    fn ep_square(&self) -> Option<Square> {
        Square::new(self.ep)
    }

    fn halfmove_clock(&self) -> u32 {
        self.halfmove as u32
    }

    fn fullmove_number(&self) -> u32 {
        self.fullmove as u32
    }

    #[inline(always)]
    fn hash(&self) -> u64 {
        self.hash
    }

    #[inline(always)]
    fn king(&self, color: Color) -> Square {
        (self.by_role[Role::King.index()] & self.by_color[color.index()]).lowest()
    }

    #[inline(always)]
    fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// With `PEXT` sliders chosen ([`crate::cpu`]), the masks are looked up
    /// with `PEXT`: one relaxed load and a predictable branch per move, for
    /// the callers that play moves without a [`Level`] of their own (PGN
    /// reading, the searches). `fianchetto pgn --stats` took 1.5–5 % less
    /// time this way.
    fn play_unchecked(&mut self, mv: Move) {
        match crate::cpu::level() {
            crate::cpu::AnyLevel::V3Pext(level) => self.play_with::<_, true>(mv, level.sliders()),
            _ => self.play_with::<_, true>(mv, MagicLookup),
        }
    }

    #[inline(always)]
    fn play_in<L: Level>(&mut self, level: L, mv: Move) {
        self.play_with::<_, true>(mv, level.sliders());
    }

    fn play_null(&mut self) {
        self.set_ep(None);
        self.halfmove = self.halfmove.saturating_add(1);
        if self.turn == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.turn = !self.turn;
        self.hash ^= zobrist::side();
        self.update_masks(MagicLookup);
    }
}
