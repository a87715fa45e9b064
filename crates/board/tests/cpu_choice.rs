//! `cpu::apply_env_overrides` honours `FIANCHETTO_CPU` and
//! `FIANCHETTO_SLIDERS`, so that a program (the `fianchetto` binary) or a
//! test run started with them (as CI does, once per slider method) really
//! runs on the path it asked for.

use fianchetto_board::cpu::{self, Sliders, Tier};

#[test]
fn environment_requests_are_honoured() {
    cpu::apply_env_overrides();
    let supported = cpu::supported_tier();
    let tier = match std::env::var("FIANCHETTO_CPU").as_deref() {
        Ok("x86-64") | Ok("baseline") => Some(Tier::Baseline),
        Ok("x86-64-v2") => Some(Tier::V2),
        Ok("x86-64-v3") => Some(Tier::V3),
        _ => None,
    };
    let sliders = match std::env::var("FIANCHETTO_SLIDERS").as_deref() {
        Ok("magic") => Some(Sliders::Magic),
        Ok("pext") => Some(Sliders::Pext),
        _ => None,
    };
    let want_tier = tier.map_or(supported, |t| t.min(supported));
    assert_eq!(cpu::tier(), want_tier, "{}", cpu::describe());
    match sliders {
        Some(Sliders::Magic) => assert_eq!(cpu::sliders(), Sliders::Magic),
        Some(Sliders::Pext) if cpu::pext_available() && want_tier == Tier::V3 => {
            assert_eq!(cpu::sliders(), Sliders::Pext)
        }
        _ => {}
    }
    println!("running on {}", cpu::describe());
}
