//! [`Reader`]: the streaming reader. It reads one game at a time from any
//! [`BufRead`], in constant memory, and reports it to a [`Visitor`]; after a
//! malformed game it resynchronises on the next game's tags.

use super::error::{PgnError, PgnErrorKind, ReadError};
use super::game::{GameBuilder, PgnGame};
use super::lexer::{Lexeme, ScanError, Scanner, Token};
use super::visitor::{Flow, Visitor};
use crate::MoveGen;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// The buffer [`Reader::new`] puts in front of a plain [`Read`].
const BUFFER: usize = 64 * 1024;

/// Reads PGN games one at a time from a byte stream.
///
/// Memory use does not grow with the input: one line (at most
/// [`Reader::with_max_line_len`] bytes, 1 MiB by default) and one comment
/// are held at a time, so a multi-gigabyte database reads like a small file.
///
/// What the reader accepts: tag pairs (several on a line too), SAN moves
/// with check, mate and annotation marks, move numbers with `.` or `...`
/// (not checked against the position), comments in braces (over several
/// lines) and after `;`, NAGs `$0`..`$255`, nested variations, the results
/// `1-0`, `0-1`, `1/2-1/2` and `*`, `%` escape lines, a UTF-8 byte-order
/// mark, and `\r\n` line ends. Text in tags and comments that is not UTF-8
/// (old Latin-1 files) is passed on with the bad bytes replaced by `�`.
///
/// A game ends at its result token; without one, where a tag pair starts a
/// line after the movetext (or after a blank line following the tags), or at
/// the end of the input.
///
/// When a game is malformed, [`Reader::read_game`] returns a
/// [`ReadError::Game`] naming the game (from 1), the line and the token; the
/// next call skips the rest of that game (up to the next line that starts
/// with `[` and does not follow another such line) and reads the game after.
///
/// ```
/// use fianchetto_board::Bitboards;
/// use fianchetto_movegen::pgn::{ReadError, Reader};
///
/// let pgn = "1. e4 e5 2. Ke3 1-0\n\n[Event \"next\"]\n\n1. d4 d5 *\n";
/// let mut games = Reader::new(pgn.as_bytes()).games::<Bitboards>();
/// match games.next() {
///     Some(Err(ReadError::Game(e))) => {
///         assert_eq!((e.game, e.line, e.token.as_str()), (1, 1, "Ke3"));
///     }
///     other => panic!("expected an error, got {other:?}"),
/// }
/// let second = games.next().ok_or("no second game")??;
/// assert_eq!(second.tags.get("Event"), Some("next"));
/// assert_eq!(second.game.moves().len(), 2);
/// assert!(games.next().is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Reader<R> {
    scanner: Scanner<R>,
    /// Games begun so far.
    games: u64,
    /// Games that ended in an error.
    errors: u64,
    /// The last game ended in an error: skip to the next one first.
    resync: bool,
}

impl<R: Read> Reader<BufReader<R>> {
    /// A reader over `read`, through a 64 KiB buffer.
    pub fn new(read: R) -> Reader<BufReader<R>> {
        Reader::from_buf_read(BufReader::with_capacity(BUFFER, read))
    }
}

impl Reader<BufReader<File>> {
    /// A reader over the file at `path`.
    pub fn open(path: impl AsRef<Path>) -> std::io::Result<Reader<BufReader<File>>> {
        Ok(Reader::new(File::open(path)?))
    }
}

/// How a game failed, before the reader adds the game number.
enum Failure {
    Io(std::io::Error),
    Game {
        kind: PgnErrorKind,
        line: u64,
        token: String,
    },
}

impl Failure {
    fn at(kind: PgnErrorKind, lexeme_line: u64, token: String) -> Failure {
        Failure::Game {
            kind,
            line: lexeme_line,
            token,
        }
    }
}

/// A visitor that passes over everything.
struct SkipAll;

impl Visitor for SkipAll {
    type Output = ();
    fn end_tags(&mut self) -> super::Visit<Flow> {
        Ok(Flow::Skip)
    }
    fn end_game(&mut self) {}
}

impl<R: BufRead> Reader<R> {
    /// A reader over a buffered input (a `&[u8]` is one).
    pub fn from_buf_read(input: R) -> Reader<R> {
        Reader {
            scanner: Scanner::new(input),
            games: 0,
            errors: 0,
            resync: false,
        }
    }

    /// Sets the longest line, and the longest comment, the reader accepts
    /// (in bytes; 1 MiB by default). A longer one is a game error rather
    /// than a reason to buffer without bound.
    pub fn with_max_line_len(mut self, max: usize) -> Reader<R> {
        self.scanner.set_max_len(max);
        self
    }

    /// How many games have been begun (read, failed or skipped).
    pub fn games_read(&self) -> u64 {
        self.games
    }

    /// How many games ended in an error.
    pub fn errors(&self) -> u64 {
        self.errors
    }

    /// How many bytes of input have been consumed (for progress bars).
    pub fn bytes_read(&self) -> u64 {
        self.scanner.bytes()
    }

    /// The number of the line read last (from 1).
    pub fn line(&self) -> u64 {
        self.scanner.line_number()
    }

    /// The input, given back.
    pub fn into_inner(self) -> R {
        self.scanner.into_inner()
    }

    /// Reads the next game and reports it to `visitor`.
    ///
    /// `Ok(None)` at the end of the input. A malformed game (or one the
    /// visitor rejects) is a [`ReadError::Game`], and the next call goes on
    /// with the following game; a [`ReadError::Io`] means the input failed.
    pub fn read_game<V: Visitor>(
        &mut self,
        visitor: &mut V,
    ) -> Result<Option<V::Output>, ReadError> {
        if std::mem::take(&mut self.resync) {
            self.scanner.skip_to_next_game()?;
        }
        match self.read_inner(visitor) {
            Ok(out) => {
                self.scanner.clear_game_start();
                Ok(out)
            }
            Err(Failure::Io(e)) => Err(ReadError::Io(e)),
            Err(Failure::Game { kind, line, token }) => {
                self.errors += 1;
                self.resync = true;
                Err(ReadError::Game(PgnError {
                    game: self.games,
                    line,
                    token,
                    kind,
                }))
            }
        }
    }

    /// Passes over the next game; `false` at the end of the input. Syntax
    /// errors inside it are still reported (as by [`Reader::read_game`]).
    pub fn skip_game(&mut self) -> Result<bool, ReadError> {
        Ok(self.read_game(&mut SkipAll)?.is_some())
    }

    /// Every remaining game, read into [`PgnGame`]s on the board `B`.
    pub fn games<B: MoveGen>(self) -> Games<R, GameBuilder<B>> {
        self.games_with(GameBuilder::new())
    }

    /// Every remaining game, reported to `visitor`: an iterator over what
    /// its [`Visitor::end_game`] returns, with an error for each malformed
    /// game. It ends at the end of the input or after an input error.
    pub fn games_with<V: Visitor>(self, visitor: V) -> Games<R, V> {
        Games {
            reader: self,
            visitor,
            done: false,
        }
    }

    fn read_inner<V: Visitor>(&mut self, v: &mut V) -> Result<Option<V::Output>, Failure> {
        let mut started = false;
        let mut movetext = false;
        let mut has_tags = false;
        let mut skip_game = false;
        // Open variations being visited, and the nesting inside a skipped one.
        let mut depth = 0u32;
        let mut skipped = 0u32;
        // The line of the outermost open `(`, and of the last token.
        let mut open_line = 0;
        let mut last_line = 0;
        let mut next_game = false;
        loop {
            let lexeme: Lexeme<'_> = match self.scanner.next() {
                Ok(Some(l)) => l,
                Ok(None) => break,
                Err(ScanError::Io(e)) => return Err(Failure::Io(e)),
                Err(ScanError::Syntax { kind, line, token }) => {
                    if !started {
                        self.games += 1;
                    }
                    return Err(Failure::at(kind, line, token));
                }
            };
            let line = lexeme.line;
            last_line = line;
            if !started {
                started = true;
                self.games += 1;
                v.begin_game();
            }
            if let Token::Tag { name, value } = &lexeme.token {
                let ends_game = if movetext {
                    if !lexeme.line_start {
                        return Err(Failure::at(
                            PgnErrorKind::TagInMovetext,
                            line,
                            lexeme.token.text(),
                        ));
                    }
                    true
                } else {
                    has_tags && lexeme.after_blank
                };
                if ends_game {
                    self.scanner.unread();
                    next_game = true;
                    break;
                }
                has_tags = true;
                v.tag(name, value)
                    .map_err(|k| Failure::at(k, line, lexeme.token.text()))?;
                continue;
            }
            let token = lexeme.token;
            let fail =
                |kind: PgnErrorKind, token: &Token<'_>| Failure::at(kind, line, token.text());
            if !movetext {
                movetext = true;
                skip_game = v.end_tags().map_err(|k| fail(k, &token))? == Flow::Skip;
            }
            match token {
                Token::Result(result) => {
                    if depth > 0 || skipped > 0 {
                        return Err(fail(PgnErrorKind::ResultInVariation, &token));
                    }
                    v.outcome(Some(result)).map_err(|k| fail(k, &token))?;
                    return Ok(Some(v.end_game()));
                }
                Token::Open => {
                    if depth == 0 && skipped == 0 {
                        open_line = line;
                    }
                    if skipped > 0 || skip_game {
                        skipped = skipped.saturating_add(1);
                    } else {
                        match v.begin_variation().map_err(|k| fail(k, &token))? {
                            Flow::Visit => depth = depth.saturating_add(1),
                            Flow::Skip => skipped = 1,
                        }
                    }
                }
                Token::Close => {
                    if skipped > 0 {
                        skipped -= 1;
                    } else if depth > 0 {
                        depth -= 1;
                        v.end_variation().map_err(|k| fail(k, &token))?;
                    } else {
                        return Err(fail(PgnErrorKind::UnmatchedClose, &token));
                    }
                }
                _ if skipped > 0 || skip_game => {}
                Token::San(san) => v.san(san).map_err(|k| fail(k, &token))?,
                Token::Nag(nag) => v.nag(nag).map_err(|k| fail(k, &token))?,
                Token::Comment(ref text) => v.comment(text).map_err(|k| fail(k, &token))?,
                Token::Tag { .. } => {}
            }
        }
        // The end of the input, or the next game's tags.
        if !started {
            return Ok(None);
        }
        if next_game {
            // An error from here on must not skip the next game's tags.
            self.scanner.mark_game_start();
        }
        let at_end = |kind| Failure::at(kind, last_line, "end of game".into());
        if !movetext {
            v.end_tags().map_err(at_end)?;
        }
        if depth > 0 || skipped > 0 {
            return Err(Failure::at(
                PgnErrorKind::UnclosedVariation,
                open_line,
                "(".into(),
            ));
        }
        v.outcome(None).map_err(at_end)?;
        Ok(Some(v.end_game()))
    }
}

/// An iterator over the games of a [`Reader`] (see [`Reader::games`] and
/// [`Reader::games_with`]).
pub struct Games<R, V> {
    reader: Reader<R>,
    visitor: V,
    done: bool,
}

impl<R, V> Games<R, V> {
    /// The reader, for its counters ([`Reader::bytes_read`], ...).
    pub fn reader(&self) -> &Reader<R> {
        &self.reader
    }

    /// The reader and the visitor, given back.
    pub fn into_parts(self) -> (Reader<R>, V) {
        (self.reader, self.visitor)
    }
}

impl<R: BufRead, V: Visitor> Iterator for Games<R, V> {
    type Item = Result<V::Output, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.reader.read_game(&mut self.visitor) {
            Ok(Some(game)) => Some(Ok(game)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e @ ReadError::Io(_)) => {
                self.done = true;
                Some(Err(e))
            }
            Err(e) => Some(Err(e)),
        }
    }
}

/// Reads the first game of `text` into a [`PgnGame`] (the same as
/// `text.parse()`).
pub fn parse_game<B: MoveGen>(text: &str) -> Result<PgnGame<B>, ReadError> {
    let mut reader = Reader::from_buf_read(text.as_bytes());
    reader
        .read_game(&mut GameBuilder::new())?
        .ok_or(ReadError::NoGame)
}
