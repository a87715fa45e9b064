//! [`Reader`]: the streaming reader. It reads one game at a time from any
//! [`BufRead`], in constant memory, and reports it to a [`Visitor`]; after a
//! malformed game it resynchronises on the next game's tags.

use super::error::{PgnError, PgnErrorKind, PgnWarning, PgnWarningKind, ReadError};
use super::game::{GameBuilder, PgnGame};
use super::lexer::{Lexeme, ScanError, Scanner, Token};
use super::visitor::{Flow, GameResult, Visit, Visitor};
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
/// with check, mate and annotation marks, moves in UCI notation (`g1f3`,
/// read with a [`PgnWarningKind::UciMove`] warning), null moves (`--`,
/// `Z0`, `0000`), move numbers with `.` or `...` (not checked against the
/// position), comments in braces (over several lines) and after `;`, NAGs
/// `$0`..`$255`, nested variations, the results `1-0`, `0-1`, `1/2-1/2` and
/// `*`, `%` escape lines, UTF-8 byte-order marks, and `\r\n` line ends.
/// Text in tags and comments that is not UTF-8 (old Latin-1 files) is
/// passed on with the bad bytes replaced by `�`. Chess960 games (a
/// `Variant` tag such as `Chess960` or `Fischerandom`, or a `FEN` tag whose
/// castling rights need it) are read with X-FEN or Shredder-FEN castling.
///
/// Where one game ends and the next begins follows python-chess, the
/// reference reader most files are checked against:
///
/// - before a game, blank lines, `%` escape lines and `;` comment lines are
///   passed over;
/// - the tag section is the lines of tag pairs, with at most one blank line
///   between two of them (a second blank line ends a game that has only
///   tags); a line starting with `[` that is not a tag pair is passed over
///   with a [`PgnWarningKind::MalformedTag`] warning, and so is a tag pair
///   without its `[`, which begins the movetext;
/// - the movetext runs to the first blank line outside a comment, or to the
///   end of the input. The result token does not end it: a move after the
///   result still belongs to the game (with a
///   [`PgnWarningKind::AfterResult`] warning). Unlike python-chess, a line
///   of the movetext that starts with a tag pair also ends the game, so
///   that games written without a blank line between them stay apart.
///
/// When a game is malformed, [`Reader::read_game`] passes over the rest of
/// it (to the end just described) and returns a [`ReadError::Game`] naming
/// the game (from 1), the line and the token; the next call reads the game
/// after it. Every well-formed game is read, whatever precedes it.
///
/// ```
/// use fianchetto_board::Bitboards;
/// use fianchetto_movegen::pgn::{ReadError, Reader};
///
/// let pgn = "1. e4 e5 2. Ke3 1-0\n\n1. d4 d5 *\n";
/// let mut games = Reader::new(pgn.as_bytes()).games::<Bitboards>();
/// match games.next() {
///     Some(Err(ReadError::Game(e))) => {
///         assert_eq!((e.game, e.line, e.token.as_str()), (1, 1, "Ke3"));
///     }
///     other => panic!("expected an error, got {other:?}"),
/// }
/// let second = games.next().ok_or("no second game")??;
/// assert_eq!(second.game.moves().len(), 2);
/// assert!(games.next().is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Reader<R> {
    scanner: Scanner<R>,
    counts: Counts,
}

/// What a [`Reader`] has counted.
#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    /// Games begun so far.
    games: u64,
    /// Games that ended in an error.
    errors: u64,
    /// Warnings so far.
    warnings: u64,
}

impl<R: Read> Reader<BufReader<R>> {
    /// A reader over `read`, through a 64 KiB buffer.
    pub fn new(read: R) -> Reader<BufReader<R>> {
        Reader::from_buf_read(BufReader::with_capacity(BUFFER, read))
    }
}

impl Reader<BufReader<File>> {
    /// A reader over the file at `path`. The error of a file that cannot
    /// be opened names it (``cannot read PGN file `games.pgn`: No such file
    /// or directory (os error 2)``), with the system's
    /// [`ErrorKind`](std::io::ErrorKind).
    pub fn open(path: impl AsRef<Path>) -> std::io::Result<Reader<BufReader<File>>> {
        let path = path.as_ref();
        let file = File::open(path).map_err(|e| {
            std::io::Error::new(
                e.kind(),
                format!("cannot read PGN file `{}`: {e}", path.display()),
            )
        })?;
        Ok(Reader::new(file))
    }
}

/// Where a game stands while it is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Section {
    /// No token yet.
    Before,
    /// Tag pairs so far.
    Tags,
    /// Past the tags.
    Movetext,
}

/// What goes wrong first in a game, before the reader adds the game number.
struct Failure {
    kind: PgnErrorKind,
    line: u64,
    token: String,
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
            counts: Counts::default(),
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
        self.counts.games
    }

    /// How many games ended in an error.
    pub fn errors(&self) -> u64 {
        self.counts.errors
    }

    /// How many warnings were reported (see [`PgnWarning`]).
    pub fn warnings(&self) -> u64 {
        self.counts.warnings
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
        let mut game = GameState::default();
        let outcome = self.read_inner(visitor, &mut game);
        let failure = match outcome {
            Ok(()) => game.failure.take(),
            Err(e) => return Err(ReadError::Io(e)),
        };
        if game.section == Section::Before {
            return Ok(None);
        }
        match failure {
            None => Ok(Some(visitor.end_game())),
            Some(Failure { kind, line, token }) => {
                self.counts.errors += 1;
                Err(ReadError::Game(PgnError {
                    game: self.counts.games,
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

    /// Reads one game into `v`, up to its end (see [`Reader`]); the first
    /// error is left in `game.failure`, after which the rest of the game is
    /// passed over without callbacks. `Err` only when the input fails.
    fn read_inner<V: Visitor>(&mut self, v: &mut V, game: &mut GameState) -> std::io::Result<()> {
        let counts = &mut self.counts;
        let unread_comments = !v.wants_comments();
        loop {
            if unread_comments
                && game.section == Section::Movetext
                && game.failure.is_none()
                && game.skipped == 0
                && !game.skip_game
            {
                // Most moves: read here, without the token's bookkeeping
                // below, which the scanner's `next_move` makes unneeded (it
                // passes over comments itself).
                while let Some((san, line)) = self.scanner.next_move() {
                    game.last_line = line;
                    if let Err(kind) = counts.san(v, game, san, line) {
                        game.fail(kind, line, Token::San(san).text());
                        break;
                    }
                }
            }
            // Comments in the movetext mean nothing to a visitor that does
            // not read them: the scanner passes over them.
            self.scanner
                .pass_over_comments(unread_comments && game.section == Section::Movetext);
            // The token is used where the scanner returned it, by reference:
            // moved out of the result, it was read back before its bytes
            // were stored, a stall of a twentieth of reading a game.
            let next = self.scanner.next();
            let lexeme: &Lexeme<'_> = match next {
                Ok(Some(ref l)) => l,
                Ok(None) => break,
                Err(ScanError::Io(e)) => return Err(e),
                Err(ScanError::Syntax { kind, line, token }) => {
                    if game.section == Section::Before {
                        counts.begin(v, game);
                    }
                    if game.section == Section::Tags
                        && matches!(kind, PgnErrorKind::MalformedTag(_))
                    {
                        // As python-chess: a broken tag line is passed over.
                        if let PgnErrorKind::MalformedTag(reason) = kind {
                            counts.warn(v, PgnWarningKind::MalformedTag(reason), line, token);
                        }
                        continue;
                    }
                    game.fail(kind, line, token);
                    self.scanner.skip_game()?;
                    return Ok(());
                }
            };
            let line = lexeme.line;
            game.last_line = line;
            let token = &lexeme.token;
            match game.section {
                Section::Before => {
                    if matches!(token, Token::LineComment(_)) && lexeme.line_start {
                        // `;` lines before a game are passed over.
                        continue;
                    }
                    game.blanks = 0;
                    counts.begin(v, game);
                }
                Section::Tags => {
                    let among_tags = game.blanks == 0 && lexeme.blanks == 0;
                    if matches!(token, Token::LineComment(_)) && lexeme.line_start && among_tags {
                        // So are those among the tags (after a blank line,
                        // one begins the movetext: a writer's comment on the
                        // start position).
                        continue;
                    }
                    game.blanks = game.blanks.saturating_add(lexeme.blanks);
                    if game.has_tags && game.blanks >= 2 {
                        // Two blank lines after the tags: a game of tags alone.
                        self.scanner.unread();
                        break;
                    }
                    game.blanks = 0;
                }
                Section::Movetext => {
                    let next_tags = matches!(token, Token::Tag { .. }) && lexeme.line_start;
                    if lexeme.blanks > 0 || next_tags {
                        self.scanner.unread();
                        break;
                    }
                }
            }
            if let Token::Tag { name, value } = token {
                match game.section {
                    Section::Movetext => {
                        let text = token.text();
                        game.fail(PgnErrorKind::TagInMovetext, line, text);
                    }
                    _ => {
                        game.section = Section::Tags;
                        game.has_tags = true;
                        if game.visiting() && v.wants_tag(name) {
                            if let Err(k) = v.tag(name, &value.decode()) {
                                game.fail(k, line, token.text());
                            }
                        }
                    }
                }
                continue;
            }
            if game.section != Section::Movetext {
                game.section = Section::Movetext;
                if game.visiting() {
                    match v.end_tags() {
                        Ok(flow) => game.skip_game = flow == Flow::Skip,
                        Err(k) => game.fail(k, line, token.text()),
                    }
                }
            }
            if game.failure.is_some() {
                continue;
            }
            if let Err(kind) = counts.movetext(v, game, token, line) {
                game.fail(kind, line, token.text());
            }
        }
        // The end of the input, or of the game.
        if game.section == Section::Before || game.failure.is_some() {
            return Ok(());
        }
        let line = game.last_line;
        let at_end = |kind| Failure {
            kind,
            line,
            token: "end of game".into(),
        };
        if game.section != Section::Movetext {
            if let Err(k) = v.end_tags() {
                game.failure = Some(at_end(k));
                return Ok(());
            }
        }
        if game.depth > 0 || game.skipped > 0 {
            // As python-chess: the variations close with the game.
            let kind = PgnWarningKind::UnclosedVariation;
            counts.warn(v, kind, game.open_line, "(".into());
            for _ in 0..game.depth {
                if let Err(k) = v.end_variation() {
                    game.failure = Some(at_end(k));
                    return Ok(());
                }
            }
        }
        if let Err(k) = v.outcome(game.result) {
            game.failure = Some(at_end(k));
        }
        Ok(())
    }
}

impl Counts {
    /// Reports a warning about the current game.
    fn warn<V: Visitor>(&mut self, v: &mut V, kind: PgnWarningKind, line: u64, token: String) {
        self.warnings += 1;
        v.warning(&PgnWarning {
            game: self.games,
            line,
            token,
            kind,
        });
    }

    /// A game starts.
    fn begin<V: Visitor>(&mut self, v: &mut V, game: &mut GameState) {
        game.section = Section::Tags;
        self.games += 1;
        v.begin_game();
    }

    /// One movetext token, reported to `v` unless skipped.
    fn movetext<V: Visitor>(
        &mut self,
        v: &mut V,
        game: &mut GameState,
        token: &Token<'_>,
        line: u64,
    ) -> Visit {
        let skipping = game.skipped > 0 || game.skip_game;
        match *token {
            Token::Result(result) => {
                if game.depth > 0 || game.skipped > 0 {
                    return Err(PgnErrorKind::ResultInVariation);
                }
                game.result = Some(result);
            }
            Token::Open => {
                if game.depth == 0 && game.skipped == 0 {
                    game.open_line = line;
                }
                if skipping {
                    game.skipped = game.skipped.saturating_add(1);
                } else {
                    match v.begin_variation()? {
                        Flow::Visit => game.depth = game.depth.saturating_add(1),
                        Flow::Skip => game.skipped = 1,
                    }
                }
            }
            Token::Close => {
                if game.skipped > 0 {
                    game.skipped -= 1;
                } else if game.depth > 0 {
                    game.depth -= 1;
                    v.end_variation()?;
                } else {
                    // As python-chess: passed over.
                    self.warn(v, PgnWarningKind::UnmatchedClose, line, token.text());
                }
            }
            _ if skipping => {}
            Token::San(san) => self.san(v, game, san, line)?,
            Token::Null => {
                self.after_result(v, game, line, token);
                v.null_move()?;
            }
            Token::BrokenTag(_) => {
                // As python-chess, which reads it as movetext and finds no move in it.
                let kind = PgnWarningKind::MalformedTag("the opening `[` is missing");
                self.warn(v, kind, line, token.text());
            }
            Token::Nag(nag) => v.nag(nag)?,
            Token::Comment(text) | Token::LineComment(text) => {
                if v.wants_comments() {
                    v.comment(&text.decode())?;
                }
            }
            Token::Tag { .. } => {}
        }
        Ok(())
    }

    /// A move, reported to `v`.
    #[inline(always)]
    fn san<V: Visitor>(&mut self, v: &mut V, game: &mut GameState, san: &str, line: u64) -> Visit {
        let token = Token::San(san);
        self.after_result(v, game, line, &token);
        if super::start::is_uci_shaped(san) {
            self.warn(v, PgnWarningKind::UciMove, line, token.text());
        }
        v.san(san)
    }

    /// Warns, once a game, of a main-line move after the result token.
    fn after_result<V: Visitor>(
        &mut self,
        v: &mut V,
        game: &mut GameState,
        line: u64,
        token: &Token<'_>,
    ) {
        if game.result.is_some() && game.depth == 0 && !game.warned_after_result {
            game.warned_after_result = true;
            self.warn(v, PgnWarningKind::AfterResult, line, token.text());
        }
    }
}

/// What the reader knows of the game being read.
struct GameState {
    section: Section,
    has_tags: bool,
    /// Blank lines since the last tag.
    blanks: u32,
    /// The visitor asked to pass over the movetext.
    skip_game: bool,
    /// Open variations being visited, and the nesting inside a skipped one.
    depth: u32,
    skipped: u32,
    /// The line of the outermost open `(`, and of the last token.
    open_line: u64,
    last_line: u64,
    /// The last result token of the main line.
    result: Option<GameResult>,
    warned_after_result: bool,
    /// The first error; the rest of the game is passed over.
    failure: Option<Failure>,
}

impl Default for GameState {
    fn default() -> GameState {
        GameState {
            section: Section::Before,
            has_tags: false,
            blanks: 0,
            skip_game: false,
            depth: 0,
            skipped: 0,
            open_line: 0,
            last_line: 0,
            result: None,
            warned_after_result: false,
            failure: None,
        }
    }
}

impl GameState {
    /// Whether the visitor still hears of this game.
    fn visiting(&self) -> bool {
        self.failure.is_none()
    }

    /// Records the game's first error.
    fn fail(&mut self, kind: PgnErrorKind, line: u64, token: String) {
        if self.failure.is_none() {
            self.failure = Some(Failure { kind, line, token });
        }
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
