//! The network shipped inside the crate (see `nets/README.md` for how it
//! was trained), chosen at build time by `build.rs`.

use super::network::{NetError, Network};
use std::sync::{Arc, OnceLock};

/// The bytes of the embedded network file.
pub static EMBEDDED_NET: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/embedded.nnue"));

/// The embedded network, parsed once and shared.
///
/// `build.rs` checks the file's header and length; this checks everything
/// else (checksum, weight ranges), so a corrupted `EVALFILE` surfaces here
/// as an error rather than as wrong evaluations.
pub fn embedded_network() -> Result<Arc<Network>, NetError> {
    static NET: OnceLock<Result<Arc<Network>, NetError>> = OnceLock::new();
    NET.get_or_init(|| Network::from_bytes(EMBEDDED_NET).map(Arc::new))
        .clone()
}
