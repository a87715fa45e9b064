//! `fianchetto spsa-params`: the tunable parameters in OpenBench's SPSA
//! format, one `name, int, value, min, max, c_end, r_end` line each.
//!
//! Today the tunables are the classical evaluation's weights (every
//! [`Params`] weight by name, the phase weights excepted); the search's
//! tunables will be listed too once the search crate has them (they
//! implement the same [`Tunable`] trait). The ranges and step sizes are
//! [`TunableSpec::around`]'s defaults: edit the file before a run. `tune
//! spsa --params` reads the output back.

use super::CommandError;
use crate::say;
use fianchetto_eval::trace::is_fixed;
use fianchetto_eval::{Params, Tunable, TunableSpec};
use fianchetto_tune::texel::select_weights;
use std::path::PathBuf;

/// Arguments of `fianchetto spsa-params`.
#[derive(Debug, clap::Args)]
pub struct SpsaParamsArgs {
    /// Only these weights: names, groups (`psqt`) or prefixes (`mobility_*`), comma-separated.
    #[arg(long)]
    pub only: Option<String>,
    /// Weights to start from (`name value` lines over the classical weights).
    #[arg(long)]
    pub init: Option<PathBuf>,
}

/// Prints the lines.
pub fn run(args: &SpsaParamsArgs) -> Result<(), CommandError> {
    let mut params = Params::classical();
    if let Some(path) = &args.init {
        let text = std::fs::read_to_string(path)
            .map_err(|e| CommandError::Usage(format!("{}: {e}", path.display())))?;
        params = Params::from_text(params, &text)
            .map_err(|e| CommandError::Usage(format!("{}: {e}", path.display())))?;
    }
    let mask = match &args.only {
        Some(list) => select_weights(list)
            .map_err(|n| CommandError::Usage(format!("--only: no weight or group `{n}`")))?,
        None => vec![true; Params::LEN],
    };
    for (i, name) in params.names().into_iter().enumerate() {
        if !mask[i] || is_fixed(i) {
            continue;
        }
        let spec = params.spec(&name).unwrap_or_else(|| TunableSpec::around(0));
        say!(
            "{name}, int, {}, {}, {}, {}, {}",
            spec.value,
            spec.min,
            spec.max,
            spec.c_end,
            spec.r_end
        );
    }
    Ok(())
}
