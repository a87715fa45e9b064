//! Perft on every CPU level this machine runs (each tier, and PEXT or magic
//! sliders in the v3 tier) gives the published counts. One test, since the
//! level is process-wide.

use fianchetto_board::cpu::{self, Sliders, Tier};
use fianchetto_board::{Bitboards, Board};
use fianchetto_movegen::{perft, perft_hashed, perft_plain, perft_stats};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POSITION_3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";

#[test]
fn every_level_counts_the_same() {
    let kiwipete = Bitboards::from_fen(KIWIPETE).unwrap();
    let endgame = Bitboards::from_fen(POSITION_3).unwrap();
    let mut levels = vec![];
    for tier in [Tier::Baseline, Tier::V2, Tier::V3] {
        if tier <= cpu::supported_tier() {
            levels.push((tier, Sliders::Magic));
        }
    }
    if cpu::pext_available() {
        levels.push((Tier::V3, Sliders::Pext));
    }
    for (tier, sliders) in levels {
        cpu::set_tier(tier).unwrap();
        cpu::set_sliders(sliders).unwrap();
        assert_eq!((cpu::tier(), cpu::sliders()), (tier, sliders));
        let what = cpu::describe();
        assert_eq!(perft(&kiwipete, 3), 97_862, "{what}");
        assert_eq!(perft_plain(&kiwipete, 2), 2_039, "{what}");
        assert_eq!(perft_hashed(&kiwipete, 3, 1), 97_862, "{what}");
        assert_eq!(perft_stats(&kiwipete, 2).captures, 351, "{what}");
        assert_eq!(perft(&endgame, 5), 674_624, "{what}");
    }
    cpu::reset();
    // Asking for more than the CPU has is refused and changes nothing.
    let before = cpu::describe();
    if cpu::supported_tier() < Tier::V3 {
        assert!(cpu::set_tier(Tier::V3).is_err());
    }
    if !cpu::pext_available() {
        assert!(cpu::set_sliders(Sliders::Pext).is_err());
    }
    assert_eq!(cpu::describe(), before);
}
