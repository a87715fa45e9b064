//! The flags of the subcommands that search, declared once each and
//! flattened where they apply: `--threads` ([`ThreadsFlag`]), `--hash`
//! ([`HashFlag`]), `--backend` ([`BackendFlag`]), `--eval`/`--evalfile`/
//! `--weights` ([`EvalSelect`]) and `--enable`/`--disable` ([`SwitchArgs`]).
//! [`SearchFlags`] is all of them, for the subcommands that search one
//! position with a configured engine (`analyse`, `bench`).
//!
//! Each flag has one default. A subcommand whose runs depend on another
//! default (`datagen`'s 1 MB per worker, `tune spsa`'s 8 MB), or whose
//! `--threads` means games played at once, overrides the default or the
//! help on its own `Args` struct with `#[command(mut_arg("hash", …))]`
//! and says why in its `--help`. `perft` keeps its own `--hash` and
//! `--threads`: its table and threads count moves, they do not search.

use super::CommandError;
use crate::backend::Backend;
use fianchetto_search::pvs::PvsConfig;

pub use crate::evals::EvalSelect;

/// `--threads`: search threads, 1 by default.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct ThreadsFlag {
    /// Search threads (more than one makes node counts vary run to run).
    #[arg(id = "threads", long = "threads", value_name = "THREADS", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub count: u32,
}

/// `--hash`: the transposition table's size in MB, 16 by default.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct HashFlag {
    /// Transposition table size in MB (PVS).
    #[arg(id = "hash", long = "hash", value_name = "HASH", default_value_t = 16, value_parser = clap::value_parser!(u32).range(0..=65_536))]
    pub mb: u32,
}

/// `--backend`: the board representation, the bitboards by default.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct BackendFlag {
    /// Board backend.
    #[arg(id = "backend", long = "backend", value_name = "BACKEND", value_enum, default_value_t = Backend::Bitboard)]
    pub kind: Backend,
}

/// `--threads`, `--hash`, `--backend`, `--eval`/`--evalfile`/`--weights` and
/// `--enable`/`--disable`, with one default each: 1 thread, 16 MB, the
/// bitboard backend, the default evaluation, no switch changed. `bench`'s
/// node signature is measured at these defaults.
#[derive(Debug, Clone, clap::Args)]
pub struct SearchFlags {
    /// `--threads`.
    #[command(flatten)]
    pub threads: ThreadsFlag,
    /// `--hash`.
    #[command(flatten)]
    pub hash: HashFlag,
    /// The evaluation.
    #[command(flatten)]
    pub eval: EvalSelect,
    /// `--backend`.
    #[command(flatten)]
    pub backend: BackendFlag,
    /// PVS features to switch on or off.
    #[command(flatten)]
    pub switches: SwitchArgs,
}

impl SearchFlags {
    /// The PVS settings these flags give: threads, hash, then the
    /// switches (`--enable` first, then `--disable`).
    pub fn pvs_config(&self) -> Result<PvsConfig, CommandError> {
        let mut config = PvsConfig {
            threads: self.threads.count as usize,
            hash_mb: self.hash.mb as usize,
            ..PvsConfig::default()
        };
        self.switches.apply(&mut config)?;
        Ok(config)
    }
}

/// `--enable` and `--disable`: PVS's feature switches by name, from their
/// one declaration.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct SwitchArgs {
    /// PVS features to switch on, comma-separated (`see-pins,probcut-fitted`): those
    /// off by default (`--help` lists the names).
    #[arg(long, default_value = "", long_help = switch_help("on", "`see-pins,probcut-fitted`"))]
    pub enable: String,
    /// PVS features to switch off, comma-separated (`null,lmr`), or `all`
    /// for plain alpha-beta (`--help` lists the names).
    #[arg(long, default_value = "", long_help = switch_help("off", "`null,lmr`, or `all` for plain alpha-beta: no table, pruning, reductions, extensions or quiescence"))]
    pub disable: String,
}

impl SwitchArgs {
    /// Applies the lists to `config`: first `--enable`, then `--disable`.
    pub fn apply(&self, config: &mut PvsConfig) -> Result<(), CommandError> {
        config
            .enable(&self.enable)
            .and_then(|()| config.disable(&self.disable))
            .map_err(|e| CommandError::Usage(e.to_string()))
    }
}

/// The long help of `--enable` or `--disable`: every switch of
/// [`PvsConfig`], from its one declaration.
fn switch_help(on: &str, example: &str) -> String {
    format!(
        "PVS features to switch {on}, comma-separated ({example}). The names (those \
         marked off are off by default):\n\n{}",
        PvsConfig::features_help()
    )
}
