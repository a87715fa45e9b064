//! The [`Visitor`] trait: what the streaming [`Reader`](super::Reader) calls
//! for each part of a game, and the small types it passes.

use super::error::{PgnErrorKind, PgnWarning};
use crate::game::Outcome;
use fianchetto_board::Color;
use std::fmt;
use std::str::FromStr;

/// A game's result as PGN writes it: the game termination marker at the end
/// of the movetext and the value of the `Result` tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unfinished, abandoned, or not known.
    Unknown,
}

impl GameResult {
    /// The PGN text: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// The result of a finished game (see [`crate::Game::outcome`]).
    pub fn from_outcome(outcome: Outcome) -> GameResult {
        match outcome {
            Outcome::Decisive {
                winner: Color::White,
                ..
            } => GameResult::WhiteWins,
            Outcome::Decisive {
                winner: Color::Black,
                ..
            } => GameResult::BlackWins,
            Outcome::Draw(_) => GameResult::Draw,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The text is not one of the four results.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a game result; expected 1-0, 0-1, 1/2-1/2 or *")]
pub struct ParseResultError(pub String);

impl FromStr for GameResult {
    type Err = ParseResultError;
    fn from_str(s: &str) -> Result<GameResult, ParseResultError> {
        match s {
            "1-0" => Ok(GameResult::WhiteWins),
            "0-1" => Ok(GameResult::BlackWins),
            "1/2-1/2" => Ok(GameResult::Draw),
            "*" => Ok(GameResult::Unknown),
            _ => Err(ParseResultError(s.to_string())),
        }
    }
}

/// Whether the reader should report what follows or pass over it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Flow {
    /// Report it (the default).
    #[default]
    Visit,
    /// Pass over it without callbacks (it is still read, to find its end).
    Skip,
}

/// What a visitor callback returns: `Ok` to go on, or the reason the game is
/// rejected (the reader turns it into a [`PgnError`](super::PgnError) naming
/// the game, the line and the token, and goes on with the next game).
pub type Visit<T = ()> = Result<T, PgnErrorKind>;

/// Receives the parts of one game as the [`Reader`](super::Reader) reads
/// them. Every method but [`Visitor::end_game`] has a default that ignores
/// its input, so a visitor implements only what it needs.
///
/// The order of calls for one game is: `begin_game`, `tag` for each tag
/// pair, `end_tags` (once, even without tags), then for the movetext `san`,
/// `null_move`, `nag`, `comment`, `begin_variation`/`end_variation` in the
/// order they are written, then `outcome` and `end_game`; `warning` may come
/// anywhere in between. Move numbers are not reported.
/// A move annotation written as a suffix (`e4!?`) is reported as the
/// equivalent NAG (`!` 1, `?` 2, `!!` 3, `??` 4, `!?` 5, `?!` 6) after the
/// move.
///
/// When a callback returns an error, or the reader finds a syntax error, the
/// game ends there: `end_game` is not called, and the next game starts with
/// `begin_game` again (reset the visitor's state there).
///
/// ```
/// use fianchetto_movegen::pgn::{Flow, Reader, Visit, Visitor};
///
/// /// Counts the main-line moves of games won by white, skipping the rest.
/// struct WhiteWins { won: bool, moves: usize }
///
/// impl Visitor for WhiteWins {
///     type Output = Option<usize>;
///     fn begin_game(&mut self) { self.won = false; self.moves = 0; }
///     fn tag(&mut self, name: &str, value: &str) -> Visit {
///         if name == "Result" { self.won = value == "1-0"; }
///         Ok(())
///     }
///     fn end_tags(&mut self) -> Visit<Flow> {
///         Ok(if self.won { Flow::Visit } else { Flow::Skip })
///     }
///     fn begin_variation(&mut self) -> Visit<Flow> { Ok(Flow::Skip) }
///     fn san(&mut self, _san: &str) -> Visit { self.moves += 1; Ok(()) }
///     fn end_game(&mut self) -> Option<usize> { self.won.then_some(self.moves) }
/// }
///
/// let pgn = "[Result \"1-0\"]\n\n1. e4 e5 (1... c5 2. Nf3) 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n\
///            [Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
/// let mut reader = Reader::new(pgn.as_bytes());
/// let mut visitor = WhiteWins { won: false, moves: 0 };
/// assert_eq!(reader.read_game(&mut visitor)?, Some(Some(7)));
/// assert_eq!(reader.read_game(&mut visitor)?, Some(None));
/// assert_eq!(reader.read_game(&mut visitor)?, None);
/// # Ok::<(), fianchetto_movegen::pgn::ReadError>(())
/// ```
pub trait Visitor {
    /// What [`Visitor::end_game`] makes of a game.
    type Output;

    /// A game starts.
    fn begin_game(&mut self) {}

    /// A tag pair, `[name "value"]`, with the value's `\"` and `\\`
    /// escapes resolved.
    fn tag(&mut self, _name: &str, _value: &str) -> Visit {
        Ok(())
    }

    /// Whether [`Visitor::tag`] wants the tag called `name` (all of them by
    /// default). The reader makes a value text only for the tags wanted, so
    /// a visitor that reads one or two tags says which to read faster.
    fn wants_tag(&self, _name: &str) -> bool {
        true
    }

    /// The tags are over. [`Flow::Skip`] passes over the whole movetext:
    /// the next call is `outcome`.
    fn end_tags(&mut self) -> Visit<Flow> {
        Ok(Flow::Visit)
    }

    /// A move as written (check and mate marks included, annotation marks
    /// `!`/`?` reported separately through [`Visitor::nag`]): SAN, or UCI
    /// notation (`g1f3`, reported as a [`Visitor::warning`] first).
    /// [`read_move`](super::read_move) resolves both.
    fn san(&mut self, _san: &str) -> Visit {
        Ok(())
    }

    /// A null move (`--`, `Z0` or `0000`): the side to move passes. By
    /// default the game is refused with [`PgnErrorKind::Unsupported`], so
    /// that a visitor that plays the moves never loses track of whose move
    /// it is; [`GameBuilder`](super::GameBuilder) and
    /// [`Replay`](super::Replay) play them.
    fn null_move(&mut self) -> Visit {
        Err(PgnErrorKind::Unsupported("a null move (--)".into()))
    }

    /// Something irregular that the reader accepted (a move in UCI
    /// notation, a malformed tag passed over, ...). Ignored by default.
    fn warning(&mut self, _warning: &PgnWarning) {}

    /// A numeric annotation glyph: `$n`, or a move annotation suffix.
    fn nag(&mut self, _nag: u8) -> Visit {
        Ok(())
    }

    /// A comment: the text of `{...}` or of `;...` to the end of the line,
    /// with surrounding white space trimmed and each line break inside a
    /// brace comment read as a space.
    fn comment(&mut self, _comment: &str) -> Visit {
        Ok(())
    }

    /// Whether [`Visitor::comment`] wants the comments (yes by default). A
    /// visitor that ignores them answers `false`, and the reader passes over
    /// them without making them text.
    fn wants_comments(&self) -> bool {
        true
    }

    /// A variation `(` opens: an alternative to the last move. With
    /// [`Flow::Skip`] the reader passes over it to its `)`, and
    /// `end_variation` is not called for it.
    fn begin_variation(&mut self) -> Visit<Flow> {
        Ok(Flow::Visit)
    }

    /// The variation opened by the matching `begin_variation` closes.
    fn end_variation(&mut self) -> Visit {
        Ok(())
    }

    /// The game termination marker, or `None` when the game ended without
    /// one (at the end of the input, or where the next game's tags start).
    fn outcome(&mut self, _result: Option<GameResult>) -> Visit {
        Ok(())
    }

    /// The game is over: what the reader returns for it.
    fn end_game(&mut self) -> Self::Output;
}
