//! What can go wrong while reading PGN: [`PgnError`] (one malformed game,
//! located by game number, line and token), [`ReadError`] (that, or the
//! input failing), and [`PgnWarning`] (something irregular the reader
//! accepted, as python-chess does).

use crate::san::SanError;
use crate::uci::UciMoveError;
use fianchetto_board::FenError;

/// What is wrong with a game, without saying where (see [`PgnError`]).
///
/// The reader produces the syntax variants; visitors return the others
/// (a SAN move that is illegal where it is played, a bad `FEN` tag, an
/// unsupported variant) from their callbacks, and the reader adds the
/// location.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PgnErrorKind {
    /// A character that cannot start any PGN token.
    #[error("unexpected character {0:?}; movetext holds move numbers, SAN moves, comments in {{braces}}, NAGs like $1, variations in (parentheses) and a result (1-0, 0-1, 1/2-1/2 or *)")]
    UnexpectedChar(char),
    /// A tag pair that is not `[Name "value"]`.
    #[error("malformed tag: {0}; a tag is written [Name \"value\"] on one line")]
    MalformedTag(&'static str),
    /// A tag pair after the first move, not at the start of a line.
    #[error("a tag inside the movetext; tags come before the moves (a tag at the start of a line begins the next game)")]
    TagInMovetext,
    /// `$` not followed by a number from 0 to 255.
    #[error("a NAG is `$` followed by a number from 0 to 255")]
    BadNag,
    /// A run of `!` and `?` that is not one of the six move annotations.
    #[error("unknown move annotation; expected !, ?, !!, ??, !? or ?!")]
    BadAnnotation,
    /// A `{` comment still open when the next game's tags start.
    #[error("the comment opened on line {opened} is not closed (missing `}}`) before the next game's tags")]
    UnterminatedComment {
        /// The line of the `{`.
        opened: u64,
    },
    /// A result token inside a variation.
    #[error("a game result inside a variation; close the variation with `)` first")]
    ResultInVariation,
    /// A variation where no move precedes it on its line.
    #[error("a variation must follow the move it is an alternative to")]
    VariationWithoutMove,
    /// A line longer than the reader's limit.
    #[error(
        "the line is longer than {max} bytes (the reader's limit; see Reader::with_max_line_len)"
    )]
    LineTooLong {
        /// The limit in bytes.
        max: usize,
    },
    /// A comment longer than the reader's limit.
    #[error("the comment is longer than {max} bytes (the reader's limit; see Reader::with_max_line_len)")]
    CommentTooLong {
        /// The limit in bytes.
        max: usize,
    },
    /// A SAN move that does not parse or is not legal where it is played.
    #[error("{0}")]
    San(SanError),
    /// A move in UCI notation that is not legal where it is played.
    #[error("{0}")]
    Uci(UciMoveError),
    /// A null move (`--`) by a side in check, which would leave its king
    /// en prise.
    #[error("a null move (--) while in check in {fen}; the side to move must answer the check")]
    NullMoveInCheck {
        /// The position.
        fen: String,
    },
    /// A `FEN` tag that does not describe a valid position.
    #[error("bad FEN tag: {0}")]
    Fen(FenError),
    /// Something valid PGN that this library does not play: a chess variant
    /// other than standard chess and Chess960, or a null move for a visitor
    /// that does not handle them.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// A user visitor refused the game, for the reason given.
    #[error("{0}")]
    Rejected(String),
}

/// A malformed game: which one, where, and why. The reader skips the rest of
/// the game and goes on with the next one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("game {game}, line {line}, at `{token}`: {kind}")]
pub struct PgnError {
    /// The game's number in the input, from 1.
    pub game: u64,
    /// The line of the offending token, from 1.
    pub line: u64,
    /// The offending token as written (cut to 40 characters).
    pub token: String,
    /// What is wrong.
    pub kind: PgnErrorKind,
}

/// What is irregular in a game that the reader read anyway.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum PgnWarningKind {
    /// A move in UCI notation (`g1f3`) rather than SAN; read as UCI.
    #[error("a move in UCI notation, not SAN (read as UCI)")]
    UciMove,
    /// A line of the tag section that is not a tag pair; passed over.
    #[error("malformed tag passed over: {0}")]
    MalformedTag(&'static str),
    /// A `)` with no `(` to close; passed over.
    #[error("`)` without a matching `(` passed over")]
    UnmatchedClose,
    /// A `(` still open at the end of the game; the variation ends there.
    #[error("a variation is not closed (missing `)`); it ends with the game")]
    UnclosedVariation,
    /// A main-line move after the game's result token; the game goes on to
    /// the blank line that ends it.
    #[error("a move after the result; the game goes on to the blank line that ends it")]
    AfterResult,
}

/// Something irregular that the reader accepted: which game, where, and
/// what (reported to [`Visitor::warning`](super::Visitor::warning) and
/// counted by [`Reader::warnings`](super::Reader::warnings)).
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("game {game}, line {line}, at `{token}`: {kind}")]
pub struct PgnWarning {
    /// The game's number in the input, from 1.
    pub game: u64,
    /// The line of the token, from 1.
    pub line: u64,
    /// The token as written (cut to 40 characters).
    pub token: String,
    /// What is irregular.
    pub kind: PgnWarningKind,
}

/// Why [`Reader::read_game`](super::Reader::read_game) returned no game.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// Reading the input failed; the reader stops here.
    #[error("reading PGN failed: {0}")]
    Io(#[from] std::io::Error),
    /// One game is malformed; reading on gives the next game.
    #[error(transparent)]
    Game(#[from] PgnError),
    /// The input holds no game at all (from [`parse_game`](super::parse_game)).
    #[error("the PGN text holds no game")]
    NoGame,
}

impl ReadError {
    /// The game error, if this is one.
    pub fn game_error(&self) -> Option<&PgnError> {
        match self {
            ReadError::Game(e) => Some(e),
            ReadError::Io(_) | ReadError::NoGame => None,
        }
    }
}

/// The longest token text an error keeps.
const MAX_TOKEN_CHARS: usize = 40;

/// `text` cut to [`MAX_TOKEN_CHARS`] characters, with `…` if cut.
pub(crate) fn token_text(text: &str) -> String {
    match text.char_indices().nth(MAX_TOKEN_CHARS) {
        None => text.to_string(),
        Some((i, _)) => format!("{}…", &text[..i]),
    }
}

/// Writes `bytes` as text for an error message, replacing invalid UTF-8.
pub(crate) fn bytes_text(bytes: &[u8]) -> String {
    token_text(&String::from_utf8_lossy(bytes))
}
