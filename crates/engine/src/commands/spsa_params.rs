//! `fianchetto spsa-params`: the tunable parameters in OpenBench's SPSA
//! format, one `name, int, value, min, max, c_end, r_end` line each.
//!
//! The tunables are the search's ([`SearchParams`], with the ranges and
//! steps documented beside each one), then the classical evaluation's
//! weights (every [`Params`] weight by name, the phase weights excepted,
//! with [`TunableSpec::around`]'s ranges: edit the file before a run).
//! Both implement [`Tunable`]. `tune spsa --params` reads the output back,
//! and every search tunable is also a UCI option of the same name, as
//! OpenBench's SPSA expects.

use super::CommandError;
use crate::say;
use fianchetto_eval::trace::is_fixed;
use fianchetto_eval::{Params, Tunable, TunableSpec};
use fianchetto_search::pvs::SearchParams;
use fianchetto_tune::texel::select_weights;
use std::path::PathBuf;

/// Arguments of `fianchetto spsa-params`.
#[derive(Debug, clap::Args)]
pub struct SpsaParamsArgs {
    /// Only these: search tunable names, `search` (all of them), evaluation
    /// weight names, groups (`psqt`) or prefixes (`mobility_*`), comma-separated.
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
    // Split --only into the search's names and the evaluation's.
    let (search_names, eval_list): (Vec<&str>, Vec<&str>) = match &args.only {
        Some(list) => list
            .split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .partition(|n| *n == "search" || SearchParams::info(n).is_some()),
        None => (vec!["search"], Vec::new()),
    };
    let search = SearchParams::default();
    for e in SearchParams::ENTRIES {
        if !search_names.iter().any(|n| *n == "search" || *n == e.name) {
            continue;
        }
        let spec = search
            .spec(e.name)
            .unwrap_or_else(|| TunableSpec::around(e.default));
        say!(
            "{}, int, {}, {}, {}, {}, {}",
            e.name,
            spec.value,
            spec.min,
            spec.max,
            spec.c_end,
            spec.r_end
        );
    }
    let mask = match &args.only {
        Some(_) if eval_list.is_empty() => vec![false; Params::LEN],
        Some(_) => select_weights(&eval_list.join(","))
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
