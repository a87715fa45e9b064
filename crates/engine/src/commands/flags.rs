//! The flags of every subcommand that searches one position with a
//! configured engine (`analyse`, `bench`), declared once: hash, threads,
//! backend, the evaluation and its network file, and the PVS switches.

use super::CommandError;
use crate::backend::Backend;
use crate::evals::EvalSelect;
use fianchetto_search::pvs::PvsConfig;

/// `--threads`, `--hash`, `--backend`, `--eval`/`--evalfile`/`--weights` and
/// `--enable`/`--disable`, with one default each: 1 thread, 16 MB, the
/// bitboard backend, the default evaluation, no switch changed. `bench`'s
/// node signature is measured at these defaults.
#[derive(Debug, Clone, clap::Args)]
pub struct SearchFlags {
    /// Search threads (more than one makes node counts vary run to run).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Transposition table size in MB (PVS).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(0..=65_536))]
    pub hash: u32,
    /// The evaluation.
    #[command(flatten)]
    pub eval: EvalSelect,
    /// Board backend.
    #[arg(long, value_enum, default_value_t = Backend::Bitboard)]
    pub backend: Backend,
    /// PVS features to switch on or off.
    #[command(flatten)]
    pub switches: SwitchArgs,
}

impl SearchFlags {
    /// The PVS settings these flags give: threads, hash, then the
    /// switches (`--enable` first, then `--disable`).
    pub fn pvs_config(&self) -> Result<PvsConfig, CommandError> {
        let mut config = PvsConfig {
            threads: self.threads as usize,
            hash_mb: self.hash as usize,
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
    /// PVS features to switch on, comma-separated (`see-pins,tm-signals`): those
    /// off by default (`--help` lists the names).
    #[arg(long, default_value = "", long_help = switch_help("on", "`see-pins,tm-signals`"))]
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
