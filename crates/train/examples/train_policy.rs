//! Trains a policy network on games files and writes it, its checkpoint
//! and its loss curve, printing each epoch's validation.
//!
//! ```text
//! cargo run --release -p fianchetto-train --example train_policy -- \
//!     OUT.policy GAMES... [--hidden N] [--epochs N] [--batch N] [--lr X] [--threads N]
//! ```
//!
//! (`fianchetto train --policy` is the full command line: resume, seed,
//! validation fraction, schedule.)

use fianchetto_train::policy::{self, PolicyData, PolicyTrainConfig};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut config = PolicyTrainConfig::default();
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--hidden" => config.hidden = value()?.parse()?,
            "--epochs" => config.epochs = value()?.parse()?,
            "--batch" => config.batch_size = value()?.parse()?,
            "--lr" => config.lr = value()?.parse()?,
            "--threads" => config.threads = value()?.parse()?,
            _ => files.push(PathBuf::from(arg)),
        }
    }
    if files.len() < 2 {
        return Err("usage: train_policy OUT.policy GAMES... [--hidden N] [--epochs N] [--batch N] [--lr X] [--threads N]".into());
    }
    let out = files.remove(0);
    config.validate()?;
    let data = PolicyData::load(&files)?;
    let mut trainer = policy::start(config, data, &out, false)?;
    println!(
        "{} training positions, {} held out",
        trainer.train_len(),
        trainer.val_len()
    );
    if let Some(u) = trainer.uniform_validation() {
        println!("uniform policy: loss {:.4}, top-1 {:.3}", u.loss, u.top1);
    }
    let stop = AtomicBool::new(false);
    policy::run(&mut trainer, &out, true, &stop, &mut |e| {
        let v = e.val.map_or(String::new(), |v| {
            format!(
                "val {:.4} (quantized {:.4}) top-1 {:.3} top-3 {:.3}",
                v.loss, v.quantized_loss, v.top1, v.top3
            )
        });
        println!(
            "epoch {} train {:.4} {v} {:.1} s",
            e.epoch, e.train_loss, e.seconds
        );
    })?;
    println!("wrote {}", out.display());
    Ok(())
}
