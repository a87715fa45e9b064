//! Legal move generation for [`Board0x88`]: the shared array generator
//! ([`crate::array_gen`]) with 0x88 geometry. Leaving the board is the
//! `index & 0x88` bit test (no memory load); attacks, the check's evasion
//! squares and pins come from the 257-entry attack table applied to the
//! enemy piece list.

use crate::array_gen::{GenGeometry, Pins};
use fianchetto_board::code::{self, EMPTY};
use fianchetto_board::x88::{
    attack_index, ATTACK_BISHOP, ATTACK_KINDS, ATTACK_QUEEN, ATTACK_ROOK, ATTACK_SLIDERS,
    ATTACK_STEP, KIND_BIT, X88,
};
use fianchetto_board::{Board, Board0x88, Role};

impl GenGeometry for X88 {
    #[inline(always)]
    fn target(b: &Board0x88, s: u8) -> u8 {
        if s & 0x88 != 0 {
            code::OFF
        } else {
            b.code_at(s)
        }
    }

    #[inline(always)]
    fn rank(s: u8) -> u8 {
        s >> 4
    }

    #[inline(always)]
    fn evasion_mask(b: &Board0x88) -> u128 {
        let Some(&c) = b.checker_squares().first() else {
            return !0;
        };
        let mut mask = 1u128 << (c & 127);
        if KIND_BIT[(b.code_at(c) & 63) as usize] & ATTACK_SLIDERS != 0 {
            let k = b.king88(b.turn());
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
    fn pins(b: &Board0x88) -> Pins {
        let us = b.turn();
        let k = b.king88(us);
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
            .flat_map(|(role, bit)| b.piece_list(!us, role).iter().map(move |&s| (s, bit)))
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
                if b.code_at(t) != EMPTY {
                    blockers += 1;
                    blocker = Some(t);
                    if blockers > 1 {
                        break;
                    }
                }
                t = t.wrapping_add(step);
            }
            if let (1, Some(p)) = (blockers, blocker) {
                if b.code_at(p) & own != 0 {
                    pins.add(p, step);
                }
            }
        }
        pins
    }
}
