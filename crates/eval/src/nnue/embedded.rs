//! The network shipped inside the crate (see `nets/README.md` for how it
//! was trained), chosen at build time by `build.rs`.

use super::format::NetError;
use super::network::Network;
use std::sync::{Arc, OnceLock};

/// The bytes of the embedded network file.
pub static EMBEDDED_NET: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/embedded.nnue"));

/// The embedded network, parsed once and shared (what
/// [`Nnue::embedded`](super::Nnue::embedded) runs).
///
/// `build.rs` runs the same checks on the file before embedding it (it
/// compiles this crate's `arch.rs` and `format.rs`), so a bad `EVALFILE`
/// fails the build; this still returns the error rather than a stand-in
/// network, should the two ever disagree.
pub fn embedded_network() -> Result<Arc<Network>, NetError> {
    static NET: OnceLock<Result<Arc<Network>, NetError>> = OnceLock::new();
    NET.get_or_init(|| Network::from_bytes(EMBEDDED_NET).map(Arc::new))
        .clone()
}
