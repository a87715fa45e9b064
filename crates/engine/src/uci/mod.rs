//! The UCI protocol: parsing commands, the engine's options, and the loop
//! that runs searches on their own thread.

pub mod options;
pub mod parse;
pub mod session;

pub use options::{Applied, EngineOptions, OptionError};
pub use parse::{parse_command, GoParams, UciCommand, UciParseError};
pub use session::{run_stdio, Output, Session};
