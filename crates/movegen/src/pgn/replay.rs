//! [`Replay`]: the lean visitor that only plays the main line, for counting
//! and checking games fast.

use super::error::PgnErrorKind;
use super::start::{play_null, read_move, start_tag, START_TAGS};
use super::visitor::{Flow, GameResult, Visit, Visitor};
use crate::MoveGen;
use fianchetto_board::Move;

/// What [`Replay`] makes of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replayed<B> {
    /// The position after the last main-line move.
    pub board: B,
    /// The number of main-line half-moves (null moves included).
    pub plies: u32,
    /// The game termination marker, if the movetext had one.
    pub result: Option<GameResult>,
}

/// A [`Visitor`] that plays each game's main line on a board `B` (from the
/// `FEN` tag's position, if any; Chess960 castling read as X-FEN or
/// Shredder-FEN) and nothing else: tags other than `FEN` and `Variant`
/// (which refuses variants other than standard chess and Chess960),
/// comments and NAGs are ignored, variations skipped unchecked
/// unless [`Replay::check_variations`] asks to play them too (on a stack of
/// boards, still without keeping any move). An illegal or ambiguous move is
/// a game error, as with [`GameBuilder`](super::GameBuilder).
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
///
/// // Checking variations finds the illegal move in this one.
/// let pgn = "1. f3 e5 2. g4 (2. Qh5) 2... Qh4# 0-1";
/// let mut reader = Reader::new(pgn.as_bytes());
/// assert!(reader.read_game(&mut Replay::<Bitboards>::new()).is_ok());
/// let mut reader = Reader::new(pgn.as_bytes());
/// let checked = reader.read_game(&mut Replay::<Bitboards>::new().check_variations(true));
/// assert!(checked.is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Replay<B> {
    check_variations: bool,
    /// The standard start, built once.
    startpos: B,
    main: Line<B>,
    variations: Vec<Line<B>>,
    start: Option<B>,
    plies: u32,
    result: Option<GameResult>,
}

/// A line being played. When variations are checked, its last move is
/// kept resolved but unplayed until the next move (or the game's end) needs
/// it, so that a variation opening on it starts from `board` as it stands:
/// no copy of the board per move, one per variation.
#[derive(Clone, Debug)]
struct Line<B> {
    /// The position, before `pending`.
    board: B,
    /// The last move, not yet played on `board`.
    pending: Option<Move>,
    /// The position before a null move just played (null moves are played
    /// at once, so that an illegal one is an error on its own token).
    before_null: Option<B>,
}

impl<B: MoveGen> Line<B> {
    fn new(board: B) -> Line<B> {
        Line {
            board,
            pending: None,
            before_null: None,
        }
    }

    /// Plays the pending move, if any: `board` is then the line's position.
    fn settle(&mut self) {
        if let Some(mv) = self.pending.take() {
            self.board.play_unchecked(mv);
        }
    }

    /// The position before the line's last move, where a variation on it
    /// starts.
    fn before_last(&self) -> Option<B> {
        match self.pending {
            Some(_) => Some(self.board.clone()),
            None => self.before_null.clone(),
        }
    }
}

impl<B: MoveGen> Default for Replay<B> {
    fn default() -> Replay<B> {
        Replay::new()
    }
}

impl<B: MoveGen> Replay<B> {
    /// A replayer of main lines.
    pub fn new() -> Replay<B> {
        Replay {
            check_variations: false,
            startpos: B::startpos(),
            main: Line::new(B::startpos()),
            variations: Vec::new(),
            start: None,
            plies: 0,
            result: None,
        }
    }

    /// Whether to play the variations too, so that an illegal move in one
    /// is an error (the variations' moves are not counted in
    /// [`Replayed::plies`]).
    pub fn check_variations(mut self, check: bool) -> Replay<B> {
        self.check_variations = check;
        self
    }
}

impl<B: MoveGen> Visitor for Replay<B> {
    type Output = Replayed<B>;

    fn begin_game(&mut self) {
        self.start = None;
        self.variations.clear();
        self.plies = 0;
        self.result = None;
    }

    fn tag(&mut self, name: &str, value: &str) -> Visit {
        if let Some(start) = start_tag::<B>(name, value)? {
            self.start = Some(start);
        }
        Ok(())
    }

    fn wants_tag(&self, name: &str) -> bool {
        START_TAGS.contains(&name)
    }

    fn wants_comments(&self) -> bool {
        false
    }

    fn end_tags(&mut self) -> Visit<Flow> {
        self.main = Line::new(match self.start.take() {
            Some(start) => start,
            None => self.startpos.clone(),
        });
        Ok(Flow::Visit)
    }

    fn san(&mut self, san: &str) -> Visit {
        let line = self.variations.last_mut().unwrap_or(&mut self.main);
        line.settle();
        let mv = read_move(&line.board, san)?;
        line.before_null = None;
        if self.check_variations {
            line.pending = Some(mv);
        } else {
            line.board.play_unchecked(mv);
        }
        if self.variations.is_empty() {
            self.plies += 1;
        }
        Ok(())
    }

    fn null_move(&mut self) -> Visit {
        let line = self.variations.last_mut().unwrap_or(&mut self.main);
        line.settle();
        let before = self.check_variations.then(|| line.board.clone());
        play_null(&mut line.board)?;
        line.before_null = before;
        if self.variations.is_empty() {
            self.plies += 1;
        }
        Ok(())
    }

    fn begin_variation(&mut self) -> Visit<Flow> {
        if !self.check_variations {
            return Ok(Flow::Skip);
        }
        let parent = self.variations.last().unwrap_or(&self.main);
        let board = parent
            .before_last()
            .ok_or(PgnErrorKind::VariationWithoutMove)?;
        self.variations.push(Line::new(board));
        Ok(Flow::Visit)
    }

    fn end_variation(&mut self) -> Visit {
        self.variations.pop();
        Ok(())
    }

    fn outcome(&mut self, result: Option<GameResult>) -> Visit {
        self.result = result;
        Ok(())
    }

    fn end_game(&mut self) -> Replayed<B> {
        self.main.settle();
        Replayed {
            board: self.main.board.clone(),
            plies: self.plies,
            result: self.result,
        }
    }
}
