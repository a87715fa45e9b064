//! The policy network shipped inside the crate (see `nets/README.md` for
//! how it was trained), chosen at build time by `build.rs`, and the names
//! that pick a policy in options and on command lines.

use super::format::PolicyError;
use super::net::{LoadPolicyError, PolicyNet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// The bytes of the embedded policy file.
pub static EMBEDDED_POLICY: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/embedded.policy"));

/// The name that stands for the embedded policy network.
pub const EMBEDDED_POLICY_NAME: &str = "<embedded>";
/// The name that stands for no network: MCTS's hand-written policy.
pub const HAND_POLICY_NAME: &str = "<hand>";

/// The embedded policy network, parsed once and shared.
///
/// `build.rs` runs the same checks before embedding the file, so this
/// succeeds unless the two ever disagree; it still returns the error
/// rather than a stand-in network.
pub fn embedded_policy() -> Result<Arc<PolicyNet>, PolicyError> {
    static NET: OnceLock<Result<Arc<PolicyNet>, PolicyError>> = OnceLock::new();
    NET.get_or_init(|| PolicyNet::from_bytes(EMBEDDED_POLICY).map(Arc::new))
        .clone()
}

/// The policy `name` picks: the embedded network for
/// [`EMBEDDED_POLICY_NAME`] or an empty name, none (`Ok(None)`: the
/// hand-written policy) for [`HAND_POLICY_NAME`], otherwise the network
/// in that file.
///
/// # Errors
///
/// The file cannot be read or is not a valid policy network; the error
/// names it.
///
/// ```
/// use fianchetto_eval::policy::{load_policy, HAND_POLICY_NAME};
///
/// assert!(load_policy("<embedded>")?.is_some());
/// assert!(load_policy(HAND_POLICY_NAME)?.is_none());
/// let e = load_policy("no/such.policy").unwrap_err();
/// assert!(e.to_string().contains("no/such.policy"));
/// # Ok::<(), fianchetto_eval::policy::LoadPolicyError>(())
/// ```
pub fn load_policy(name: &str) -> Result<Option<Arc<PolicyNet>>, LoadPolicyError> {
    match name.trim() {
        "" | EMBEDDED_POLICY_NAME => {
            embedded_policy()
                .map(Some)
                .map_err(|source| LoadPolicyError::Policy {
                    path: PathBuf::from(EMBEDDED_POLICY_NAME),
                    source,
                })
        }
        HAND_POLICY_NAME => Ok(None),
        file => PolicyNet::from_file(Path::new(file)).map(|n| Some(Arc::new(n))),
    }
}
