//! Where PUCT's priors come from: a [`Policy`] gives a logit per legal
//! move, and the search turns them into priors with a softmax at
//! [`MctsConfig::policy_temperature`](super::MctsConfig#structfield.policy_temperature).
//!
//! Two policies come with the crate: [`HandPolicy`], a move ordering written
//! by hand (captures by SEE, checks, promotions), and [`NetPolicy`], a
//! trained [`PolicyNet`]; [`Blend`] adds two policies' logits, each with its
//! weight. What the engine plays is the network and the hand-written
//! ordering blended ([`Blend::engine`]): the network knows the position, the
//! ordering the exchanges it cannot see. A user's own policy is any type
//! implementing the trait.

use crate::see::{captured_value, see_ge};
use fianchetto_board::attacks::attacks;
use fianchetto_board::{Bitboard, Board, Color, Move, Role};
use fianchetto_eval::nnue::Simd;
use fianchetto_eval::policy::PolicyNet;
use fianchetto_movegen::check::CheckInfo;
use fianchetto_movegen::MoveGen;
use std::sync::Arc;

/// A logit per legal move: how much PUCT should favour it before searching.
///
/// Each search thread holds its own clone. `logits` is called once per new
/// tree node, with every legal move of its position; it must write one
/// finite number per move into `out` (as long as `moves`) and should
/// allocate nothing.
///
/// ```
/// use fianchetto_board::{Board, Move};
/// use fianchetto_eval::Material;
/// use fianchetto_movegen::{Game, MoveGen};
/// use fianchetto_search::mcts::{Mcts, MctsConfig, Policy};
/// use fianchetto_search::{Limits, Search};
///
/// /// Pushes pawns: a pawn move gets logit 1, every other move 0.
/// #[derive(Clone)]
/// struct PawnsFirst;
/// impl<B: MoveGen> Policy<B> for PawnsFirst {
///     fn logits(&mut self, board: &B, moves: &[Move], out: &mut [f32]) {
///         for (m, l) in moves.iter().zip(out) {
///             let pawn = board.piece_at(m.from()).is_some_and(|p| p.role == fianchetto_board::Role::Pawn);
///             *l = if pawn { 1.0 } else { 0.0 };
///         }
///     }
/// }
///
/// let config = MctsConfig::puct().iterations(200);
/// let mut mcts = Mcts::with_policy(Material::classic(), PawnsFirst, config);
/// let game = Game::new(fianchetto_board::Bitboards::startpos());
/// let result = mcts.search(&game, &Limits::default(), &mut |_| {});
/// assert!(game.board().is_legal(result.best_move.unwrap()));
/// ```
pub trait Policy<B>: Clone + Send {
    /// Writes the logit of each of `moves` (the legal moves of `board`)
    /// into `out`.
    fn logits(&mut self, board: &B, moves: &[Move], out: &mut [f32]);
}

/// The hand-written policy: logits from a cheap move ordering. Good
/// captures gain by SEE and victim, checks and queen promotions gain,
/// castling a little; so do the safe moves of a piece that stands to be
/// lost, and safe moves that attack a bigger piece; losing captures, moves
/// to squares that lose the piece and underpromotions lose.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HandPolicy;

/// The logit a threatened piece's safe move gains (see [`threatened`]).
const ESCAPE_BONUS: f32 = 1.0;
/// The logit a safe quiet move gains when the moved piece then attacks an
/// enemy piece worth more than itself (the king aside: checks gain apart).
const THREAT_BONUS: f32 = 0.5;

/// `color`'s pieces of `roles`.
fn pieces_of<B: Board>(board: &B, color: Color, roles: &[Role]) -> Bitboard {
    roles
        .iter()
        .fold(Bitboard::EMPTY, |b, &role| b | board.pieces(color, role))
}

/// `color`'s pieces worth less than a `role`: the roles before it, since
/// [`VALUES`](crate::see::VALUES) rise with the role's index.
fn worth_less<B: Board>(board: &B, color: Color, role: Role) -> Bitboard {
    pieces_of(board, color, &Role::ALL[..role.index()])
}

/// `color`'s pieces worth more than a `role`, the king aside.
fn worth_more<B: Board>(board: &B, color: Color, role: Role) -> Bitboard {
    let king = Role::King.index();
    pieces_of(board, color, &Role::ALL[(role.index() + 1).min(king)..king])
}

/// The side to move's knights, bishops, rooks and queens that stand to be
/// lost: attacked by a less valuable piece, or attacked and not defended.
fn threatened<B: Board>(board: &B) -> Bitboard {
    let (us, them) = (board.turn(), !board.turn());
    let occupied = board.occupied();
    let mut out = Bitboard::EMPTY;
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        let cheaper = worth_less(board, them, role);
        for sq in board.pieces(us, role) {
            let attackers = board.attackers(sq, them, occupied);
            let lost = !(attackers & cheaper).is_empty()
                || (!attackers.is_empty() && board.attackers(sq, us, occupied).is_empty());
            if lost {
                out |= Bitboard::from(sq);
            }
        }
    }
    out
}

/// Whether the quiet move `mv` leaves its piece attacking an enemy piece
/// worth more than itself (not the king).
fn makes_threat<B: Board>(board: &B, mv: Move) -> bool {
    let Some(piece) = board.piece_at(mv.from()) else {
        return false;
    };
    let bigger = worth_more(board, !piece.color, piece.role);
    if bigger.is_empty() {
        return false;
    }
    let occupied = (board.occupied() & !Bitboard::from(mv.from())) | Bitboard::from(mv.to());
    !(attacks(piece.role, piece.color, mv.to(), occupied) & bigger).is_empty()
}

impl<B: MoveGen> Policy<B> for HandPolicy {
    fn logits(&mut self, board: &B, moves: &[Move], out: &mut [f32]) {
        let threatened = threatened(board);
        let checks = CheckInfo::new(board);
        for (&mv, out) in moves.iter().zip(out.iter_mut()) {
            let mut l = 0.0;
            if mv.is_capture() {
                if see_ge(board, mv, 0) {
                    l += 1.0 + captured_value(board, mv) as f32 / 300.0;
                } else {
                    l -= 1.0;
                }
            } else if !see_ge(board, mv, 0) {
                l -= 1.0;
            } else {
                if threatened.contains(mv.from()) {
                    l += ESCAPE_BONUS;
                }
                if makes_threat(board, mv) {
                    l += THREAT_BONUS;
                }
            }
            match mv.promotion() {
                Some(Role::Queen) => l += 2.0,
                Some(_) => l -= 2.0,
                None => {}
            }
            if mv.is_castle() {
                l += 0.5;
            }
            if checks.gives_check(board, mv) {
                l += 1.0;
            }
            *out = l;
        }
    }
}

/// A trained policy network ([`PolicyNet`]), shared between threads, run
/// with the fastest kernels this CPU has.
#[derive(Clone, Debug)]
pub struct NetPolicy {
    net: Arc<PolicyNet>,
    simd: Simd,
}

impl NetPolicy {
    /// The policy of `net`.
    pub fn new(net: Arc<PolicyNet>) -> NetPolicy {
        let simd = Simd::detect_for(net.arch().hidden);
        NetPolicy { net, simd }
    }

    /// The network.
    pub fn net(&self) -> &Arc<PolicyNet> {
        &self.net
    }
}

impl<B: MoveGen> Policy<B> for NetPolicy {
    #[inline]
    fn logits(&mut self, board: &B, moves: &[Move], out: &mut [f32]) {
        self.net.logits_with(self.simd, board, moves, out);
    }
}

/// Two policies in one: `wa · a + wb · b`, logit by logit.
///
/// ```
/// use fianchetto_board::{Bitboards, Board, Move};
/// use fianchetto_movegen::MoveGen;
/// use fianchetto_search::mcts::{Blend, HandPolicy, Policy};
///
/// let board = Bitboards::startpos();
/// let moves = board.legal_moves();
/// let (mut once, mut twice) = ([0f32; 256], [0f32; 256]);
/// HandPolicy.logits(&board, &moves, &mut once);
/// Blend::new(HandPolicy, 1.5, HandPolicy, 0.5).logits(&board, &moves, &mut twice);
/// assert!(once.iter().zip(&twice).all(|(a, b)| (2.0 * a - b).abs() < 1e-6));
/// ```
#[derive(Clone, Debug)]
pub struct Blend<P, Q> {
    a: P,
    wa: f32,
    b: Q,
    wb: f32,
}

impl<P, Q> Blend<P, Q> {
    /// `wa · a + wb · b`.
    pub fn new(a: P, wa: f32, b: Q, wb: f32) -> Blend<P, Q> {
        Blend { a, wa, b, wb }
    }
}

/// The network's weight in [`Blend::engine`]: chosen by matches of the
/// blend against the hand-written policy alone (see `docs/search.md`).
pub const ENGINE_NET_WEIGHT: f32 = 1.0 / 3.0;

impl Blend<NetPolicy, HandPolicy> {
    /// The policy the engine plays with: `net` at `net_weight` (the
    /// engine's is [`ENGINE_NET_WEIGHT`]) plus the hand-written ordering.
    pub fn engine(net: Arc<PolicyNet>, net_weight: f32) -> Blend<NetPolicy, HandPolicy> {
        Blend::new(NetPolicy::new(net), net_weight, HandPolicy, 1.0)
    }
}

impl<B, P: Policy<B>, Q: Policy<B>> Policy<B> for Blend<P, Q> {
    fn logits(&mut self, board: &B, moves: &[Move], out: &mut [f32]) {
        let mut other = [0f32; 256];
        let n = moves.len().min(out.len()).min(other.len());
        self.a.logits(board, &moves[..n], &mut out[..n]);
        self.b.logits(board, &moves[..n], &mut other[..n]);
        for (o, &x) in out[..n].iter_mut().zip(&other[..n]) {
            *o = self.wa * *o + self.wb * x;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fianchetto_board::Bitboards;
    use fianchetto_movegen::parse_uci;

    /// The hand-written policy's logit for each move of `fen`, by name.
    fn logits(fen: &str) -> impl Fn(&str) -> f32 {
        let board = Bitboards::from_fen(fen).expect("a valid FEN");
        let moves = board.legal_moves();
        let mut out = [0f32; 256];
        HandPolicy.logits(&board, &moves, &mut out[..moves.len()]);
        move |uci| {
            let mv = parse_uci(&board, uci).expect("a legal move");
            out[moves.iter().position(|&m| m == mv).expect("listed")]
        }
    }

    #[test]
    fn a_threatened_piece_is_moved_to_safety() {
        // The knight on e4 is attacked by a pawn: its safe quiet moves
        // gain the escape bonus over the king's.
        let logit = logits("4k3/8/8/3p4/4N3/8/8/4K3 w - - 0 1");
        assert_eq!(logit("e4g3") - logit("e1e2"), ESCAPE_BONUS);
        assert_eq!(logit("e4c3") - logit("e1e2"), ESCAPE_BONUS);
        // A knight attacked by a rook is threatened when nothing defends
        // it, not when its king does.
        let logit = logits("3rk3/8/8/8/8/8/3N4/7K w - - 0 1");
        assert_eq!(logit("d2b3") - logit("h1g1"), ESCAPE_BONUS);
        let logit = logits("3rk3/8/8/8/8/8/3N4/4K3 w - - 0 1");
        assert_eq!(logit("d2b3") - logit("e1f1"), 0.0);
    }

    #[test]
    fn a_safe_move_attacking_a_bigger_piece_gains() {
        // Nf3 and Ne2 attack the rook on d4; Nh3 attacks nothing.
        let logit = logits("4k3/8/8/8/3r4/8/8/4K1N1 w - - 0 1");
        assert_eq!(logit("g1f3") - logit("g1h3"), THREAT_BONUS);
        assert_eq!(logit("g1e2") - logit("g1h3"), THREAT_BONUS);
        // A bishop attacking a knight is no threat of this kind.
        let logit = logits("4k3/8/8/8/4n3/8/8/4KB2 w - - 0 1");
        assert_eq!(logit("f1d3") - logit("f1e2"), 0.0);
    }
}
