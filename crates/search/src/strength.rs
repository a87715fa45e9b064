//! Playing strength as a node budget: the `UCI_Elo` range and the number
//! of nodes a move that plays at a given Elo (the UCI option
//! `UCI_LimitStrength`, the web app's Elo limit).
//!
//! ```
//! use fianchetto_search::strength::{strength_nodes, ELO_RANGE};
//! assert!(strength_nodes(ELO_RANGE.0) < strength_nodes(ELO_RANGE.1));
//! assert_eq!(strength_nodes(2062), 8192);
//! ```

/// Lowest and highest `UCI_Elo`.
pub const ELO_RANGE: (i64, i64) = (800, 2800);

/// `UCI_Elo` is played with a node budget and nothing else: the budget
/// doubles every [`ELO_PER_DOUBLING`] Elo, and [`REFERENCE_NODES`] nodes a
/// move measured [`ELO_AT_REFERENCE`] on Stockfish 15.1's `UCI_Elo` scale, in
/// matches against the rated Debian engines (Phalanx XXV, GNU Chess 6),
/// each placed on that scale by its own matches (see `docs/strength.md`,
/// its calibration tables, and `scripts/uci-elo/`). A node budget changes
/// strength smoothly; a depth cap does not (one ply is worth about 200 Elo
/// here, and a cap binds long before a budget of the same strength does).
const REFERENCE_NODES: f64 = 8192.0;
/// Measured Elo at [`REFERENCE_NODES`] nodes a move.
const ELO_AT_REFERENCE: f64 = 2062.0;
/// Measured Elo gained by each doubling of the node budget.
const ELO_PER_DOUBLING: f64 = 254.0;

/// The node budget per move that plays at `elo` (clamped to `UCI_Elo`'s
/// range): `REFERENCE_NODES · 2^((elo − ELO_AT_REFERENCE) / ELO_PER_DOUBLING)`.
/// The search always completes its first iteration, so even the smallest
/// budget plays a searched move. Outside the settings that were measured
/// the line is extrapolated.
pub fn strength_nodes(elo: i64) -> u64 {
    let elo = elo.clamp(ELO_RANGE.0, ELO_RANGE.1) as f64;
    let doublings = (elo - ELO_AT_REFERENCE) / ELO_PER_DOUBLING;
    (REFERENCE_NODES * doublings.exp2()).round().max(1.0) as u64
}
