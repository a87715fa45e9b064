//! [`Tunable`]: named integer parameters that a tuner can read and write,
//! whatever they belong to (evaluation weights, search margins).
//!
//! It lives here, low in the dependency order (board ← movegen ← eval ←
//! search ← tune), so that the search crate can implement it for its own
//! tunables without depending on the tuner, and the tuner (SPSA in
//! `fianchetto-tune`) can work on any implementation.

use crate::params::Params;

/// A value a [`Tunable`] refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TunableError {
    /// No parameter has this name.
    #[error("no tunable parameter called `{0}`")]
    UnknownName(String),
    /// The value is outside what the parameter accepts.
    #[error("{name} = {value} is out of range {min}..={max}")]
    OutOfRange {
        /// The parameter.
        name: String,
        /// The value given.
        value: i32,
        /// The smallest allowed.
        min: i32,
        /// The largest allowed.
        max: i32,
    },
}

/// A suggested SPSA setting for one parameter, in OpenBench's terms: the
/// range the tuner keeps it in, the perturbation size at the end of the
/// run (`c_end`) and the learning rate at the end (`r_end`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TunableSpec {
    /// The current value.
    pub value: i32,
    /// The smallest value to try.
    pub min: i32,
    /// The largest value to try.
    pub max: i32,
    /// The perturbation ±c at the last iteration.
    pub c_end: f64,
    /// The learning rate at the last iteration (OpenBench's `r_end`,
    /// usually 0.002).
    pub r_end: f64,
}

impl TunableSpec {
    /// The default suggestion for a parameter now at `value`: the range
    /// `value ± max(|value|, 40)`, `c_end` a tenth of that half-width, and
    /// `r_end` = 0.002 (OpenBench's customary value).
    ///
    /// ```
    /// use fianchetto_eval::tunable::TunableSpec;
    /// let s = TunableSpec::around(100);
    /// assert_eq!((s.min, s.max, s.c_end, s.r_end), (0, 200, 10.0, 0.002));
    /// let s = TunableSpec::around(-5);
    /// assert_eq!((s.min, s.max, s.c_end), (-45, 35, 4.0));
    /// ```
    pub fn around(value: i32) -> TunableSpec {
        let span = value.saturating_abs().max(40);
        TunableSpec {
            value,
            min: value.saturating_sub(span),
            max: value.saturating_add(span),
            c_end: (span as f64 / 10.0).max(1.0),
            r_end: 0.002,
        }
    }
}

/// Named integer parameters: what SPSA tunes.
///
/// Implemented by [`Params`] (every evaluation weight, by the names
/// [`Params::name`] gives); the search crate implements it for its own
/// margins. A tuner only needs these three calls.
///
/// ```
/// use fianchetto_eval::{Params, Tunable};
///
/// let mut p = Params::classical();
/// assert!(p.names().iter().any(|n| n == "bishop_pair[0]"));
/// p.set_value("bishop_pair[0]", 42)?;
/// assert_eq!(p.value("bishop_pair[0]"), Some(42));
/// assert!(p.set_value("no_such_weight", 1).is_err());
/// # Ok::<(), fianchetto_eval::TunableError>(())
/// ```
pub trait Tunable {
    /// Every parameter's name, in a stable order.
    fn names(&self) -> Vec<String>;

    /// The value of the parameter `name`, `None` if there is none.
    fn value(&self, name: &str) -> Option<i32>;

    /// Sets the parameter `name`.
    fn set_value(&mut self, name: &str, value: i32) -> Result<(), TunableError>;

    /// A suggested SPSA setting for `name` (default:
    /// [`TunableSpec::around`] its value).
    fn spec(&self, name: &str) -> Option<TunableSpec> {
        self.value(name).map(TunableSpec::around)
    }
}

impl Tunable for Params {
    fn names(&self) -> Vec<String> {
        (0..Params::LEN).filter_map(Params::name).collect()
    }

    fn value(&self, name: &str) -> Option<i32> {
        self.get_by_name(name)
    }

    fn set_value(&mut self, name: &str, value: i32) -> Result<(), TunableError> {
        if self.set_by_name(name, value) {
            Ok(())
        } else {
            Err(TunableError::UnknownName(name.to_string()))
        }
    }
}
