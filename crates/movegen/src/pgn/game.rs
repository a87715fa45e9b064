//! [`PgnGame`]: a game as PGN holds it (tags, the main line as a
//! [`Game`], comments with their commands, NAGs and variations), and
//! [`GameBuilder`], the visitor that reads one, resolving every move
//! against its position.

use super::commands::Commands;
use super::error::{PgnErrorKind, PgnWarning, ReadError};
use super::start::{play_null, read_move, start_tag};
use super::tags::Tags;
use super::visitor::{Flow, GameResult, Visit, Visitor};
use super::writer::WriteError;
use crate::game::{Game, IllegalMove};
use crate::san::{San, SanError};
use crate::MoveGen;
use fianchetto_board::{Board, Move};
use std::str::FromStr;

/// What PGN attaches to a move besides the move itself.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Annotations {
    /// Numeric annotation glyphs (`$1` = good move, ... ; suffixes like `!?`
    /// are read as their NAGs), in order.
    pub nags: Vec<u8>,
    /// The free text of the comments after the move, in order, without
    /// their commands (a comment that held only commands leaves no text).
    pub comments: Vec<String>,
    /// The commands of those comments: clock, evaluation, arrows, ...
    pub commands: Commands,
    /// Alternatives to the move, each played from the position before it.
    pub variations: Vec<Variation>,
}

impl Annotations {
    /// Whether there is nothing here.
    pub fn is_empty(&self) -> bool {
        self.nags.is_empty()
            && self.comments.is_empty()
            && self.commands.is_empty()
            && self.variations.is_empty()
    }

    /// Adds a comment as read from PGN: its commands to
    /// [`commands`](Annotations::commands), its free text (if any) to
    /// [`comments`](Annotations::comments).
    pub fn add_comment(&mut self, comment: &str) {
        add_comment(&mut self.comments, &mut self.commands, comment);
    }
}

/// Splits `comment` into its commands and its free text.
fn add_comment(comments: &mut Vec<String>, commands: &mut Commands, comment: &str) {
    if !comment.contains("[%") {
        comments.push(comment.to_string());
        return;
    }
    let (found, text) = Commands::extract(comment);
    let had_commands = !found.is_empty();
    commands.clock = found.clock.or(commands.clock);
    commands.elapsed = found.elapsed.or(commands.elapsed);
    commands.eval = found.eval.or(commands.eval);
    commands.arrows.extend(found.arrows);
    commands.squares.extend(found.squares);
    if !(had_commands && text.is_empty()) {
        comments.push(text);
    }
}

/// A variation: a line of moves that replaces a move of its parent line.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Variation {
    /// The free text of the comments before the variation's first move.
    pub comments: Vec<String>,
    /// The commands of those comments.
    pub commands: Commands,
    /// The moves, the first one an alternative to the move the variation
    /// follows (a null move is [`Move::NULL`]).
    pub moves: Vec<AnnotatedMove>,
}

/// A move of a variation with its annotations.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AnnotatedMove {
    /// The move (legal in the position the variation has reached), or
    /// [`Move::NULL`] for a null move.
    pub mv: Move,
    /// Its NAGs, comments and sub-variations.
    pub notes: Annotations,
}

/// A game read from PGN, or to be written as PGN.
///
/// The main line is a [`Game`] (start position from the `FEN` tag, every
/// position and the rules; a null move is [`Move::NULL`]);
/// [`annotations(i)`](PgnGame::annotations) gives the NAGs, comments,
/// commands and variations of its move `i`.
///
/// ```
/// use core::time::Duration;
/// use fianchetto_board::Bitboards;
/// use fianchetto_movegen::pgn::{Eval, GameResult, PgnGame};
///
/// let text = "1. e4 { [%eval 0.3] [%clk 0:05:00] } 1... e5 2. Nf3 {the usual} Nc6 *";
/// let mut game: PgnGame<Bitboards> = text.parse()?;
/// assert_eq!(game.san_moves()?, ["e4", "e5", "Nf3", "Nc6"]);
/// let first = game.annotations(0).ok_or("no first move")?;
/// assert_eq!(first.commands.clock, Some(Duration::from_secs(300)));
/// assert_eq!(first.commands.eval, Some(Eval::centipawns(30)));
/// assert_eq!(game.annotations(2).map(|n| n.comments.clone()), Some(vec!["the usual".to_string()]));
/// assert!(game.annotations(9).is_none());
///
/// game.tags.set("White", "A. Player");
/// game.play_san("Bb5")?;
/// if let Some(notes) = game.annotations_mut(4) {
///     notes.nags.push(1);
///     notes.commands.clock = Some(Duration::from_secs(290));
/// }
/// game.result = Some(GameResult::Unknown);
/// let text = game.to_pgn()?;
/// assert!(text.starts_with("[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n"));
/// assert!(text.ends_with(
///     "\n\n1. e4 { [%eval 0.30] [%clk 0:05:00] } 1... e5 2. Nf3 { the usual } 2... Nc6\n\
///      3. Bb5 $1 { [%clk 0:04:50] } *\n"), "{text}");
/// let again: PgnGame<Bitboards> = text.parse()?;
/// assert_eq!(again.game.moves(), game.game.moves());
/// assert_eq!(again.notes, game.notes);
/// assert_eq!(again.tags.get("White"), Some("A. Player"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct PgnGame<B: Board> {
    /// The tag pairs, in the order read.
    pub tags: Tags,
    /// The main line.
    pub game: Game<B>,
    /// The free text of the comments before the first move.
    pub comments: Vec<String>,
    /// The commands of those comments.
    pub commands: Commands,
    /// The annotations of each main-line move (`notes[i]` for
    /// `game.moves()[i]`; missing entries count as empty: read them with
    /// [`PgnGame::annotations`]).
    pub notes: Vec<Annotations>,
    /// The game termination marker (`None`: the movetext had none).
    pub result: Option<GameResult>,
    /// What the reader found irregular in the game but read anyway (moves
    /// in UCI notation, malformed tags passed over, ...).
    pub warnings: Vec<PgnWarning>,
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
            commands: Commands::default(),
            notes,
            result: Some(result),
            warnings: Vec::new(),
        }
    }

    /// The annotations of main-line move `index` (from 0); `None` past the
    /// last move. A move without annotations gives an empty set.
    pub fn annotations(&self, index: usize) -> Option<&Annotations> {
        static EMPTY: Annotations = Annotations {
            nags: Vec::new(),
            comments: Vec::new(),
            commands: Commands {
                clock: None,
                elapsed: None,
                eval: None,
                arrows: Vec::new(),
                squares: Vec::new(),
            },
            variations: Vec::new(),
        };
        if index >= self.game.moves().len() {
            return None;
        }
        Some(self.notes.get(index).unwrap_or(&EMPTY))
    }

    /// The annotations of main-line move `index`, to change; `None` past
    /// the last move.
    pub fn annotations_mut(&mut self, index: usize) -> Option<&mut Annotations> {
        if index >= self.game.moves().len() {
            return None;
        }
        if self.notes.len() <= index {
            self.notes.resize_with(index + 1, Annotations::default);
        }
        self.notes.get_mut(index)
    }

    /// The main line in SAN, one entry a move (`--` for a null move).
    /// Fails only if the main line was changed to hold an illegal move
    /// (through [`Game::play_unchecked`]).
    pub fn san_moves(&self) -> Result<Vec<String>, IllegalMove> {
        let mut out = Vec::with_capacity(self.game.moves().len());
        let positions = self.game.positions();
        for (board, &mv) in positions.iter().zip(self.game.moves()) {
            out.push(if mv.is_null() {
                "--".to_string()
            } else {
                San::from_move(board, mv)?.to_string()
            });
        }
        Ok(out)
    }

    /// Plays a null move (`--`) on the main line (with no annotations).
    pub fn play_null(&mut self) -> Result<(), IllegalMove> {
        self.game.play_null()?;
        self.notes
            .resize_with(self.game.moves().len(), Annotations::default);
        Ok(())
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

/// An open variation while a game is read.
#[derive(Debug)]
struct Frame<B> {
    /// The position the variation has reached.
    board: B,
    /// The position before its last move (for a variation inside it).
    before_last: Option<B>,
    line: Variation,
}

impl<B> Frame<B> {
    /// `mv` was played, reaching `next`.
    fn push(&mut self, next: B, mv: Move) {
        self.before_last = Some(std::mem::replace(&mut self.board, next));
        self.line.moves.push(AnnotatedMove {
            mv,
            notes: Annotations::default(),
        });
    }
}

/// The [`Visitor`] that reads games into [`PgnGame`]s: every move (SAN, or
/// UCI notation) is resolved against its position (an illegal or ambiguous
/// one is a game error), null moves are played, the `FEN` tag sets the
/// start position (Chess960 castling read as X-FEN or Shredder-FEN), a
/// `Variant` other than standard chess or Chess960 is refused; comments
/// (split into [`Commands`] and free text), NAGs and variations are kept
/// unless switched off, and so are the reader's warnings.
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
    commands: Commands,
    notes: Vec<Annotations>,
    stack: Vec<Frame<B>>,
    result: Option<GameResult>,
    warnings: Vec<PgnWarning>,
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
            commands: Commands::default(),
            notes: Vec::new(),
            stack: Vec::new(),
            result: None,
            warnings: Vec::new(),
        }
    }

    /// Whether to read variations (`false`: skip them, unchecked).
    pub fn variations(mut self, keep: bool) -> GameBuilder<B> {
        self.keep_variations = keep;
        self
    }

    /// Whether to keep comments (`false`: the reader passes over them,
    /// which is faster).
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
        self.commands = Commands::default();
        self.notes.clear();
        self.stack.clear();
        self.result = None;
        self.warnings.clear();
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
                let mv = read_move(&frame.board, san)?;
                let mut next = frame.board.clone();
                next.play_unchecked(mv);
                frame.push(next, mv);
            }
            None => {
                let game = self.main();
                let mv = read_move(game.board(), san)?;
                game.play_unchecked(mv);
                self.notes.push(Annotations::default());
            }
        }
        Ok(())
    }

    fn null_move(&mut self) -> Visit {
        match self.stack.last_mut() {
            Some(frame) => {
                let mut next = frame.board.clone();
                play_null(&mut next)?;
                frame.push(next, Move::NULL);
            }
            None => {
                self.main()
                    .play_null()
                    .map_err(|e| PgnErrorKind::NullMoveInCheck { fen: e.fen })?;
                self.notes.push(Annotations::default());
            }
        }
        Ok(())
    }

    fn warning(&mut self, warning: &PgnWarning) {
        self.warnings.push(warning.clone());
    }

    fn nag(&mut self, nag: u8) -> Visit {
        if let Some(notes) = self.last_notes() {
            notes.nags.push(nag);
        }
        Ok(())
    }

    fn wants_comments(&self) -> bool {
        self.keep_comments
    }

    fn comment(&mut self, comment: &str) -> Visit {
        if !self.keep_comments {
            return Ok(());
        }
        match self.stack.last_mut() {
            Some(frame) if frame.line.moves.is_empty() => {
                let line = &mut frame.line;
                add_comment(&mut line.comments, &mut line.commands, comment)
            }
            None if self.notes.is_empty() => {
                add_comment(&mut self.comments, &mut self.commands, comment)
            }
            _ => {
                if let Some(notes) = self.last_notes() {
                    notes.add_comment(comment);
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
            commands: std::mem::take(&mut self.commands),
            notes: std::mem::take(&mut self.notes),
            result: self.result.take(),
            warnings: std::mem::take(&mut self.warnings),
        }
    }
}
