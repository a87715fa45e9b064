//! Picking an evaluation by name on the command line: the names, the
//! choice and the network loading live in [`fianchetto_eval::select`]
//! (re-exported here); [`EvalSelect`] is their `--eval`, `--evalfile` and
//! `--weights` arguments.

use crate::commands::CommandError;
use fianchetto_eval::nnue::Network;
use std::path::PathBuf;
use std::sync::Arc;

pub use fianchetto_eval::select::{
    load_network, read_weights, EvalChoice, EvalName, LoadNetError, EMBEDDED,
};

/// The `--eval`, `--evalfile` and `--weights` arguments the subcommands
/// share.
///
/// `--eval` defaults to [`EvalName::default`], so `eval` is always `Some`;
/// a subcommand whose default evaluation depends on its other arguments
/// (`play`'s level, `tune spsa`'s parameters) removes the default with
/// `#[command(mut_arg("eval", |a| a.default_value(None::<&str>)))]` and
/// reads `None` as "not given".
#[derive(Debug, Clone, Default, clap::Args)]
pub struct EvalSelect {
    /// Evaluation: nnue, classical, buhochess or material.
    #[arg(long = "eval", value_enum, default_value = EvalName::default().name())]
    pub eval: Option<EvalName>,
    /// Network file for `--eval nnue` (default: the embedded network).
    #[arg(long)]
    pub evalfile: Option<PathBuf>,
    /// Weights for `--eval classical` or `buhochess` over the preset's own:
    /// `name value` lines, what `tune texel` writes.
    #[arg(long)]
    pub weights: Option<PathBuf>,
}

impl EvalSelect {
    /// The evaluation asked for: `--eval`, or the default one.
    pub fn name(&self) -> EvalName {
        self.eval.unwrap_or_default()
    }

    /// The chosen evaluation, loading the network if NNUE was asked for.
    pub fn choice(&self) -> Result<EvalChoice, CommandError> {
        match self.name() {
            EvalName::Nnue => EvalChoice::Nnue(
                load_network(self.evalfile.as_deref())
                    .map_err(|e| CommandError::Usage(e.to_string()))?,
            ),
            name => EvalChoice::new(name, &Arc::new(Network::zero())),
        }
        .with_weights_file(self.weights.as_deref())
        .map_err(|e| CommandError::Usage(e.to_string()))
    }
}
