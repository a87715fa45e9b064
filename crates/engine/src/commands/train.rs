//! `fianchetto train`: the NNUE trainer (fianchetto-tune) on marlinformat data.

use super::CommandError;
use crate::say;
use fianchetto_board::{Bitboards, Board};
use fianchetto_eval::{Classical, Evaluator};
use fianchetto_tune::train::{self, ConfigRequest, RunOutcome, TrainData, TrainError};
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Arguments of `fianchetto train`. Settings left out take their defaults
/// (shown), or on `--resume` the checkpoint's.
#[derive(Debug, clap::Args)]
pub struct TrainArgs {
    /// Training data: marlinformat files (32 bytes a position), all held in memory.
    #[arg(long, required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// The network file to write after every epoch; the checkpoint goes to
    /// NET.ckpt and the loss curve to NET.svg.
    #[arg(long)]
    pub out: PathBuf,
    /// Hidden neurons per perspective, a multiple of 16 [default: 256].
    #[arg(long)]
    pub hidden: Option<usize>,
    /// Epochs (passes over the data); on --resume, raise it to train longer [default: 10].
    #[arg(long)]
    pub epochs: Option<u32>,
    /// Positions per optimiser step [default: 16384].
    #[arg(long)]
    pub batch: Option<usize>,
    /// Starting learning rate; cosine-annealed to a tenth of it over the run [default: 0.001].
    #[arg(long)]
    pub lr: Option<f32>,
    /// Weight of the game result in the target (0: search score only) [default: 0.3].
    #[arg(long)]
    pub wdl: Option<f32>,
    /// Threads sharing each batch [default: 1].
    #[arg(long)]
    pub threads: Option<usize>,
    /// Fraction of the positions held out for validation [default: 0.01].
    #[arg(long)]
    pub val_fraction: Option<f32>,
    /// Seed of the initial weights, the validation split and the shuffles [default: 0].
    #[arg(long)]
    pub seed: Option<u64>,
    /// Do not also show positions without castling rights mirrored left to
    /// right (by default half of them are, each epoch).
    #[arg(long)]
    pub no_mirror: bool,
    /// Continue the run saved in NET.ckpt (same data, same settings).
    #[arg(long)]
    pub resume: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

fn usage(e: TrainError) -> CommandError {
    CommandError::Usage(e.to_string())
}

/// Runs `train` until its epochs are done or Ctrl-C (which stops at the end
/// of the batch in progress, after saving everything).
pub fn run(args: &TrainArgs) -> Result<(), CommandError> {
    let request = ConfigRequest {
        hidden: args.hidden,
        epochs: args.epochs,
        batch_size: args.batch,
        lr: args.lr,
        wdl: args.wdl,
        val_fraction: args.val_fraction,
        seed: args.seed,
        threads: args.threads,
        mirror: args.no_mirror.then_some(false),
    };
    // Settings are checked before the (possibly long) load.
    if !args.resume {
        request.fresh().map_err(usage)?;
    }
    let data = TrainData::load(&args.data).map_err(usage)?;
    let mut trainer = train::start(&request, data, &args.out, args.resume).map_err(usage)?;
    let c = trainer.config().clone();
    say!(
        "training (768 -> {})x2 -> 1 on {} positions ({} held out) | epochs {} batch {} lr {} wdl {} threads {} seed {} mirror {}",
        c.hidden,
        trainer.train_len(),
        trainer.val_len(),
        c.epochs,
        c.batch_size,
        c.lr,
        c.wdl,
        c.threads,
        c.seed,
        c.mirror
    );
    let val = trainer.validation_indices().to_vec();
    if !val.is_empty() {
        say!(
            "validation loss of the best constant prediction (a baseline): {:.6}",
            trainer.constant_loss(&val)
        );
        let mut classical = Classical::default();
        let loss = trainer.baseline_loss(&val, |record| {
            let board = Bitboards::from_setup(&record.unpack().ok()?.setup).ok()?;
            Some(classical.evaluate(&board).0 as f32)
        });
        say!("validation loss of the classical evaluation (static, no search): {loss:.6}");
    }
    if args.resume {
        say!(
            "resuming after {} epochs and {} positions",
            trainer.epochs_done(),
            trainer.epoch_progress()
        );
    }

    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let _ = ctrlc::set_handler(move || {
        eprintln!("\nstopping at the end of this batch (--resume continues from the checkpoint)");
        flag.store(true, Ordering::Relaxed);
    });
    let outcome = train::run(&mut trainer, &args.out, !args.quiet, &stop, &mut |e| {
        let val = e
            .val_loss
            .map_or_else(|| "-".to_string(), |v| format!("{v:.6}"));
        let line = format!(
            "epoch {:>3}  train {:.6}  val {}  {:.0} positions/s",
            e.epoch,
            e.train_loss,
            val,
            e.positions_per_second()
        );
        // A closed standard output must not stop the training.
        let _ = writeln!(std::io::stdout().lock(), "{line}");
    })
    .map_err(usage)?;
    let out = args.out.display();
    match outcome {
        RunOutcome::Finished => say!(
            "wrote {out} ({} epochs), {} and {}",
            trainer.epochs_done(),
            train::checkpoint_path(&args.out).display(),
            train::plot_path(&args.out).display()
        ),
        RunOutcome::Interrupted {
            epochs_done,
            positions,
        } => say!(
            "stopped after {epochs_done} epochs and {positions} positions; saved {} and {out}: --resume continues",
            train::checkpoint_path(&args.out).display()
        ),
    }
    Ok(())
}
