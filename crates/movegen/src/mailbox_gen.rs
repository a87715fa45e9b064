//! Legal move generation for [`Mailbox`]: the shared array generator
//! ([`crate::array_gen`]) with 10×12 geometry. Leaving the board is reading
//! a sentinel square (which also stops the move as an own piece would);
//! attacks, checks and pins are found by scanning rays out from the square
//! in question.

use crate::array_gen::{self, ArrayBoard, Pins};
use crate::sink::{CountSink, ListSink};
use crate::{GenKind, MoveGen, MoveList};
use fianchetto_board::code::{self, EMPTY};
use fianchetto_board::mailbox::{
    self, BISHOP_STEPS, KING_STEPS, KNIGHT_STEPS, RANK_OF, ROOK_STEPS,
};
use fianchetto_board::{Board, Color, Mailbox, Role, Square};

impl ArrayBoard for Mailbox {
    const KNIGHT: [u8; 8] = KNIGHT_STEPS;
    const KING: [u8; 8] = KING_STEPS;
    const BISHOP: [u8; 4] = BISHOP_STEPS;
    const ROOK: [u8; 4] = ROOK_STEPS;
    const UP: u8 = 10;
    const NO_SQUARE: u8 = mailbox::NO_SQUARE;

    #[inline(always)]
    fn target(&self, s: u8) -> u8 {
        self.code_at(s)
    }

    #[inline(always)]
    fn list(&self, color: Color, role: Role) -> &[u8] {
        self.piece_list(color, role)
    }

    #[inline(always)]
    fn king_index(&self, color: Color) -> u8 {
        self.king120(color)
    }

    #[inline(always)]
    fn square(s: u8) -> Square {
        mailbox::to_square(s)
    }

    #[inline(always)]
    fn rank(s: u8) -> u8 {
        RANK_OF[(s as usize) % 120]
    }

    #[inline(always)]
    fn attacked(&self, t: u8, by: Color, ignore: u8) -> bool {
        self.attacked120(t, by, ignore)
    }

    #[inline(always)]
    fn checker_count(&self) -> usize {
        self.checker_squares().len()
    }

    #[inline(always)]
    fn evasion_mask(&self) -> u128 {
        let (Some(&c), Some(&step)) =
            (self.checker_squares().first(), self.checker_steps().first())
        else {
            return !0;
        };
        let mut mask = 1u128 << (c & 127);
        if step != 0 {
            let mut s = self.king120(self.turn()).wrapping_add(step);
            while s != c && self.code_at(s) == EMPTY {
                mask |= 1u128 << (s & 127);
                s = s.wrapping_add(step);
            }
        }
        mask
    }

    #[inline(always)]
    fn pins(&self) -> Pins {
        let us = self.turn();
        let them = !us;
        let k = self.king120(us);
        let own = code::color_bit(us);
        let queen = code::of(them, Role::Queen);
        let mut pins = Pins::NONE;
        for (dirs, slider) in [
            (ROOK_STEPS, code::of(them, Role::Rook)),
            (BISHOP_STEPS, code::of(them, Role::Bishop)),
        ] {
            for d in dirs {
                let mut s = k.wrapping_add(d);
                while self.code_at(s) == EMPTY {
                    s = s.wrapping_add(d);
                }
                let p = self.code_at(s);
                if p == code::OFF || p & own == 0 {
                    continue;
                }
                let mut t = s.wrapping_add(d);
                while self.code_at(t) == EMPTY {
                    t = t.wrapping_add(d);
                }
                let q = self.code_at(t);
                if q == slider || q == queen {
                    pins.add(s, d);
                }
            }
        }
        pins
    }

    #[inline(always)]
    fn ep(&self) -> Option<u8> {
        let ep = self.ep120();
        (ep != mailbox::NO_SQUARE).then_some(ep)
    }

    fn ep_is_legal(&self, from: u8, ep: u8) -> bool {
        let us = self.turn();
        let victim = ep.wrapping_sub(us.fold(10u8, 10u8.wrapping_neg()));
        let mut board = *self.array();
        board[(from & 0x7f) as usize] = EMPTY;
        board[(victim & 0x7f) as usize] = EMPTY;
        board[(ep & 0x7f) as usize] = code::of(us, Role::Pawn);
        !Mailbox::array_attacked(&board, self.king120(us), !us, mailbox::NO_SQUARE)
    }
}

impl MoveGen for Mailbox {
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
