//! Board backends by name: the names a user can type (`--backend`, the UCI
//! `Backend` option), and [`with_backend!`](crate::with_backend) to run
//! generic code on the backend chosen at run time.
//!
//! ```
//! use fianchetto_board::Board;
//! use fianchetto_movegen::backend::Backend;
//! use fianchetto_movegen::{perft, with_backend};
//!
//! let backend: Backend = "0x88".parse()?;
//! let nodes = with_backend!(backend, B => perft(&B::startpos(), 3));
//! assert_eq!(nodes, 8902);
//! # Ok::<(), fianchetto_movegen::backend::UnknownBackend>(())
//! ```

use alloc::string::String;
use core::fmt;
use core::str::FromStr;

/// A board backend a user can pick (`--backend`, the UCI `Backend` option).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Backend {
    /// `Bitboards`: magic bitboards with pin and check masks (the fastest).
    #[default]
    #[cfg_attr(feature = "clap", value(name = "bitboard"))]
    Bitboard,
    /// `Board0x88`: the 0x88 array with piece lists and the 257-entry attack table.
    #[cfg_attr(feature = "clap", value(name = "0x88"))]
    X88,
    /// `Mailbox`: the 10×12 mailbox with sentinel borders and piece lists.
    #[cfg_attr(feature = "clap", value(name = "mailbox"))]
    Mailbox,
}

impl Backend {
    /// Every backend.
    pub const ALL: &'static [Backend] = &[Backend::Bitboard, Backend::X88, Backend::Mailbox];

    /// The name users type.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Bitboard => "bitboard",
            Backend::X88 => "0x88",
            Backend::Mailbox => "mailbox",
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
#[error("unknown backend `{0}`; expected one of: bitboard, 0x88, mailbox")]
pub struct UnknownBackend(pub String);

impl FromStr for Backend {
    type Err = UnknownBackend;
    fn from_str(s: &str) -> Result<Backend, UnknownBackend> {
        Backend::ALL
            .iter()
            .copied()
            .find(|b| b.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownBackend(s.into()))
    }
}

/// The board types [`with_backend!`](crate::with_backend) names.
#[doc(hidden)]
pub mod __private {
    pub use fianchetto_board::{Bitboards, Board0x88, Mailbox};
}

/// Runs `$body` with the type alias `$B` bound to the board type of a
/// [`Backend`](crate::backend::Backend); the body is compiled once per
/// backend.
#[macro_export]
macro_rules! with_backend {
    ($backend:expr, $B:ident => $body:expr) => {
        match $backend {
            $crate::backend::Backend::Bitboard => {
                type $B = $crate::backend::__private::Bitboards;
                $body
            }
            $crate::backend::Backend::X88 => {
                type $B = $crate::backend::__private::Board0x88;
                $body
            }
            $crate::backend::Backend::Mailbox => {
                type $B = $crate::backend::__private::Mailbox;
                $body
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec::Vec;

    #[test]
    fn names_round_trip() {
        for &b in Backend::ALL {
            assert_eq!(b.name().parse::<Backend>(), Ok(b));
            assert_eq!(b.to_string(), b.name());
        }
        assert_eq!("0X88".parse::<Backend>(), Ok(Backend::X88));
        assert!("array".parse::<Backend>().is_err());
    }

    #[test]
    fn dispatch_reaches_every_backend() {
        use fianchetto_board::Board;
        let names: Vec<&str> = Backend::ALL
            .iter()
            .map(|&b| with_backend!(b, B => B::NAME))
            .collect();
        assert_eq!(names, ["bitboard", "0x88", "mailbox"]);
    }
}
