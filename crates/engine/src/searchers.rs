//! Building a searcher from names (algorithm, evaluation, backend), and
//! hiding the backend type behind [`Driver`] so that the UCI session and the
//! command line can switch all three at run time.

use crate::uci::EngineOptions;
use crate::with_backend;
use fianchetto_board::{Move, Setup};
use fianchetto_eval::Evaluator;
use fianchetto_movegen::{Game, MoveGen};
use fianchetto_search::alphabeta::AlphaBeta;
use fianchetto_search::minimax::Minimax;
use fianchetto_search::pvs::{Pvs, PvsConfig};
use fianchetto_search::scout::Scout;
use fianchetto_search::{Info, Limits, Search, SearchResult};

/// Runs `$body` with the type alias `$E` bound to the named evaluation
/// (`material`, `buhochess`, anything else: `classical`).
#[macro_export]
macro_rules! with_eval {
    ($name:expr, $E:ident => $body:expr) => {
        match $name {
            "material" => {
                type $E = fianchetto_eval::Material;
                $body
            }
            "buhochess" => {
                type $E = fianchetto_eval::BuhoChess;
                $body
            }
            _ => {
                type $E = fianchetto_eval::Classical;
                $body
            }
        }
    };
}

/// A searcher with its backend hidden.
pub trait Driver: Send {
    /// Searches the position `moves` after `start`.
    fn go(
        &mut self,
        start: &Setup,
        moves: &[Move],
        limits: &Limits,
        report: &mut dyn FnMut(&Info),
    ) -> SearchResult;
    /// Forgets the hash table and history (`ucinewgame`, `Clear Hash`).
    fn clear(&mut self);
}

struct Typed<B: MoveGen> {
    search: Box<dyn Search<B> + Send>,
}

fn game<B: MoveGen>(start: &Setup, moves: &[Move]) -> Option<Game<B>> {
    let mut game = Game::<B>::from_setup(start).ok()?;
    for &m in moves {
        if !game.board().is_legal(m) {
            return None;
        }
        game.play_unchecked(m);
    }
    Some(game)
}

impl<B: MoveGen> Driver for Typed<B> {
    fn go(
        &mut self,
        start: &Setup,
        moves: &[Move],
        limits: &Limits,
        report: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        match game::<B>(start, moves) {
            Some(g) => self.search.search(&g, limits, report),
            None => SearchResult::default(),
        }
    }
    fn clear(&mut self) {
        self.search.clear();
    }
}

/// A searcher for `algorithm` with evaluation `E`.
pub fn build_search<B: MoveGen, E: Evaluator<B> + Clone + Default + Send + 'static>(
    algorithm: &str,
    pvs: PvsConfig,
) -> Box<dyn Search<B> + Send> {
    match algorithm {
        "minimax" => Box::new(Minimax::new(E::default())),
        "alphabeta" => Box::new(AlphaBeta::new(E::default())),
        "scout" => Box::new(Scout::new(E::default())),
        _ => Box::new(Pvs::with_config(E::default(), pvs)),
    }
}

/// The driver the options ask for.
pub fn build_driver(o: &EngineOptions) -> Box<dyn Driver> {
    let pvs = PvsConfig {
        threads: o.threads,
        hash_mb: o.hash_mb,
        ..PvsConfig::default()
    };
    with_backend!(o.backend, B => with_eval!(o.evaluation.as_str(), E => {
        let d: Box<dyn Driver> = Box::new(Typed::<B> {
            search: build_search::<B, E>(&o.algorithm, pvs),
        });
        d
    }))
}
