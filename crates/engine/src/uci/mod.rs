//! The engine's side of the UCI protocol: its options and the loop that
//! runs searches on their own thread. Commands are read and replies written
//! with the protocol's types from `fianchetto-uci`.

pub mod options;
pub mod session;

pub use options::{Applied, EngineOptions, OptionError};
pub use session::{run_stdio, Output, Session};
