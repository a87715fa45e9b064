//! Legal move generation for [`Mailbox`]: the shared array generator
//! ([`crate::array_gen`]) with 10×12 geometry. Leaving the board is reading
//! a sentinel square (which also stops the move as an own piece would);
//! attacks, checks and pins are found by scanning rays out from the square
//! in question.

use crate::array_gen::{GenGeometry, Pins};
use fianchetto_board::code::{self, EMPTY};
use fianchetto_board::mailbox::{TenByTwelve, BISHOP_STEPS, RANK_OF, ROOK_STEPS};
use fianchetto_board::{Board, Mailbox, Role};

impl GenGeometry for TenByTwelve {
    #[inline(always)]
    fn target(b: &Mailbox, s: u8) -> u8 {
        b.code_at(s)
    }

    #[inline(always)]
    fn rank(s: u8) -> u8 {
        RANK_OF[(s as usize) % 120]
    }

    #[inline(always)]
    fn evasion_mask(b: &Mailbox) -> u128 {
        let (Some(&c), Some(&step)) = (b.checker_squares().first(), b.checker_steps().first())
        else {
            return !0;
        };
        let mut mask = 1u128 << (c & 127);
        if step != 0 {
            let mut s = b.king120(b.turn()).wrapping_add(step);
            while s != c && b.code_at(s) == EMPTY {
                mask |= 1u128 << (s & 127);
                s = s.wrapping_add(step);
            }
        }
        mask
    }

    #[inline(always)]
    fn pins(b: &Mailbox) -> Pins {
        let us = b.turn();
        let them = !us;
        let k = b.king120(us);
        let own = code::color_bit(us);
        let queen = code::of(them, Role::Queen);
        let mut pins = Pins::NONE;
        for (dirs, slider) in [
            (ROOK_STEPS, code::of(them, Role::Rook)),
            (BISHOP_STEPS, code::of(them, Role::Bishop)),
        ] {
            for d in dirs {
                let mut s = k.wrapping_add(d);
                while b.code_at(s) == EMPTY {
                    s = s.wrapping_add(d);
                }
                let p = b.code_at(s);
                if p == code::OFF || p & own == 0 {
                    continue;
                }
                let mut t = s.wrapping_add(d);
                while b.code_at(t) == EMPTY {
                    t = t.wrapping_add(d);
                }
                let q = b.code_at(t);
                if q == slider || q == queen {
                    pins.add(s, d);
                }
            }
        }
        pins
    }
}
