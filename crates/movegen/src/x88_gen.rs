//! Legal move generation for [`Board0x88`]: the shared array generator
//! ([`crate::array_gen`]) with 0x88 geometry. Leaving the board is the
//! `index & 0x88` bit test (no memory load); attacks, the check's evasion
//! squares and pins come from the 257-entry attack table applied to the
//! enemy piece list.

use crate::array_gen::{self, ArrayBoard, Pins};
use crate::sink::{CountSink, ListSink};
use crate::{GenKind, MoveGen, MoveList};
use fianchetto_board::code::{self, EMPTY};
use fianchetto_board::x88::{
    self, attack_index, ATTACK_BISHOP, ATTACK_KINDS, ATTACK_QUEEN, ATTACK_ROOK, ATTACK_SLIDERS,
    ATTACK_STEP, BISHOP_STEPS, KIND_BIT, KING_STEPS, KNIGHT_STEPS, ROOK_STEPS,
};
use fianchetto_board::{Board, Board0x88, Color, Role, Square};

impl ArrayBoard for Board0x88 {
    const KNIGHT: [u8; 8] = KNIGHT_STEPS;
    const KING: [u8; 8] = KING_STEPS;
    const BISHOP: [u8; 4] = BISHOP_STEPS;
    const ROOK: [u8; 4] = ROOK_STEPS;
    const UP: u8 = 16;
    const NO_SQUARE: u8 = x88::NO_SQUARE;

    #[inline(always)]
    fn target(&self, s: u8) -> u8 {
        if s & 0x88 != 0 {
            code::OFF
        } else {
            self.code_at(s)
        }
    }

    #[inline(always)]
    fn list(&self, color: Color, role: Role) -> &[u8] {
        self.piece_list(color, role)
    }

    #[inline(always)]
    fn king_index(&self, color: Color) -> u8 {
        self.king88(color)
    }

    #[inline(always)]
    fn square(s: u8) -> Square {
        x88::to_square(s)
    }

    #[inline(always)]
    fn rank(s: u8) -> u8 {
        s >> 4
    }

    #[inline(always)]
    fn attacked(&self, t: u8, by: Color, ignore: u8) -> bool {
        self.attacked88(t, by, ignore)
    }

    #[inline(always)]
    fn checker_count(&self) -> usize {
        self.checker_squares().len()
    }

    #[inline(always)]
    fn evasion_mask(&self) -> u128 {
        let Some(&c) = self.checker_squares().first() else {
            return !0;
        };
        let mut mask = 1u128 << (c & 127);
        if KIND_BIT[(self.code_at(c) & 63) as usize] & ATTACK_SLIDERS != 0 {
            let k = self.king88(self.turn());
            let step = ATTACK_STEP[attack_index(k, c)] as u8;
            let mut s = k.wrapping_add(step);
            while s != c && s & 0x88 == 0 {
                mask |= 1u128 << (s & 127);
                s = s.wrapping_add(step);
            }
        }
        mask
    }

    #[inline(always)]
    fn pins(&self) -> Pins {
        let us = self.turn();
        let k = self.king88(us);
        let own = code::color_bit(us);
        let mut pins = Pins::NONE;
        // Only an enemy slider that the table says could reach the king
        // along its vector can pin; walk from it to the king.
        let sliders = [
            (Role::Bishop, ATTACK_BISHOP),
            (Role::Rook, ATTACK_ROOK),
            (Role::Queen, ATTACK_QUEEN),
        ];
        for (s, kind) in sliders
            .into_iter()
            .flat_map(|(role, bit)| self.piece_list(!us, role).iter().map(move |&s| (s, bit)))
        {
            let idx = attack_index(s, k);
            if ATTACK_KINDS[idx] & kind == 0 {
                continue;
            }
            let step = ATTACK_STEP[idx] as u8;
            let mut t = s.wrapping_add(step);
            let mut blocker = None;
            let mut blockers = 0;
            while t != k && t & 0x88 == 0 {
                if self.code_at(t) != EMPTY {
                    blockers += 1;
                    blocker = Some(t);
                    if blockers > 1 {
                        break;
                    }
                }
                t = t.wrapping_add(step);
            }
            if let (1, Some(p)) = (blockers, blocker) {
                if self.code_at(p) & own != 0 {
                    pins.add(p, step);
                }
            }
        }
        pins
    }

    #[inline(always)]
    fn ep(&self) -> Option<u8> {
        let ep = self.ep88();
        (ep != x88::NO_SQUARE).then_some(ep)
    }

    fn ep_is_legal(&self, from: u8, ep: u8) -> bool {
        let us = self.turn();
        let victim = ep.wrapping_sub(us.fold(16u8, 16u8.wrapping_neg()));
        let mut squares = *self.squares();
        squares[(from & 0x7f) as usize] = EMPTY;
        squares[(victim & 0x7f) as usize] = EMPTY;
        squares[(ep & 0x7f) as usize] = code::of(us, Role::Pawn);
        // Pawns are looked up on the copied array, where the captured one is
        // gone; the other pieces' lists are unchanged.
        !self.attacked_on(&squares, self.king88(us), !us, x88::NO_SQUARE)
    }
}

impl MoveGen for Board0x88 {
    #[inline]
    fn generate(&self, kind: GenKind, list: &mut MoveList) {
        let mut sink = ListSink(list);
        match kind {
            GenKind::All => array_gen::generate::<_, _, { array_gen::ALL }>(self, &mut sink),
            GenKind::Captures => {
                array_gen::generate::<_, _, { array_gen::CAPTURES }>(self, &mut sink)
            }
            GenKind::Quiets => array_gen::generate::<_, _, { array_gen::QUIETS }>(self, &mut sink),
        }
    }

    #[inline]
    fn count_legal(&self) -> u64 {
        let mut sink = CountSink(0);
        array_gen::generate::<_, _, { array_gen::ALL }>(self, &mut sink);
        sink.0
    }
}
