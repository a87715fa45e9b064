//! [`Replay`]: the lean visitor that only plays the main line, for counting
//! and checking games fast.

use super::error::PgnErrorKind;
use super::game::start_tag;
use super::visitor::{Flow, GameResult, Visit, Visitor};
use crate::san::parse_san;
use crate::MoveGen;

/// What [`Replay`] makes of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replayed<B> {
    /// The position after the last main-line move.
    pub board: B,
    /// The number of main-line half-moves.
    pub plies: u32,
    /// The game termination marker, if the movetext had one.
    pub result: Option<GameResult>,
}

/// A [`Visitor`] that plays each game's main line on a board `B` (from the
/// `FEN` tag's position, if any) and nothing else: tags other than `FEN` and
/// `Variant`, comments and NAGs are ignored, variations skipped unchecked.
/// An illegal or ambiguous move is a game error, as with
/// [`GameBuilder`](super::GameBuilder).
///
/// ```
/// use fianchetto_board::{Bitboards, Board};
/// use fianchetto_movegen::pgn::{Reader, Replay};
///
/// let pgn = "1. f3 e5 2. g4 (2. e4) 2... Qh4# 0-1";
/// let mut reader = Reader::new(pgn.as_bytes());
/// let game = reader.read_game(&mut Replay::<Bitboards>::new())?.ok_or("no game")?;
/// assert_eq!(game.plies, 4);
/// assert!(game.board.in_check());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Replay<B> {
    board: B,
    start: Option<B>,
    plies: u32,
    result: Option<GameResult>,
}

impl<B: MoveGen> Default for Replay<B> {
    fn default() -> Replay<B> {
        Replay::new()
    }
}

impl<B: MoveGen> Replay<B> {
    /// A replayer.
    pub fn new() -> Replay<B> {
        Replay {
            board: B::startpos(),
            start: None,
            plies: 0,
            result: None,
        }
    }
}

impl<B: MoveGen> Visitor for Replay<B> {
    type Output = Replayed<B>;

    fn begin_game(&mut self) {
        self.start = None;
        self.plies = 0;
        self.result = None;
    }

    fn tag(&mut self, name: &str, value: &str) -> Visit {
        if let Some(start) = start_tag::<B>(name, value)? {
            self.start = Some(start);
        }
        Ok(())
    }

    fn end_tags(&mut self) -> Visit<Flow> {
        self.board = self.start.take().unwrap_or_else(B::startpos);
        Ok(Flow::Visit)
    }

    fn san(&mut self, san: &str) -> Visit {
        let mv = parse_san(&self.board, san).map_err(PgnErrorKind::San)?;
        self.board.play(mv);
        self.plies += 1;
        Ok(())
    }

    fn begin_variation(&mut self) -> Visit<Flow> {
        Ok(Flow::Skip)
    }

    fn outcome(&mut self, result: Option<GameResult>) -> Visit {
        self.result = result;
        Ok(())
    }

    fn end_game(&mut self) -> Replayed<B> {
        Replayed {
            board: self.board.clone(),
            plies: self.plies,
            result: self.result,
        }
    }
}
