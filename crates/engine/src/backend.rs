//! Choosing a board backend by name at run time, and running generic code on
//! it: `with_backend!(backend, B => perft::<B>(...))`.

use std::fmt;
use std::str::FromStr;

/// A board backend a user can pick (`--backend`, the UCI `Backend` option).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Backend {
    /// `Bitboards`: magic bitboards with pin and check masks (the fastest).
    #[default]
    #[value(name = "bitboard")]
    Bitboard,
}

impl Backend {
    /// Every backend.
    pub const ALL: &'static [Backend] = &[Backend::Bitboard];

    /// The name users type.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Bitboard => "bitboard",
        }
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The name is not a backend.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown backend `{0}`; expected one of: bitboard")]
pub struct UnknownBackend(pub String);

impl FromStr for Backend {
    type Err = UnknownBackend;
    fn from_str(s: &str) -> Result<Backend, UnknownBackend> {
        Backend::ALL
            .iter()
            .copied()
            .find(|b| b.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownBackend(s.to_string()))
    }
}

/// Runs `$body` with the type alias `$B` bound to the backend's board type.
#[macro_export]
macro_rules! with_backend {
    ($backend:expr, $B:ident => $body:expr) => {
        match $backend {
            $crate::backend::Backend::Bitboard => {
                type $B = fianchetto_board::Bitboards;
                $body
            }
        }
    };
}
