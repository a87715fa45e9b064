//! The run file: a training run's whole configuration as `key = value`
//! lines, written beside the network (`NET.run`) so that
//! `fianchetto train --config NET.run` runs it again.
//!
//! ```text
//! # written by fianchetto train; `fianchetto train --config FILE` runs it again
//! out = s8.nnue
//! data = nn-1k-s31.bin
//! data = nn-1k-s32.bin
//! hidden = 1024
//! king-buckets = mirrored-4
//! output-buckets = 8
//! epochs = 10
//! …
//! ```
//!
//! The keys are the command line's option names, declared once in
//! [`SETTINGS`]; `data` may repeat, `#` starts a comment, blank lines are
//! ignored. A file need not give every key: the command line's options and
//! then the defaults fill the rest. The checkpoint stores the same text,
//! so what a run was made with is read back by the same code.

use crate::{ConfigRequest, TrainConfig};
use fianchetto_eval::nnue::KingBuckets;
use std::path::{Path, PathBuf};

/// Why a run file was refused.
#[derive(Debug, thiserror::Error)]
pub enum RunFileError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// A line that is not a known `key = value`.
    #[error("{path}:{line}: {message}")]
    Line {
        /// The file (`(text)` for text given directly).
        path: PathBuf,
        /// The line number, from 1.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
}

/// One setting of a run: its key (the command line's option name), how it
/// is written from a configuration, read into a request, and whether a
/// request gives it.
pub struct Setting {
    /// The key.
    pub key: &'static str,
    /// The setting of a configuration as text.
    pub write: fn(&TrainConfig) -> String,
    /// Reads the text into a request, or says what is wrong with it.
    pub read: fn(&mut ConfigRequest, &str) -> Result<(), String>,
    /// Whether a request gives the setting.
    pub given: fn(&ConfigRequest) -> bool,
}

fn number<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{what} {text:?} is not a valid number"))
}

/// The king-bucket layout as text: its name, or `custom:MIRROR:MAP` (the
/// mirror flag 0 or 1 and the 64 buckets, comma-separated).
fn buckets_text(b: &KingBuckets) -> String {
    match b.name() {
        Some(name) => name.to_string(),
        None => {
            let map: Vec<String> = b.map.iter().map(u8::to_string).collect();
            format!("custom:{}:{}", u8::from(b.mirror), map.join(","))
        }
    }
}

fn parse_buckets(text: &str) -> Result<KingBuckets, String> {
    if let Some(b) = KingBuckets::named(text) {
        return Ok(b);
    }
    let names: Vec<&str> = KingBuckets::NAMED.iter().map(|(n, _)| *n).collect();
    let bad = || {
        format!(
            "king buckets {text:?}: expected {} or custom:MIRROR:64 buckets",
            names.join(", ")
        )
    };
    let rest = text.strip_prefix("custom:").ok_or_else(bad)?;
    let (mirror, map) = rest.split_once(':').ok_or_else(bad)?;
    let mirror = match mirror {
        "0" => false,
        "1" => true,
        _ => return Err(bad()),
    };
    let values: Vec<u8> = map
        .split(',')
        .map(|v| v.trim().parse().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    let map: [u8; 64] = values.try_into().map_err(|_| bad())?;
    Ok(KingBuckets { map, mirror })
}

fn parse_bool(text: &str) -> Result<bool, String> {
    match text {
        "true" | "yes" | "1" => Ok(true),
        "false" | "no" | "0" => Ok(false),
        _ => Err(format!("{text:?} is not true or false")),
    }
}

/// Every setting. A new one is an entry here (and its field in
/// [`TrainConfig`] and [`ConfigRequest`]).
pub const SETTINGS: &[Setting] = &[
    Setting {
        key: "hidden",
        write: |c| c.arch.hidden.to_string(),
        read: |r, t| {
            r.hidden = Some(number(t, "hidden size")?);
            Ok(())
        },
        given: |r| r.hidden.is_some(),
    },
    Setting {
        key: "king-buckets",
        write: |c| buckets_text(&c.arch.king_buckets),
        read: |r, t| {
            r.king_buckets = Some(parse_buckets(t)?);
            Ok(())
        },
        given: |r| r.king_buckets.is_some(),
    },
    Setting {
        key: "output-buckets",
        write: |c| c.arch.output_buckets.count.to_string(),
        read: |r, t| {
            r.output_buckets = Some(number(t, "output buckets")?);
            Ok(())
        },
        given: |r| r.output_buckets.is_some(),
    },
    Setting {
        key: "epochs",
        write: |c| c.epochs.to_string(),
        read: |r, t| {
            r.epochs = Some(number(t, "epochs")?);
            Ok(())
        },
        given: |r| r.epochs.is_some(),
    },
    Setting {
        key: "batch",
        write: |c| c.batch_size.to_string(),
        read: |r, t| {
            r.batch_size = Some(number(t, "batch size")?);
            Ok(())
        },
        given: |r| r.batch_size.is_some(),
    },
    Setting {
        key: "lr",
        write: |c| c.lr.to_string(),
        read: |r, t| {
            r.lr = Some(number(t, "learning rate")?);
            Ok(())
        },
        given: |r| r.lr.is_some(),
    },
    Setting {
        key: "lr-schedule",
        write: |c| c.lr_schedule.to_string(),
        read: |r, t| {
            r.lr_schedule = Some(t.parse()?);
            Ok(())
        },
        given: |r| r.lr_schedule.is_some(),
    },
    Setting {
        key: "warmup",
        write: |c| c.warmup.to_string(),
        read: |r, t| {
            r.warmup = Some(number(t, "warm-up steps")?);
            Ok(())
        },
        given: |r| r.warmup.is_some(),
    },
    Setting {
        key: "weight-decay",
        write: |c| c.weight_decay.to_string(),
        read: |r, t| {
            r.weight_decay = Some(number(t, "weight decay")?);
            Ok(())
        },
        given: |r| r.weight_decay.is_some(),
    },
    Setting {
        key: "wdl",
        write: |c| c.wdl.to_string(),
        read: |r, t| {
            r.wdl = Some(number(t, "wdl weight")?);
            Ok(())
        },
        given: |r| r.wdl.is_some(),
    },
    Setting {
        key: "wdl-end",
        write: |c| c.wdl_end.to_string(),
        read: |r, t| {
            r.wdl_end = Some(number(t, "final wdl weight")?);
            Ok(())
        },
        given: |r| r.wdl_end.is_some(),
    },
    Setting {
        key: "val-fraction",
        write: |c| c.val_fraction.to_string(),
        read: |r, t| {
            r.val_fraction = Some(number(t, "validation fraction")?);
            Ok(())
        },
        given: |r| r.val_fraction.is_some(),
    },
    Setting {
        key: "seed",
        write: |c| c.seed.to_string(),
        read: |r, t| {
            r.seed = Some(number(t, "seed")?);
            Ok(())
        },
        given: |r| r.seed.is_some(),
    },
    Setting {
        key: "threads",
        write: |c| c.threads.to_string(),
        read: |r, t| {
            r.threads = Some(number(t, "threads")?);
            Ok(())
        },
        given: |r| r.threads.is_some(),
    },
    Setting {
        key: "mirror",
        write: |c| c.mirror.to_string(),
        read: |r, t| {
            r.mirror = Some(parse_bool(t)?);
            Ok(())
        },
        given: |r| r.mirror.is_some(),
    },
    Setting {
        key: "chunk",
        write: |c| c.chunk.to_string(),
        read: |r, t| {
            r.chunk = Some(number(t, "chunk")?);
            Ok(())
        },
        given: |r| r.chunk.is_some(),
    },
    Setting {
        key: "window",
        write: |c| c.window.to_string(),
        read: |r, t| {
            r.window = Some(number(t, "window")?);
            Ok(())
        },
        given: |r| r.window.is_some(),
    },
    Setting {
        key: "filter",
        write: |c| c.filter.to_string(),
        read: |r, t| {
            r.filter = Some(
                t.parse()
                    .map_err(|e: fianchetto_data::games::FilterError| e.to_string())?,
            );
            Ok(())
        },
        given: |r| r.filter.is_some(),
    },
    Setting {
        key: "init",
        write: |c| {
            c.init
                .as_ref()
                .map_or_else(String::new, |p| p.display().to_string())
        },
        read: |r, t| {
            r.init = Some(PathBuf::from(t));
            Ok(())
        },
        given: |r| r.init.is_some(),
    },
];

/// Every setting of `config` as (key, value text), in [`SETTINGS`] order.
pub(crate) fn settings(config: &TrainConfig) -> Vec<(&'static str, String)> {
    SETTINGS
        .iter()
        .map(|s| (s.key, (s.write)(config)))
        .collect()
}

/// A run: the data files, the network file and the settings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunFile {
    /// The data files, in order (`data = …`, repeated).
    pub data: Vec<PathBuf>,
    /// The network file (`out = …`).
    pub out: Option<PathBuf>,
    /// The settings the file gives.
    pub request: ConfigRequest,
}

impl RunFile {
    /// The run file of a run with `config` on `data` writing `out`.
    pub fn of(config: &TrainConfig, data: &[String], out: &Path) -> RunFile {
        RunFile {
            data: data.iter().map(PathBuf::from).collect(),
            out: Some(out.to_path_buf()),
            request: ConfigRequest::from_config(config),
        }
    }

    /// The file's text. Settings not given are left out.
    pub fn to_text(&self) -> String {
        let mut text = String::from(
            "# written by fianchetto train; `fianchetto train --config FILE` runs it again\n",
        );
        if let Some(out) = &self.out {
            text.push_str(&format!("out = {}\n", out.display()));
        }
        for d in &self.data {
            text.push_str(&format!("data = {}\n", d.display()));
        }
        // The given settings (over the defaults, which they replace).
        let full = self.request.over(&TrainConfig::default());
        for s in SETTINGS.iter().filter(|s| (s.given)(&self.request)) {
            text.push_str(&format!("{} = {}\n", s.key, (s.write)(&full)));
        }
        text
    }

    /// Reads a run file's text; errors name `path` and the line.
    pub fn parse(text: &str, path: &Path) -> Result<RunFile, RunFileError> {
        let mut run = RunFile::default();
        for (n, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let fail = |message: String| RunFileError::Line {
                path: path.to_path_buf(),
                line: n + 1,
                message,
            };
            let Some((key, value)) = line.split_once('=') else {
                return Err(fail(format!("expected `key = value`, found {line:?}")));
            };
            let (key, value) = (key.trim(), value.trim());
            match key {
                "data" => run.data.push(PathBuf::from(value)),
                "out" => run.out = Some(PathBuf::from(value)),
                _ => {
                    let Some(setting) = SETTINGS.iter().find(|s| s.key == key) else {
                        let keys: Vec<&str> = SETTINGS.iter().map(|s| s.key).collect();
                        return Err(fail(format!(
                            "unknown setting {key:?}; expected data, out, {}",
                            keys.join(", ")
                        )));
                    };
                    (setting.read)(&mut run.request, value).map_err(fail)?;
                }
            }
        }
        Ok(run)
    }

    /// Reads the run file `path`.
    pub fn read(path: &Path) -> Result<RunFile, RunFileError> {
        let text = std::fs::read_to_string(path).map_err(|source| RunFileError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        RunFile::parse(&text, path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LrSchedule;
    use fianchetto_eval::nnue::Arch;

    #[test]
    fn a_configuration_survives_its_text() {
        let config = TrainConfig {
            arch: Arch::plain(1024)
                .with_king_buckets(KingBuckets::MIRRORED_4)
                .with_output_buckets(8),
            epochs: 12,
            lr: 0.0007,
            lr_schedule: LrSchedule::Steps {
                every: 3,
                gamma: 0.3,
            },
            warmup: 200,
            wdl: 0.1,
            wdl_end: 0.4,
            mirror: false,
            chunk: 12345,
            window: 3,
            ..TrainConfig::default()
        };
        let run = RunFile::of(
            &config,
            &["a.bin".into(), "b c.bin".into()],
            Path::new("n.nnue"),
        );
        let text = run.to_text();
        assert!(text.contains("king-buckets = mirrored-4\n"), "{text}");
        assert!(text.contains("lr-schedule = steps:3:0.3\n"), "{text}");
        let back = RunFile::parse(&text, Path::new("n.nnue.run")).unwrap();
        assert_eq!(back, run);
        assert_eq!(back.request.fresh().unwrap(), config);
        // A custom bucket map too.
        let mut custom = KingBuckets::MIRRORED_4;
        custom.map[0] = 3;
        let config = TrainConfig {
            arch: config.arch.with_king_buckets(custom),
            ..config
        };
        let run = RunFile::of(&config, &[], Path::new("n.nnue"));
        let back = RunFile::parse(&run.to_text(), Path::new("x")).unwrap();
        assert_eq!(back.request.fresh().unwrap(), config);
    }

    #[test]
    fn partial_files_and_bad_lines() {
        let run = RunFile::parse(
            "# a comment\n\nhidden = 64   # trailing comment\ndata = x.bin\n",
            Path::new("r"),
        )
        .unwrap();
        assert_eq!(run.request.hidden, Some(64));
        assert_eq!(run.request.epochs, None);
        assert_eq!(run.data, [PathBuf::from("x.bin")]);
        assert_eq!(run.to_text().lines().count(), 3);
        for (text, want) in [
            ("hidden 64", "r:1: expected `key = value`"),
            ("\nspeed = 3", "r:2: unknown setting \"speed\""),
            (
                "hidden = lots",
                "hidden size \"lots\" is not a valid number",
            ),
            ("mirror = maybe", "\"maybe\" is not true or false"),
            ("king-buckets = 7", "king buckets \"7\": expected plain"),
            ("lr-schedule = linear", "learning-rate schedule \"linear\""),
        ] {
            let message = RunFile::parse(text, Path::new("r"))
                .expect_err(text)
                .to_string();
            assert!(message.contains(want), "{message}");
        }
    }
}
