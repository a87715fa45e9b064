//! [`PgnGame`]: a game as PGN holds it (tags, the main line as a
//! [`Game`], comments, NAGs and variations), and [`GameBuilder`], the
//! visitor that reads one, resolving every SAN move against its position.

use super::error::{PgnErrorKind, ReadError};
use super::tags::Tags;
use super::visitor::{Flow, GameResult, Visit, Visitor};
use super::writer::WriteError;
use crate::game::{Game, IllegalMove};
use crate::san::{parse_san, SanError};
use crate::MoveGen;
use fianchetto_board::{Board, Move};
use std::str::FromStr;

/// What PGN attaches to a move besides the move itself.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Annotations {
    /// Numeric annotation glyphs (`$1` = good move, ... ; suffixes like `!?`
    /// are read as their NAGs), in order.
    pub nags: Vec<u8>,
    /// Comments after the move, in order.
    pub comments: Vec<String>,
    /// Alternatives to the move, each played from the position before it.
    pub variations: Vec<Variation>,
}

impl Annotations {
    /// Whether there is nothing here.
    pub fn is_empty(&self) -> bool {
        self.nags.is_empty() && self.comments.is_empty() && self.variations.is_empty()
    }
}

/// A variation: a line of moves that replaces a move of its parent line.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Variation {
    /// Comments before the variation's first move.
    pub comments: Vec<String>,
    /// The moves, the first one an alternative to the move the variation
    /// follows.
    pub moves: Vec<AnnotatedMove>,
}

/// A move of a variation with its annotations.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AnnotatedMove {
    /// The move (legal in the position the variation has reached).
    pub mv: Move,
    /// Its NAGs, comments and sub-variations.
    pub notes: Annotations,
}

/// A game read from PGN, or to be written as PGN.
///
/// The main line is a [`Game`] (start position from the `FEN` tag, every
/// position and the rules); `notes[i]` holds the NAGs, comments and
/// variations of its move `i`.
///
/// ```
/// use fianchetto_board::Bitboards;
/// use fianchetto_movegen::pgn::{GameResult, PgnGame};
///
/// let mut game: PgnGame<Bitboards> = "1. e4 e5 2. Nf3 {the usual} Nc6 *".parse()?;
/// game.tags.set("White", "A. Player");
/// game.play_san("Bb5")?;
/// game.notes[4].nags.push(1);
/// game.result = Some(GameResult::Unknown);
/// let text = game.to_pgn()?;
/// assert!(text.starts_with("[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n"));
/// assert!(text.ends_with("\n\n1. e4 e5 2. Nf3 { the usual } 2... Nc6 3. Bb5 $1 *\n"));
/// let again: PgnGame<Bitboards> = text.parse()?;
/// assert_eq!(again.game.moves(), game.game.moves());
/// assert_eq!(again.tags.get("White"), Some("A. Player"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct PgnGame<B: Board> {
    /// The tag pairs, in the order read.
    pub tags: Tags,
    /// The main line.
    pub game: Game<B>,
    /// Comments before the first move.
    pub comments: Vec<String>,
    /// The annotations of each main-line move (`notes[i]` for
    /// `game.moves()[i]`; missing entries count as empty).
    pub notes: Vec<Annotations>,
    /// The game termination marker (`None`: the movetext had none).
    pub result: Option<GameResult>,
}

impl<B: MoveGen> PgnGame<B> {
    /// A game with no tags or annotations; its result is the game's
    /// [`Game::outcome`] if it is over, else unknown.
    pub fn new(game: Game<B>) -> PgnGame<B> {
        let result = game
            .outcome()
            .map_or(GameResult::Unknown, GameResult::from_outcome);
        let notes = vec![Annotations::default(); game.moves().len()];
        PgnGame {
            tags: Tags::new(),
            game,
            comments: Vec::new(),
            notes,
            result: Some(result),
        }
    }

    /// Plays `mv` on the main line (with no annotations).
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.game.play(mv)?;
        self.notes
            .resize_with(self.game.moves().len(), Annotations::default);
        Ok(())
    }

    /// Plays a SAN move on the main line (with no annotations).
    pub fn play_san(&mut self, san: &str) -> Result<Move, SanError> {
        let mv = self.game.play_san(san)?;
        self.notes
            .resize_with(self.game.moves().len(), Annotations::default);
        Ok(mv)
    }

    /// The game in PGN export format (see [`Writer`](super::Writer)).
    pub fn to_pgn(&self) -> Result<String, WriteError> {
        let mut out = String::new();
        super::writer::render(self, &mut out)?;
        Ok(out)
    }
}

impl<B: MoveGen> From<Game<B>> for PgnGame<B> {
    fn from(game: Game<B>) -> PgnGame<B> {
        PgnGame::new(game)
    }
}

impl<B: MoveGen> FromStr for PgnGame<B> {
    type Err = ReadError;

    /// Reads the first game of the text.
    fn from_str(text: &str) -> Result<PgnGame<B>, ReadError> {
        super::reader::parse_game(text)
    }
}

/// Checks a tag that decides how the moves are read: the start position of
/// a `FEN` tag, and a `Variant` other than standard chess (refused).
pub(crate) fn start_tag<B: MoveGen>(name: &str, value: &str) -> Visit<Option<B>> {
    match name {
        "FEN" => B::from_fen(value.trim())
            .map(Some)
            .map_err(PgnErrorKind::Fen),
        "Variant" => {
            let variant = value.trim().to_ascii_lowercase();
            match variant.as_str() {
                "" | "standard" | "chess" | "normal" | "from position" => Ok(None),
                _ => Err(PgnErrorKind::Unsupported(format!(
                    "the variant {value:?}; only standard chess is read"
                ))),
            }
        }
        _ => Ok(None),
    }
}

/// An open variation while a game is read.
#[derive(Debug)]
struct Frame<B> {
    /// The position the variation has reached.
    board: B,
    /// The position before its last move (for a variation inside it).
    before_last: Option<B>,
    line: Variation,
}

/// The [`Visitor`] that reads games into [`PgnGame`]s: every SAN move is
/// resolved against its position (an illegal or ambiguous one is a game
/// error), the `FEN` tag sets the start position, comments, NAGs and
/// variations are kept unless switched off.
///
/// A NAG before the first move of a line, which has no move to annotate, is
/// dropped.
#[derive(Debug)]
pub struct GameBuilder<B: Board> {
    /// The standard start, built once.
    startpos: B,
    keep_variations: bool,
    keep_comments: bool,
    tags: Tags,
    start: Option<B>,
    game: Option<Game<B>>,
    comments: Vec<String>,
    notes: Vec<Annotations>,
    stack: Vec<Frame<B>>,
    result: Option<GameResult>,
}

impl<B: MoveGen> Default for GameBuilder<B> {
    fn default() -> GameBuilder<B> {
        GameBuilder::new()
    }
}

impl<B: MoveGen> GameBuilder<B> {
    /// A builder that keeps everything.
    pub fn new() -> GameBuilder<B> {
        GameBuilder {
            startpos: B::startpos(),
            keep_variations: true,
            keep_comments: true,
            tags: Tags::new(),
            start: None,
            game: None,
            comments: Vec::new(),
            notes: Vec::new(),
            stack: Vec::new(),
            result: None,
        }
    }

    /// Whether to read variations (`false`: skip them, unchecked).
    pub fn variations(mut self, keep: bool) -> GameBuilder<B> {
        self.keep_variations = keep;
        self
    }

    /// Whether to keep comments.
    pub fn comments(mut self, keep: bool) -> GameBuilder<B> {
        self.keep_comments = keep;
        self
    }

    /// The main line, started at the first movetext token.
    fn main(&mut self) -> &mut Game<B> {
        let (start, startpos) = (&mut self.start, &self.startpos);
        self.game
            .get_or_insert_with(|| Game::new(start.take().unwrap_or_else(|| startpos.clone())))
    }

    /// The annotations of the last move of the current line, if it has one.
    fn last_notes(&mut self) -> Option<&mut Annotations> {
        match self.stack.last_mut() {
            Some(frame) => frame.line.moves.last_mut().map(|m| &mut m.notes),
            None => self.notes.last_mut(),
        }
    }
}

impl<B: MoveGen> Visitor for GameBuilder<B> {
    type Output = PgnGame<B>;

    fn begin_game(&mut self) {
        self.tags.clear();
        self.start = None;
        self.game = None;
        self.comments.clear();
        self.notes.clear();
        self.stack.clear();
        self.result = None;
    }

    fn tag(&mut self, name: &str, value: &str) -> Visit {
        if let Some(start) = start_tag::<B>(name, value)? {
            self.start = Some(start);
        }
        self.tags.set(name, value);
        Ok(())
    }

    fn end_tags(&mut self) -> Visit<Flow> {
        self.main();
        Ok(Flow::Visit)
    }

    fn san(&mut self, san: &str) -> Visit {
        match self.stack.last_mut() {
            Some(frame) => {
                let mv = parse_san(&frame.board, san).map_err(PgnErrorKind::San)?;
                let mut next = frame.board.clone();
                next.play_unchecked(mv);
                frame.before_last = Some(std::mem::replace(&mut frame.board, next));
                frame.line.moves.push(AnnotatedMove {
                    mv,
                    notes: Annotations::default(),
                });
            }
            None => {
                let game = self.main();
                let mv = parse_san(game.board(), san).map_err(PgnErrorKind::San)?;
                game.play_unchecked(mv);
                self.notes.push(Annotations::default());
            }
        }
        Ok(())
    }

    fn nag(&mut self, nag: u8) -> Visit {
        if let Some(notes) = self.last_notes() {
            notes.nags.push(nag);
        }
        Ok(())
    }

    fn comment(&mut self, comment: &str) -> Visit {
        if !self.keep_comments {
            return Ok(());
        }
        let comment = comment.to_string();
        match self.stack.last_mut() {
            Some(frame) if frame.line.moves.is_empty() => frame.line.comments.push(comment),
            None if self.notes.is_empty() => self.comments.push(comment),
            _ => {
                if let Some(notes) = self.last_notes() {
                    notes.comments.push(comment);
                }
            }
        }
        Ok(())
    }

    fn begin_variation(&mut self) -> Visit<Flow> {
        if !self.keep_variations {
            return Ok(Flow::Skip);
        }
        let base = match self.stack.last() {
            Some(frame) => frame.before_last.clone(),
            None => {
                let positions = self.main().positions();
                positions
                    .len()
                    .checked_sub(2)
                    .and_then(|i| positions.get(i))
                    .cloned()
            }
        };
        let board = base.ok_or(PgnErrorKind::VariationWithoutMove)?;
        self.stack.push(Frame {
            board,
            before_last: None,
            line: Variation::default(),
        });
        Ok(Flow::Visit)
    }

    fn end_variation(&mut self) -> Visit {
        if let Some(frame) = self.stack.pop() {
            if let Some(notes) = self.last_notes() {
                notes.variations.push(frame.line);
            }
        }
        Ok(())
    }

    fn outcome(&mut self, result: Option<GameResult>) -> Visit {
        self.result = result;
        Ok(())
    }

    fn end_game(&mut self) -> PgnGame<B> {
        self.main();
        let game = match self.game.take() {
            Some(game) => game,
            None => Game::new(self.startpos.clone()),
        };
        PgnGame {
            tags: std::mem::take(&mut self.tags),
            game,
            comments: std::mem::take(&mut self.comments),
            notes: std::mem::take(&mut self.notes),
            result: self.result.take(),
        }
    }
}
