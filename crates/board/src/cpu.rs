//! Run-time CPU dispatch: one build that runs on any x86-64 and still uses
//! the instructions the running CPU has.
//!
//! Two choices are made once per process, from what the CPU reports:
//!
//! * The **tier** the hot loops are compiled for ([`Tier`]): the x86-64
//!   baseline, x86-64-v2 (adds `POPCNT` and SSE4.2) or x86-64-v3 (adds AVX2,
//!   BMI1/BMI2, `LZCNT`, `MOVBE`, FMA). Code run through a [`Level`]
//!   (the [`with_level!`](crate::with_level) macro, [`multiversion`]) is
//!   compiled once per tier with `#[target_feature]`, so that inside it
//!   `count_ones` is one `POPCNT` and board copies use 32-byte moves;
//!   the tier is picked once at the top (a perft, an evaluation), not per
//!   instruction. Target features reach only code that the compiler
//!   *inlines* into such a function: a callee compiled on its own (a
//!   recursive call, a function too big to inline) runs at the baseline,
//!   which is why recursive code passes its `Level` down and re-enters it
//!   through [`Level::run`].
//! * The **slider method** ([`Sliders`]): `PEXT` where it is fast (BMI2 and
//!   not an AMD or Hygon CPU before Zen 3, whose microcoded `PEXT` takes
//!   hundreds of cycles), magic multiplication otherwise. It is part of the
//!   level: [`V3Pext`] is the x86-64-v3 tier with `PEXT` sliders
//!   ([`Level::sliders`]), so dispatched code knows its method at compile
//!   time and pays nothing per lookup (a run-time test on every lookup, tried
//!   first, cost a quarter more instructions in perft). Code that is not
//!   dispatched (the free functions of [`crate::attacks`]) uses magics.
//!
//! Either can be forced, for tests and measurements, with [`set_tier`] and
//! [`set_sliders`] at any time, or from the environment variables
//! `FIANCHETTO_CPU` (`baseline`, `x86-64-v2`, `x86-64-v3`: use at most this
//! tier) and `FIANCHETTO_SLIDERS` (`magic`, or `pext` to use PEXT whenever
//! the CPU has BMI2, fast or not). The library reads them only when asked:
//! a program calls [`apply_env_overrides`] (the `fianchetto` binary does, at
//! start-up), and the cargo feature `cpu-env`, meant for test suites (this
//! workspace's tests turn it on), makes the automatic choice read them. A
//! request the CPU cannot honour is refused ([`set_tier`], [`set_sliders`])
//! or, from the environment, capped to what the CPU has. Every choice gives
//! the same results; only the speed differs.
//!
//! ```
//! use fianchetto_board::cpu::{self, Sliders, Tier};
//!
//! // The magic path is always available.
//! cpu::set_sliders(Sliders::Magic).unwrap();
//! assert_eq!(cpu::sliders(), Sliders::Magic);
//! // The baseline tier too; higher tiers only where the CPU has them.
//! cpu::set_tier(Tier::Baseline).unwrap();
//! assert_eq!(cpu::tier(), Tier::Baseline);
//! assert!(cpu::supported_tier() >= Tier::Baseline);
//! cpu::reset();
//! ```

use crate::attacks::{MagicLookup, PextLookup, SliderLookup};
use alloc::format;
use alloc::string::String;
use core::fmt;
use core::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// A set of instructions the hot loops can be compiled for, from the
/// x86-64 microarchitecture levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tier {
    /// Any x86-64 CPU (and every other architecture).
    Baseline,
    /// x86-64-v2: `POPCNT`, SSE3, SSSE3, SSE4.1, SSE4.2.
    V2,
    /// x86-64-v3: v2 plus AVX, AVX2, BMI1, BMI2, FMA, `LZCNT`, `MOVBE`.
    V3,
}

impl Tier {
    /// The name of the tier, as `-C target-cpu` spells it (`x86-64`,
    /// `x86-64-v2`, `x86-64-v3`).
    pub fn name(self) -> &'static str {
        match self {
            Tier::Baseline => "x86-64",
            Tier::V2 => "x86-64-v2",
            Tier::V3 => "x86-64-v3",
        }
    }

    fn from_bits(bits: u8) -> Tier {
        match bits & TIER_MASK {
            2 => Tier::V3,
            1 => Tier::V2,
            _ => Tier::Baseline,
        }
    }

    /// Reads `FIANCHETTO_CPU`'s value.
    #[cfg(feature = "std")]
    fn parse(s: &str) -> Option<Tier> {
        match s.trim().to_ascii_lowercase().as_str() {
            "baseline" | "x86-64" | "v1" => Some(Tier::Baseline),
            "x86-64-v2" | "v2" => Some(Tier::V2),
            "x86-64-v3" | "v3" => Some(Tier::V3),
            _ => None,
        }
    }
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How rook and bishop attacks are looked up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sliders {
    /// Magic multiplication: `(occupied & mask) * magic >> shift`.
    Magic,
    /// The BMI2 `PEXT` instruction: the mask's bits of `occupied`, packed.
    Pext,
}

impl Sliders {
    /// `magic` or `pext`.
    pub fn name(self) -> &'static str {
        match self {
            Sliders::Magic => "magic",
            Sliders::Pext => "pext",
        }
    }

    /// Reads `FIANCHETTO_SLIDERS`'s value.
    #[cfg(feature = "std")]
    fn parse(s: &str) -> Option<Sliders> {
        match s.trim().to_ascii_lowercase().as_str() {
            "magic" | "magics" => Some(Sliders::Magic),
            "pext" => Some(Sliders::Pext),
            _ => None,
        }
    }
}

impl fmt::Display for Sliders {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A request this CPU (or this build) cannot honour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CpuError {
    /// The tier asked for needs instructions this CPU lacks.
    Tier {
        /// What was asked for.
        wanted: Tier,
        /// The highest tier this CPU runs.
        supported: Tier,
    },
    /// `PEXT` was asked for on a CPU without BMI2, or in a build without
    /// the `pext` feature.
    NoPext,
}

impl fmt::Display for CpuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CpuError::Tier { wanted, supported } => write!(
                f,
                "this CPU does not run {wanted} code (the highest it runs is {supported})"
            ),
            CpuError::NoPext => f.write_str(if cfg!(feature = "pext") {
                "this CPU has no PEXT instruction (BMI2)"
            } else {
                "PEXT sliders are not compiled in (cargo feature `pext`)"
            }),
        }
    }
}

impl core::error::Error for CpuError {}

// The choice, cached in one byte: bit 7 says it has been made, bits 0–1 hold
// the tier, bit 2 says PEXT (only ever set with the v3 tier). Zero means
// "not yet": the next `level()` makes the choice.
const READY: u8 = 0x80;
const TIER_MASK: u8 = 0x03;
const PEXT: u8 = 0x04;
static STATE: AtomicU8 = AtomicU8::new(0);

/// What the CPU offers: its highest tier, whether it has BMI2, and whether
/// its `PEXT` is fast. (`PEXT` is used only in the v3 tier, which includes
/// BMI2.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Hardware {
    tier: Tier,
    bmi2: bool,
    fast_pext: bool,
}

#[cfg(target_arch = "x86_64")]
fn hardware() -> Hardware {
    // With the standard library: what the running CPU has. Without it (no
    // run-time detection in `core`): what the build targets.
    #[cfg(feature = "std")]
    use std::arch::is_x86_feature_detected as has;
    #[cfg(not(feature = "std"))]
    macro_rules! has {
        ($feature:tt) => {
            cfg!(target_feature = $feature)
        };
    }
    let v2 = has!("popcnt") && has!("sse3") && has!("ssse3") && has!("sse4.1") && has!("sse4.2");
    let v3 = v2
        && has!("avx")
        && has!("avx2")
        && has!("bmi1")
        && has!("bmi2")
        && has!("fma")
        && has!("lzcnt")
        && has!("movbe");
    let tier = if v3 {
        Tier::V3
    } else if v2 {
        Tier::V2
    } else {
        Tier::Baseline
    };
    let bmi2 = has!("bmi2");
    Hardware {
        tier,
        bmi2,
        fast_pext: bmi2 && !slow_pext(),
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn hardware() -> Hardware {
    Hardware {
        tier: Tier::Baseline,
        bmi2: false,
        fast_pext: false,
    }
}

/// Whether this is an AMD (or Hygon) CPU older than Zen 3: family 0x17
/// (Zen, Zen+, Zen 2; Hygon's Dhyana is 0x18) and before (Excavator, 0x15),
/// whose `PEXT` is microcoded: its time grows with the number of mask bits,
/// and slider lookups through it are several times slower than magics.
#[cfg(target_arch = "x86_64")]
fn slow_pext() -> bool {
    use core::arch::x86_64::__cpuid;
    // SAFETY: `cpuid` exists on every x86-64 CPU; leaves 0 and 1 always do.
    // (`__cpuid` became a safe function in later Rust versions.)
    #[allow(unused_unsafe)]
    let (vendor, signature) = unsafe {
        let l0 = __cpuid(0);
        let mut vendor = [0u8; 12];
        vendor[..4].copy_from_slice(&l0.ebx.to_le_bytes());
        vendor[4..8].copy_from_slice(&l0.edx.to_le_bytes());
        vendor[8..].copy_from_slice(&l0.ecx.to_le_bytes());
        (vendor, __cpuid(1).eax)
    };
    is_slow_pext(&vendor, family(signature))
}

/// The display family of a CPUID signature (leaf 1, EAX): the base family,
/// plus the extended family when the base family is 0xF.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
fn family(signature: u32) -> u32 {
    let base = (signature >> 8) & 0xf;
    if base == 0xf {
        base + ((signature >> 20) & 0xff)
    } else {
        base
    }
}

#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
fn is_slow_pext(vendor: &[u8; 12], family: u32) -> bool {
    (vendor == b"AuthenticAMD" || vendor == b"HygonGenuine") && family < 0x19
}

/// The choice for this hardware, given the requests (`None`: automatic).
fn choose(hw: Hardware, tier: Option<Tier>, sliders: Option<Sliders>) -> u8 {
    let tier = tier.map_or(hw.tier, |t| t.min(hw.tier));
    let pext = cfg!(feature = "pext")
        && tier == Tier::V3
        && match sliders {
            None => hw.fast_pext,
            Some(Sliders::Pext) => hw.bmi2,
            Some(Sliders::Magic) => false,
        };
    READY | tier as u8 | if pext { PEXT } else { 0 }
}

/// The choice from the environment variables, capped to what the CPU has.
#[cfg(feature = "std")]
fn env_choice() -> u8 {
    let var = |name| std::env::var(name).ok();
    choose(
        hardware(),
        var("FIANCHETTO_CPU").as_deref().and_then(Tier::parse),
        var("FIANCHETTO_SLIDERS")
            .as_deref()
            .and_then(Sliders::parse),
    )
}

/// The cached choice, made now if it was not yet.
#[inline]
fn state() -> u8 {
    let s = STATE.load(Relaxed);
    if s != 0 {
        return s;
    }
    init()
}

/// The choice made when nobody asked for one: the CPU's best, or with the
/// `cpu-env` feature, what the environment variables ask for.
fn automatic_choice() -> u8 {
    #[cfg(feature = "cpu-env")]
    return env_choice();
    #[cfg(not(feature = "cpu-env"))]
    choose(hardware(), None, None)
}

#[cold]
#[inline(never)]
fn init() -> u8 {
    let s = automatic_choice();
    // Another thread may have chosen (or been told) first: keep its choice.
    match STATE.compare_exchange(0, s, Relaxed, Relaxed) {
        Ok(_) => s,
        Err(current) => current,
    }
}

/// The tier the dispatched code runs at.
pub fn tier() -> Tier {
    Tier::from_bits(state())
}

/// The highest tier this CPU runs (what [`tier`] is unless capped).
pub fn supported_tier() -> Tier {
    hardware().tier
}

/// The slider method in use.
pub fn sliders() -> Sliders {
    if state() & PEXT != 0 {
        Sliders::Pext
    } else {
        Sliders::Magic
    }
}

/// Whether this CPU has the `PEXT` instruction (BMI2, in an x86-64-v3 CPU),
/// fast or not, and this build can use it: whether
/// [`set_sliders`]`(Sliders::Pext)` will succeed.
pub fn pext_available() -> bool {
    let hw = hardware();
    cfg!(feature = "pext") && hw.bmi2 && hw.tier == Tier::V3
}

fn update(f: impl Fn(u8) -> u8) {
    let mut s = state();
    while let Err(now) = STATE.compare_exchange_weak(s, f(s), Relaxed, Relaxed) {
        s = now;
    }
}

/// Runs the dispatched code at `tier` from now on (at most what the CPU has:
/// asking for more is an error, and nothing changes). Below v3 the sliders
/// are magics.
pub fn set_tier(tier: Tier) -> Result<(), CpuError> {
    let supported = supported_tier();
    if tier > supported {
        return Err(CpuError::Tier {
            wanted: tier,
            supported,
        });
    }
    update(|s| {
        let s = (s & !TIER_MASK) | tier as u8;
        if tier == Tier::V3 {
            s
        } else {
            s & !PEXT
        }
    });
    Ok(())
}

/// Looks sliders up with `method` from now on. `Sliders::Pext` is refused
/// where [`pext_available`] is false; it is honoured on a CPU whose `PEXT`
/// is slow, and sets the tier to v3.
pub fn set_sliders(method: Sliders) -> Result<(), CpuError> {
    match method {
        Sliders::Pext if !pext_available() => return Err(CpuError::NoPext),
        Sliders::Pext => update(|s| (s & !TIER_MASK) | Tier::V3 as u8 | PEXT),
        Sliders::Magic => update(|s| s & !PEXT),
    }
    Ok(())
}

/// Goes back to the automatic choice (the CPU's best; with the `cpu-env`
/// feature, capped by the environment variables).
pub fn reset() {
    STATE.store(automatic_choice(), Relaxed);
}

/// Applies `FIANCHETTO_CPU` and `FIANCHETTO_SLIDERS` (see the
/// [module documentation](self)), capped to what the CPU has; a variable
/// that is unset, or holds a value other than those listed, leaves that
/// part of the choice automatic. The `fianchetto` binary calls it at
/// start-up, so that a measurement or a test run can pick the path.
///
/// ```
/// use fianchetto_board::cpu;
///
/// cpu::apply_env_overrides();
/// assert!(cpu::tier() <= cpu::supported_tier());
/// ```
#[cfg(feature = "std")]
pub fn apply_env_overrides() {
    STATE.store(env_choice(), Relaxed);
}

/// A one-line description: `x86-64-v3, pext sliders`.
pub fn describe() -> String {
    format!("{}, {} sliders", tier(), sliders())
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Baseline {}
    impl Sealed for super::V2 {}
    impl Sealed for super::V3 {}
    impl Sealed for super::V3Pext {}
}

/// A tier and a slider method as a type: `run` executes a closure compiled
/// for the tier, `sliders` gives the lookup.
///
/// A value of `V2`, `V3` or `V3Pext` exists only when the CPU has that
/// level's instructions (they come from [`level`] alone), which is what makes
/// [`Level::run`] and [`Level::sliders`] sound. Generic code takes a
/// `L: Level` value and calls `level.run(#[inline(always)] || ...)` where its
/// recursion re-enters, so that every level of the recursion runs in the
/// tier's code; see [`with_level!`](crate::with_level).
pub trait Level: Copy + Send + Sync + fmt::Debug + sealed::Sealed + 'static {
    /// This level's tier.
    const TIER: Tier;
    /// This level's slider lookup.
    type Sliders: SliderLookup;
    /// Calls `f`, compiled with this tier's target features. `f` and what
    /// the compiler inlines into it get the tier's instructions: mark the
    /// closure and the hot functions it calls `#[inline(always)]`, since a
    /// function compiled on its own runs at the baseline.
    fn run<R>(self, f: impl FnOnce() -> R) -> R;
    /// The slider lookup for this level.
    fn sliders(self) -> Self::Sliders;
}

/// The x86-64 baseline (every architecture's own baseline elsewhere).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Baseline;

/// x86-64-v2 (obtained from [`level`] only on a CPU that has it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct V2(());

/// x86-64-v3 with magic sliders (obtained from [`level`] only on a CPU that
/// has it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct V3(());

/// x86-64-v3 with `PEXT` sliders (obtained from [`level`] only on a CPU that
/// has it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct V3Pext(());

impl Level for Baseline {
    const TIER: Tier = Tier::Baseline;
    type Sliders = MagicLookup;
    #[inline(always)]
    fn run<R>(self, f: impl FnOnce() -> R) -> R {
        run_baseline(f)
    }
    #[inline(always)]
    fn sliders(self) -> MagicLookup {
        MagicLookup
    }
}

// Each tier's `run` is a real function (not inlined into its callers), so
// that recursion through it compiles to one function per tier.
#[inline(never)]
fn run_baseline<R>(f: impl FnOnce() -> R) -> R {
    f()
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    #[target_feature(enable = "popcnt,sse3,ssse3,sse4.1,sse4.2")]
    #[inline(never)]
    pub(super) unsafe fn run_v2<R>(f: impl FnOnce() -> R) -> R {
        f()
    }

    #[target_feature(enable = "popcnt,sse3,ssse3,sse4.1,sse4.2,avx,avx2,bmi1,bmi2,fma,lzcnt,movbe")]
    #[inline(never)]
    pub(super) unsafe fn run_v3<R>(f: impl FnOnce() -> R) -> R {
        f()
    }
}

impl Level for V2 {
    const TIER: Tier = Tier::V2;
    type Sliders = MagicLookup;
    #[inline(always)]
    fn sliders(self) -> MagicLookup {
        MagicLookup
    }
    #[inline(always)]
    fn run<R>(self, f: impl FnOnce() -> R) -> R {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: a `V2` is only made by `level()` when the CPU was
            // detected to have every feature `run_v2` enables (`hardware`,
            // `choose`).
            unsafe { x86::run_v2(f) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            run_baseline(f)
        }
    }
}

impl Level for V3 {
    const TIER: Tier = Tier::V3;
    type Sliders = MagicLookup;
    #[inline(always)]
    fn sliders(self) -> MagicLookup {
        MagicLookup
    }
    #[inline(always)]
    fn run<R>(self, f: impl FnOnce() -> R) -> R {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: a `V3` is only made by `level()` when the CPU was
            // detected to have every feature `run_v3` enables (`hardware`,
            // `choose`).
            unsafe { x86::run_v3(f) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            run_baseline(f)
        }
    }
}

impl Level for V3Pext {
    const TIER: Tier = Tier::V3;
    type Sliders = PextLookup;
    #[inline(always)]
    fn sliders(self) -> PextLookup {
        // A `V3Pext` exists only where `pext_available()`: BMI2 is there.
        PextLookup::checked()
    }
    #[inline(always)]
    fn run<R>(self, f: impl FnOnce() -> R) -> R {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: a `V3Pext` is only made by `level()` when the CPU was
            // detected to have every feature `run_v3` enables (`hardware`,
            // `choose`).
            unsafe { x86::run_v3(f) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            run_baseline(f)
        }
    }
}

/// The current level as a [`Level`] value, for [`with_level!`](crate::with_level).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnyLevel {
    /// [`Tier::Baseline`].
    Baseline(Baseline),
    /// [`Tier::V2`].
    V2(V2),
    /// [`Tier::V3`], magic sliders.
    V3(V3),
    /// [`Tier::V3`], `PEXT` sliders.
    V3Pext(V3Pext),
}

/// The tier chosen for this process, as a value to dispatch on (one relaxed
/// load once the choice is made).
#[inline]
pub fn level() -> AnyLevel {
    let s = state();
    match Tier::from_bits(s) {
        Tier::V3 if s & PEXT != 0 => AnyLevel::V3Pext(V3Pext(())),
        Tier::V3 => AnyLevel::V3(V3(())),
        Tier::V2 => AnyLevel::V2(V2(())),
        Tier::Baseline => AnyLevel::Baseline(Baseline),
    }
}

/// Runs `f` compiled for the current tier: `f`'s body is compiled once per
/// tier and the one for this CPU runs. For a hot, non-recursive function
/// called often enough to matter, e.g. an evaluation: one branch per call.
/// Mark what `f` calls `#[inline(always)]`, or it runs at the baseline.
#[inline(always)]
pub fn multiversion<R>(f: impl FnOnce() -> R) -> R {
    match level() {
        AnyLevel::V3Pext(l) => l.run(f),
        AnyLevel::V3(l) => l.run(f),
        AnyLevel::V2(l) => l.run(f),
        AnyLevel::Baseline(l) => l.run(f),
    }
}

/// Compiles an expression once per level, with `$level` bound to the
/// level's [`Level`] value, and runs the current level's copy.
///
/// The expression typically calls a function generic over `L: Level` that
/// recurses through `level.run(..)`:
///
/// ```
/// use fianchetto_board::cpu::Level;
/// use fianchetto_board::with_level;
///
/// #[inline(always)]
/// fn bits<L: Level>(level: L, words: &[u64]) -> u32 {
///     match words {
///         [] => 0,
///         [w, rest @ ..] => w.count_ones() + level.run(|| bits(level, rest)),
///     }
/// }
///
/// let n = with_level!(level => bits(level, &[1, 3, 7]));
/// assert_eq!(n, 6);
/// ```
#[macro_export]
macro_rules! with_level {
    ($level:ident => $e:expr) => {
        match $crate::cpu::level() {
            $crate::cpu::AnyLevel::V3Pext($level) => $crate::cpu::Level::run(
                $level,
                #[inline(always)]
                || $e,
            ),
            $crate::cpu::AnyLevel::V3($level) => $crate::cpu::Level::run(
                $level,
                #[inline(always)]
                || $e,
            ),
            $crate::cpu::AnyLevel::V2($level) => $crate::cpu::Level::run(
                $level,
                #[inline(always)]
                || $e,
            ),
            $crate::cpu::AnyLevel::Baseline($level) => $crate::cpu::Level::run(
                $level,
                #[inline(always)]
                || $e,
            ),
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    const ZEN2: Hardware = Hardware {
        tier: Tier::V3,
        bmi2: true,
        fast_pext: false,
    };
    const INTEL: Hardware = Hardware {
        tier: Tier::V3,
        bmi2: true,
        fast_pext: true,
    };
    const OLD: Hardware = Hardware {
        tier: Tier::V2,
        bmi2: false,
        fast_pext: false,
    };

    fn decode(s: u8) -> (Tier, bool) {
        assert_ne!(s & READY, 0);
        (Tier::from_bits(s), s & PEXT != 0)
    }

    #[test]
    fn automatic_choice() {
        let pext = cfg!(feature = "pext");
        assert_eq!(decode(choose(INTEL, None, None)), (Tier::V3, pext));
        assert_eq!(decode(choose(ZEN2, None, None)), (Tier::V3, false));
        assert_eq!(decode(choose(OLD, None, None)), (Tier::V2, false));
    }

    #[test]
    fn pext_only_with_v3() {
        let pext = cfg!(feature = "pext");
        assert_eq!(
            decode(choose(INTEL, Some(Tier::V2), Some(Sliders::Pext))),
            (Tier::V2, false)
        );
        assert_eq!(
            decode(choose(INTEL, None, Some(Sliders::Pext))),
            (Tier::V3, pext)
        );
    }

    #[test]
    fn requests_are_capped_by_the_hardware() {
        let pext = cfg!(feature = "pext");
        assert_eq!(
            decode(choose(INTEL, Some(Tier::Baseline), Some(Sliders::Magic))),
            (Tier::Baseline, false)
        );
        assert_eq!(
            decode(choose(ZEN2, None, Some(Sliders::Pext))),
            (Tier::V3, pext)
        );
        assert_eq!(
            decode(choose(OLD, Some(Tier::V3), Some(Sliders::Pext))),
            (Tier::V2, false)
        );
    }

    #[test]
    fn slow_pext_vendors() {
        // Zen 2 (family 0x17), Zen 3 (0x19), Zen 5 (0x1A), Excavator (0x15),
        // Hygon Dhyana (0x18), an Intel Haswell (family 6).
        assert_eq!(family(0x0087_0f10), 0x17);
        assert_eq!(family(0x00a2_0f10), 0x19);
        assert_eq!(family(0x0000_0f00 | 0x0060_0000), 0x15);
        assert_eq!(family(0x0003_06c3), 6);
        assert!(is_slow_pext(b"AuthenticAMD", 0x17));
        assert!(is_slow_pext(b"AuthenticAMD", 0x15));
        assert!(is_slow_pext(b"HygonGenuine", 0x18));
        assert!(!is_slow_pext(b"AuthenticAMD", 0x19));
        assert!(!is_slow_pext(b"AuthenticAMD", 0x1a));
        assert!(!is_slow_pext(b"GenuineIntel", 6));
    }

    #[test]
    fn names_parse_back() {
        for t in [Tier::Baseline, Tier::V2, Tier::V3] {
            assert_eq!(Tier::parse(t.name()), Some(t));
        }
        for s in [Sliders::Magic, Sliders::Pext] {
            assert_eq!(Sliders::parse(s.name()), Some(s));
        }
        assert_eq!(Tier::parse("v4"), None);
        assert_eq!(Sliders::parse("rotated"), None);
    }

    #[test]
    fn every_level_runs_the_same_code_the_same_way() {
        fn sum<L: Level>(level: L, xs: &[u64]) -> u32 {
            match xs {
                [] => 0,
                [x, rest @ ..] => x.count_ones() + level.run(|| sum(level, rest)),
            }
        }
        let xs = [u64::MAX, 0x8000_0000_0000_0001, 0, 0xf0f0];
        assert_eq!(sum(Baseline, &xs), 74);
        // Only the levels this CPU has: their values come from `level()`.
        let supported = supported_tier();
        if supported >= Tier::V2 {
            assert_eq!(sum(V2(()), &xs), 74);
        }
        if supported >= Tier::V3 {
            assert_eq!(sum(V3(()), &xs), 74);
        }
        if pext_available() {
            assert_eq!(sum(V3Pext(()), &xs), 74);
        }
        assert_eq!(with_level!(l => sum(l, &xs)), 74);
        assert_eq!(
            multiversion(|| xs.iter().map(|x| x.count_ones()).sum::<u32>()),
            74
        );
    }
}
