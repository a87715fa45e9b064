//! Evaluations by name: the names a user can type (`--eval`, the UCI
//! `Evaluation` option, the web app's menu), a chosen evaluation ready to
//! build evaluators from, loading a network, and [`with_evaluator!`](crate::with_evaluator)
//! to run generic code on the chosen evaluator.
//!
//! ```
//! use fianchetto_eval::select::{load_network, EvalChoice, EvalName};
//! let net = load_network(None).unwrap();
//! let choice = EvalChoice::new(EvalName::parse("classical").unwrap(), &net);
//! let name = fianchetto_eval::with_evaluator!(&choice, e => {
//!     let _evaluator = e;
//!     choice.name()
//! });
//! assert_eq!(name, "classical");
//! ```

use crate::nnue::{embedded_network, Network};
use crate::{Params, ParamsError, Preset, PresetEvaluator};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The evaluations a user can name (`--eval`, the UCI `Evaluation` option).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum EvalName {
    /// The neural network (the embedded one unless a file is given).
    #[default]
    Nnue,
    /// The project's tapered hand-crafted evaluation.
    Classical,
    /// Lugo's BuhoChess evaluation.
    Buhochess,
    /// Material only.
    Material,
}

impl EvalName {
    /// Every evaluation, in the order the UCI option lists them.
    pub const ALL: [EvalName; 4] = [
        EvalName::Nnue,
        EvalName::Classical,
        EvalName::Buhochess,
        EvalName::Material,
    ];

    /// The name users type.
    pub fn name(self) -> &'static str {
        match self {
            EvalName::Nnue => "nnue",
            EvalName::Classical => "classical",
            EvalName::Buhochess => "buhochess",
            EvalName::Material => "material",
        }
    }

    /// Every evaluation's name, comma-separated: what an error for an
    /// unknown name lists.
    pub fn names() -> String {
        EvalName::ALL.map(EvalName::name).join(", ")
    }

    /// The evaluation called `name` (case-insensitive).
    pub fn parse(name: &str) -> Option<EvalName> {
        EvalName::ALL
            .into_iter()
            .find(|e| e.name().eq_ignore_ascii_case(name.trim()))
    }

    /// [`EvalName::parse`], or the error every front end shows for a name
    /// it does not know (listing the names there are).
    ///
    /// ```
    /// use fianchetto_eval::select::EvalName;
    /// assert_eq!(EvalName::named("nnue"), Ok(EvalName::Nnue));
    /// assert_eq!(EvalName::named("vibes").unwrap_err().to_string(),
    ///            "unknown evaluation \"vibes\"; expected one of: nnue, classical, buhochess, material");
    /// ```
    pub fn named(name: &str) -> Result<EvalName, UnknownName> {
        EvalName::parse(name).ok_or_else(|| UnknownName::new("evaluation", name, EvalName::names()))
    }
}

/// A name that is none of a registry's (an evaluation's, an algorithm's):
/// the one given, and every one there is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} {name:?}; expected one of: {expected}")]
pub struct UnknownName {
    /// What was named: `"evaluation"`, `"algorithm"`.
    pub what: &'static str,
    /// The name given.
    pub name: String,
    /// Every name there is, comma-separated.
    pub expected: String,
}

impl UnknownName {
    /// `name`, given for a `what`, is none of `expected`.
    pub fn new(what: &'static str, name: &str, expected: String) -> UnknownName {
        UnknownName {
            what,
            name: name.to_string(),
            expected,
        }
    }
}

impl std::fmt::Display for EvalName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A chosen evaluation, ready to build evaluators from.
#[derive(Clone, Debug)]
pub enum EvalChoice {
    /// A hand-crafted preset.
    Preset(Preset),
    /// A hand-crafted preset's terms with other weights (classical or
    /// BuhoChess; see [`EvalChoice::with_weights`]).
    Weighted(Preset, Arc<Params>),
    /// NNUE with this network.
    Nnue(Arc<Network>),
}

/// Why a weights file could not be applied (the message names the file).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct WeightsError(pub String);

impl EvalChoice {
    /// The evaluation `name`, with `net` if it is NNUE.
    pub fn new(name: EvalName, net: &Arc<Network>) -> EvalChoice {
        match name {
            EvalName::Nnue => EvalChoice::Nnue(net.clone()),
            EvalName::Classical => EvalChoice::Preset(Preset::Classical),
            EvalName::Buhochess => EvalChoice::Preset(Preset::BuhoChess),
            EvalName::Material => EvalChoice::Preset(Preset::Material),
        }
    }

    /// Its name.
    pub fn name(&self) -> &'static str {
        match self {
            EvalChoice::Preset(p) | EvalChoice::Weighted(p, _) => p.name(),
            EvalChoice::Nnue(_) => "nnue",
        }
    }

    /// The same evaluation with the weights of `text` (`name value` lines,
    /// what `tune texel` writes) over its preset's own, when it has weights
    /// to change: classical and BuhoChess do, NNUE and material are
    /// returned unchanged. An error names the line that is wrong.
    pub fn with_weights(self, text: &str) -> Result<EvalChoice, ParamsError> {
        match self {
            EvalChoice::Preset(p @ (Preset::Classical | Preset::BuhoChess))
            | EvalChoice::Weighted(p, _) => Ok(EvalChoice::Weighted(
                p,
                Arc::new(Params::from_text(p.params(), text)?),
            )),
            other => Ok(other),
        }
    }

    /// [`EvalChoice::with_weights`] with the text of `file` (none: this
    /// choice unchanged). Refused for NNUE and material, which have no
    /// weights to change.
    pub fn with_weights_file(self, file: Option<&Path>) -> Result<EvalChoice, WeightsError> {
        let Some(file) = file else { return Ok(self) };
        if matches!(
            self,
            EvalChoice::Nnue(_) | EvalChoice::Preset(Preset::Material)
        ) {
            return Err(WeightsError(format!(
                "weights {} apply to classical and buhochess, not {}",
                file.display(),
                self.name()
            )));
        }
        let usage = |e: String| WeightsError(format!("weights {}: {e}", file.display()));
        let text = read_weights(file).map_err(usage)?;
        self.with_weights(&text).map_err(|e| usage(e.to_string()))
    }

    /// A fresh evaluator of a hand-crafted choice (the classical one for
    /// NNUE, whose terms it reports beside the network's output).
    pub fn hand_crafted(&self) -> PresetEvaluator {
        match self {
            EvalChoice::Preset(p) => p.evaluator(),
            EvalChoice::Weighted(p, w) => p.evaluator_with((**w).clone()),
            EvalChoice::Nnue(_) => Preset::Classical.evaluator(),
        }
    }
}

/// The text of a weights file (`name value` lines, what `tune texel`
/// writes), once every line is known to name a weight and an integer; or
/// why not (the file cannot be read, is not a regular file, holds more
/// than [`MAX_WEIGHTS_BYTES`] or is not UTF-8, or the line that is wrong). Weight
/// names are the same for every hand-crafted preset, so one check serves
/// them all.
pub fn read_weights(file: &Path) -> Result<String, String> {
    let text = read_weights_text(file)?;
    Params::from_text(Params::classical_hand_set(), &text).map_err(|e| e.to_string())?;
    Ok(text)
}

/// The largest weights file [`read_weights`] reads: 1 MiB (what
/// `tune texel` writes is a few kilobytes).
pub const MAX_WEIGHTS_BYTES: u64 = 1 << 20;

/// What a path is when it is not a regular file (`None` when it is one):
/// the words of an error that refuses to read it.
fn not_regular(meta: &std::fs::Metadata) -> Option<&'static str> {
    let kind = meta.file_type();
    if kind.is_file() {
        return None;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return Some("a FIFO");
        }
        if kind.is_char_device() || kind.is_block_device() {
            return Some("a device");
        }
        if kind.is_socket() {
            return Some("a socket");
        }
    }
    Some(if kind.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    })
}

/// Opens `path` for reading once its metadata says it is a regular file
/// (a FIFO, device or directory is refused before opening, which could
/// block), with its length.
pub(crate) fn open_regular(path: &Path) -> std::io::Result<(std::fs::File, u64)> {
    let refuse = |what: &str| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{what}, not a regular file"),
        )
    };
    if let Some(what) = not_regular(&std::fs::metadata(path)?) {
        return Err(refuse(what));
    }
    let file = std::fs::File::open(path)?;
    // The path may have been replaced between the two looks.
    let meta = file.metadata()?;
    if let Some(what) = not_regular(&meta) {
        return Err(refuse(what));
    }
    Ok((file, meta.len()))
}

/// The text of the weights file `file`: a regular file of at most
/// [`MAX_WEIGHTS_BYTES`], in UTF-8.
fn read_weights_text(file: &Path) -> Result<String, String> {
    use std::io::Read;
    let (f, len) = open_regular(file).map_err(|e| e.to_string())?;
    let too_long =
        || format!("larger than {MAX_WEIGHTS_BYTES} bytes, the most a weights file may hold");
    if len > MAX_WEIGHTS_BYTES {
        return Err(too_long());
    }
    let mut bytes = Vec::with_capacity(len as usize);
    f.take(MAX_WEIGHTS_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_WEIGHTS_BYTES {
        return Err(too_long());
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "not UTF-8 text (byte {} is not valid)",
            e.utf8_error().valid_up_to()
        )
    })
}

/// The bytes of the network file `path`, read only once they can be one:
/// `path` must be a regular file (a FIFO, device or directory is refused
/// before it is opened), and its length must be the one its header's
/// architecture gives, checked from the file's metadata before the weights
/// are read. The read is bounded by that length, so a file that grows
/// meanwhile is refused too (by [`Network::from_bytes`]).
pub(crate) fn read_network_file(path: &Path) -> Result<Vec<u8>, LoadNetError> {
    use crate::nnue::format::{check_len, HEADER_SIZE};
    use std::io::Read;
    let io = |source| LoadNetError::Io {
        path: path.to_path_buf(),
        source,
    };
    let net = |source| LoadNetError::Net {
        path: path.to_path_buf(),
        source,
    };
    let (mut file, len) = open_regular(path).map_err(io)?;
    let mut bytes = Vec::with_capacity(HEADER_SIZE);
    file.by_ref()
        .take(HEADER_SIZE as u64)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    let expected = check_len(&bytes, len).map_err(net)?;
    bytes.reserve_exact(expected.saturating_sub(bytes.len()));
    let rest = (expected.saturating_sub(bytes.len()) as u64).saturating_add(1);
    file.take(rest).read_to_end(&mut bytes).map_err(io)?;
    Ok(bytes)
}

/// Why a network could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadNetError {
    /// The file could not be read.
    #[error("cannot read network {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not a valid network.
    #[error("network {path}: {source}")]
    Net {
        /// The file (`<embedded>` for the built-in one).
        path: PathBuf,
        /// What is wrong with it.
        source: crate::nnue::NetError,
    },
}

/// The name that stands for the embedded network (`EvalFile` default).
pub const EMBEDDED: &str = "<embedded>";

/// The network in `path`, or the embedded one for `None`, an empty path
/// or [`EMBEDDED`]. The file is read only when it is a regular file whose
/// length (from its metadata) is the one its header gives; a FIFO, a
/// device or a file of the wrong size is refused, naming it, without its
/// weights being read.
pub fn load_network(path: Option<&Path>) -> Result<Arc<Network>, LoadNetError> {
    match path.filter(|p| !p.as_os_str().is_empty() && p.as_os_str() != EMBEDDED) {
        None => embedded_network().map_err(|source| LoadNetError::Net {
            path: PathBuf::from(EMBEDDED),
            source,
        }),
        Some(path) => Network::from_file(path).map(Arc::new),
    }
}

/// Runs `$body` with `$e` bound to a fresh evaluator of the chosen kind
/// (a [`select::EvalChoice`](crate::select::EvalChoice)); the body is
/// compiled once per evaluator type.
#[macro_export]
macro_rules! with_evaluator {
    ($choice:expr, $e:ident => $body:expr) => {
        match $choice {
            $crate::select::EvalChoice::Preset($crate::Preset::Material) => {
                let $e = $crate::Material::default();
                $body
            }
            $crate::select::EvalChoice::Preset($crate::Preset::BuhoChess) => {
                let $e = $crate::BuhoChess::default();
                $body
            }
            $crate::select::EvalChoice::Preset($crate::Preset::Classical) => {
                let $e = $crate::Classical::default();
                $body
            }
            $crate::select::EvalChoice::Weighted($crate::Preset::BuhoChess, w) => {
                let $e = $crate::BuhoChess::with_params((**w).clone());
                $body
            }
            $crate::select::EvalChoice::Weighted($crate::Preset::Classical, w) => {
                let $e = $crate::Classical::with_params((**w).clone());
                $body
            }
            // `with_weights` never weights material; should one be built by
            // hand, material has no weights to apply.
            $crate::select::EvalChoice::Weighted($crate::Preset::Material, _) => {
                let $e = $crate::Material::default();
                $body
            }
            $crate::select::EvalChoice::Nnue(net) => {
                let $e = $crate::nnue::Nnue::new(net.clone());
                $body
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_files_are_checked() {
        for e in EvalName::ALL {
            assert_eq!(EvalName::parse(e.name()), Some(e));
        }
        assert_eq!(EvalName::parse("NNUE"), Some(EvalName::Nnue));
        assert_eq!(EvalName::parse("abacus"), None);
        assert!(load_network(None).is_ok());
        assert!(load_network(Some(Path::new(EMBEDDED))).is_ok());
        let missing = load_network(Some(Path::new("/no/such/net.nnue"))).unwrap_err();
        assert!(missing
            .to_string()
            .contains("cannot read network /no/such/net.nnue"));
        let bad = std::env::temp_dir().join(format!("fianchetto-bad-{}.nnue", std::process::id()));
        std::fs::write(&bad, b"FIANNUE\x1a but not much else").unwrap();
        let err = load_network(Some(&bad)).unwrap_err().to_string();
        assert!(err.contains("network") && err.contains("bytes"), "{err}");
        let _ = std::fs::remove_file(&bad);
    }
}
