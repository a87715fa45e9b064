//! A progress bar on standard error that lets report lines through on
//! standard output (the tuners' per-epoch and per-iteration lines), so that
//! the engine's front ends need not know the progress-bar library.
//!
//! ```
//! use fianchetto_tune::progress::Progress;
//! let p = Progress::new(3, "epoch", false); // hidden: lines still print
//! p.line("epoch 1 error 0.08");
//! p.inc("error 0.08");
//! p.finish();
//! ```

use indicatif::{ProgressBar, ProgressStyle};

/// A bar counting `len` steps of `unit`, or nothing when hidden.
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar of `len` steps named `unit`; `visible` false draws nothing.
    pub fn new(len: u64, unit: &str, visible: bool) -> Progress {
        if !visible {
            return Progress {
                bar: ProgressBar::hidden(),
            };
        }
        let bar = ProgressBar::new(len);
        bar.set_style(
            ProgressStyle::with_template(&format!(
                "{{bar:40}} {unit} {{pos}}/{{len}} ETA {{eta}} {{msg}}"
            ))
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        Progress { bar }
    }

    /// Prints `text` on standard output, above the bar.
    pub fn line(&self, text: &str) {
        self.bar.suspend(|| println!("{text}"));
    }

    /// One step done; `message` shows beside the bar.
    pub fn inc(&self, message: &str) {
        self.bar.set_message(message.to_string());
        self.bar.inc(1);
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
