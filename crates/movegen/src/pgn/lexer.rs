//! Tokens of PGN text, read line by line: tag pairs, SAN symbols, null
//! moves, NAGs and annotation suffixes, comments (`{...}` across lines,
//! `;...` to the end of the line), parentheses and results. Move numbers,
//! dots, `%` escape lines and byte-order marks at the start of a line are
//! passed over; blank lines are counted, since they end games. A `{`
//! comment still open when a line starts with `[` and a letter (the next
//! game's tags) is an error, so that one missing `}` costs one game rather
//! than the rest of the file.

use super::error::{bytes_text, PgnErrorKind};
use super::lines::Lines;
use super::visitor::GameResult;
use std::borrow::Cow;
use std::fmt;
use std::io::{self, BufRead};

/// One token of movetext or of the tag section.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Token<'a> {
    /// `[name "value"]`, the value unescaped.
    Tag { name: &'a str, value: Text<'a> },
    /// A symbol that is not a move number or a result: a move, as written.
    San(&'a str),
    /// A line that reads as a tag pair missing its `[` (`Event "x"]`).
    BrokenTag(Text<'a>),
    /// A null move: `--`, `Z0` or `0000`.
    Null,
    /// `$n`, or a move annotation suffix as its NAG.
    Nag(u8),
    /// A comment's text, trimmed, line breaks read as spaces.
    Comment(Text<'a>),
    /// A `;` comment's text (to the end of the line), trimmed.
    LineComment(Text<'a>),
    /// `(`.
    Open,
    /// `)`.
    Close,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    Result(GameResult),
}

impl Token<'_> {
    /// The token as it could have been written, for error messages.
    pub(crate) fn text(&self) -> String {
        let text = match self {
            Token::Tag { name, value } => format!("[{name} \"{value}\"]"),
            Token::San(s) => s.to_string(),
            Token::BrokenTag(t) => t.to_string(),
            Token::Null => "--".into(),
            Token::Nag(n) => format!("${n}"),
            Token::Comment(c) => format!("{{{c}}}"),
            Token::LineComment(c) => format!(";{c}"),
            Token::Open => "(".into(),
            Token::Close => ")".into(),
            Token::Result(r) => r.as_str().into(),
        };
        super::error::token_text(&text)
    }
}

/// The bytes of a tag value or a comment, made text only when a visitor
/// asks for it ([`Text::decode`]): most readers pass over most comments
/// and tags, and decoding them was a tenth of reading a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Text<'a>(&'a [u8]);

impl<'a> Text<'a> {
    /// The bytes as text: invalid UTF-8 replaced by `�`, a carriage return
    /// by a space (it is a line break).
    pub(crate) fn decode(self) -> Cow<'a, str> {
        let bytes = self.0;
        match std::str::from_utf8(bytes) {
            Ok(text) if !bytes.contains(&b'\r') => Cow::Borrowed(text),
            _ => Cow::Owned(String::from_utf8_lossy(bytes).replace('\r', " ")),
        }
    }
}

impl fmt::Display for Text<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.decode())
    }
}

/// A token and where it stands.
#[derive(Debug)]
pub(crate) struct Lexeme<'a> {
    pub(crate) token: Token<'a>,
    /// Its line (for a comment over several lines, the line of `{`).
    pub(crate) line: u64,
    /// Whether it is the first token of its line.
    pub(crate) line_start: bool,
    /// How many blank lines (outside comments) separate it from the
    /// previous token.
    pub(crate) blanks: u32,
}

/// Why no token could be read.
#[derive(Debug)]
pub(crate) enum ScanError {
    /// The input failed.
    Io(io::Error),
    /// The text is not PGN here.
    Syntax {
        kind: PgnErrorKind,
        line: u64,
        token: String,
    },
}

impl From<io::Error> for ScanError {
    fn from(e: io::Error) -> ScanError {
        ScanError::Io(e)
    }
}

/// Turns lines into tokens.
pub(crate) struct Scanner<R> {
    lines: Lines<R>,
    /// Where the next token search starts in the current line.
    col: usize,
    /// Whether a token was read from the current line.
    token_on_line: bool,
    /// Blank lines since the last token.
    blanks: u32,
    /// The line of the `{` of a comment that continues on the next line.
    in_comment: Option<u64>,
    /// The text so far of a comment over several lines.
    comment: Vec<u8>,
    /// An unescaped tag value.
    scratch: Vec<u8>,
    /// Whether the multi-line comment being read began its line.
    comment_line_start: bool,
    /// The last token, given back to be read again (see [`Scanner::unread`]).
    pending: Option<(Span, u64, bool)>,
    /// The last token read, for [`Scanner::unread`].
    last: Option<(Span, u64, bool)>,
    /// Whether `{` comments with no blank line before them are passed over
    /// rather than returned (see [`Scanner::pass_over_comments`]).
    pass_over_comments: bool,
}

#[inline]
fn is_space(b: u8) -> bool {
    CLASS[b as usize] & SPACE != 0
}

#[inline]
fn is_symbol(b: u8) -> bool {
    CLASS[b as usize] & SYMBOL != 0
}

/// [`CLASS`] bit: white space.
const SPACE: u8 = 1;
/// [`CLASS`] bit: passed over between movetext tokens (white space, dots).
const SEPARATOR: u8 = 2;
/// [`CLASS`] bit: a character of a SAN symbol, move number or result.
const SYMBOL: u8 = 4;

/// What each byte can be, so that the lexer's inner loops test one table
/// entry per byte.
static CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if matches!(c, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c) {
            table[b] = SPACE | SEPARATOR;
        } else if c == b'.' {
            table[b] = SEPARATOR;
        } else if c.is_ascii_alphanumeric()
            || matches!(c, b'_' | b'+' | b'#' | b'=' | b':' | b'-' | b'/')
        {
            table[b] = SYMBOL;
        }
        b += 1;
    }
    table
};

/// How many separators (white space, dots) start `rest`.
#[inline]
fn separators(rest: &[u8]) -> usize {
    rest.iter()
        .take_while(|&&b| CLASS[b as usize] & SEPARATOR != 0)
        .count()
}

/// The length of the symbol (move, move number or result) that starts
/// `rest`.
#[inline]
fn symbol_len(rest: &[u8]) -> usize {
    rest.iter().take_while(|&&b| is_symbol(b)).count()
}

/// Whether a symbol is a move number, whose dots are passed over as
/// spaces (`0000` is a null move).
#[inline]
fn is_move_number(symbol: &[u8]) -> bool {
    symbol.iter().all(u8::is_ascii_digit) && symbol != b"0000"
}

/// The index of `byte` in `bytes`.
#[inline]
fn find(bytes: &[u8], byte: u8) -> Option<usize> {
    memchr::memchr(byte, bytes)
}

/// A symbol's bytes as text, without checking them again: the lexer takes
/// into a symbol only bytes that [`is_symbol`] accepts, all ASCII (a test
/// walks the table). Checking them as UTF-8 was a twentieth of reading a
/// game.
#[inline]
fn ascii_text(symbol: &[u8]) -> &str {
    debug_assert!(symbol.iter().all(|&b| is_symbol(b)));
    // SAFETY: every byte of a symbol is ASCII (see above), and ASCII is
    // UTF-8.
    unsafe { std::str::from_utf8_unchecked(symbol) }
}

/// `bytes` without leading and trailing white space.
fn trimmed(bytes: &[u8]) -> Text<'_> {
    let start = bytes
        .iter()
        .position(|&b| !is_space(b))
        .unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|&b| !is_space(b))
        .map_or(start, |i| i + 1);
    Text(&bytes[start..end])
}

/// Whether `line` starts like a tag pair (`[` then a letter).
fn starts_tag(line: &[u8]) -> bool {
    line.first() == Some(&b'[') && line.get(1).is_some_and(u8::is_ascii_alphabetic)
}

/// Whether `line` holds nothing but white space.
fn is_blank(line: &[u8]) -> bool {
    line.iter().all(|&b| is_space(b))
}

/// Whether what follows a line's first word reads as the rest of a tag
/// pair whose `[` is missing: a quoted value, then `]` ending the line.
fn looks_like_tag_without_bracket(rest: &[u8]) -> bool {
    let rest = &rest[rest.iter().take_while(|&&b| is_space(b)).count()..];
    if rest.first() != Some(&b'"') {
        // Most lines: a move follows, not a value.
        return false;
    }
    let end = rest
        .iter()
        .rposition(|&b| !is_space(b))
        .map_or(0, |i| i + 1);
    let rest = &rest[..end];
    rest.len() >= 3 && rest[0] == b'"' && rest.ends_with(b"\"]")
}

/// The UTF-8 byte-order mark, passed over at the start of any line (files
/// joined with `cat` carry one at the start of each).
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// What a token is and where its text lies in the current line (or in the
/// scanner's buffers), before it is borrowed as a [`Token`].
#[derive(Clone, Copy, Debug)]
enum Span {
    /// A tag pair; an escaped value is in the scratch buffer.
    Tag {
        name: (usize, usize),
        value: (usize, usize),
        escaped: bool,
    },
    San(usize, usize),
    Comment(usize, usize),
    /// A comment over several lines, in the comment buffer.
    LongComment,
    LineComment(usize, usize),
    BrokenTag(usize, usize),
    Null,
    Nag(u8),
    Open,
    Close,
    Result(GameResult),
}

/// Where the parts of a tag pair lie in its line.
struct TagSpan {
    name: (usize, usize),
    value: (usize, usize),
    escaped: bool,
    end: usize,
}

/// Reads `[Name "value"]` starting at `line[start] == b'['`.
fn lex_tag(line: &[u8], start: usize) -> Result<TagSpan, &'static str> {
    let skip_spaces = |mut i: usize| {
        while i < line.len() && is_space(line[i]) {
            i += 1;
        }
        i
    };
    let mut i = skip_spaces(start + 1);
    let name_start = i;
    while i < line.len() && (line[i].is_ascii_alphanumeric() || line[i] == b'_') {
        i += 1;
    }
    if i == name_start {
        return Err("the tag name is missing or has a character other than letters, digits and _");
    }
    let name = (name_start, i);
    i = skip_spaces(i);
    if line.get(i) != Some(&b'"') {
        return Err("the value must follow the name, in double quotes");
    }
    i += 1;
    let value_start = i;
    let mut escaped = false;
    loop {
        match line.get(i) {
            None => return Err("the value's closing quote is missing"),
            Some(b'\\') if matches!(line.get(i + 1), Some(b'"' | b'\\')) => {
                escaped = true;
                i += 2;
            }
            Some(b'"') => break,
            Some(_) => i += 1,
        }
    }
    let value = (value_start, i);
    i = skip_spaces(i + 1);
    if line.get(i) != Some(&b']') {
        return Err("the closing `]` is missing");
    }
    Ok(TagSpan {
        name,
        value,
        escaped,
        end: i + 1,
    })
}

/// The NAG a run of `!` and `?` stands for.
fn suffix_nag(run: &[u8]) -> Option<u8> {
    Some(match run {
        b"!" => 1,
        b"?" => 2,
        b"!!" => 3,
        b"??" => 4,
        b"!?" => 5,
        b"?!" => 6,
        _ => return None,
    })
}

impl<R: BufRead> Scanner<R> {
    pub(crate) fn new(inner: R) -> Scanner<R> {
        Scanner {
            lines: Lines::new(inner),
            col: 0,
            token_on_line: false,
            blanks: 0,
            in_comment: None,
            comment: Vec::new(),
            scratch: Vec::new(),
            comment_line_start: false,
            pending: None,
            last: None,
            pass_over_comments: false,
        }
    }

    /// Passes over `{` comments instead of returning them, for a reader in
    /// a game's movetext whose visitor does not read comments (half the
    /// tokens of a file with clock comments). A comment after a blank line
    /// is still returned: it may begin the next game. The comment is still
    /// followed to its end, so that errors and line numbers stay the same.
    pub(crate) fn pass_over_comments(&mut self, on: bool) {
        self.pass_over_comments = on;
    }

    pub(crate) fn set_max_len(&mut self, max: usize) {
        self.lines.set_max_len(max);
    }

    pub(crate) fn line_number(&self) -> u64 {
        self.lines.number()
    }

    pub(crate) fn bytes(&self) -> u64 {
        self.lines.bytes()
    }

    pub(crate) fn into_inner(self) -> R {
        self.lines.into_inner()
    }

    fn syntax(&self, kind: PgnErrorKind, line: u64, token: String) -> ScanError {
        ScanError::Syntax { kind, line, token }
    }

    /// Reads the next line; `false` at the end of the input.
    fn next_line(&mut self) -> Result<bool, ScanError> {
        if !self.lines.advance()? {
            return Ok(false);
        }
        self.col = 0;
        self.token_on_line = false;
        let number = self.lines.number();
        if self.lines.too_long() {
            self.col = self.lines.line().len();
            self.in_comment = None;
            let token = bytes_text(self.lines.line());
            let max = self.lines.max_len();
            return Err(self.syntax(PgnErrorKind::LineTooLong { max }, number, token));
        }
        let line = self.lines.line();
        if line.starts_with(BOM) {
            self.col = BOM.len();
        }
        let line = &line[self.col..];
        if let Some(opened) = self.in_comment {
            if starts_tag(line) {
                // The next game's tags: read them again as such.
                self.in_comment = None;
                let kind = PgnErrorKind::UnterminatedComment { opened };
                return Err(self.syntax(kind, opened, "{".into()));
            }
            // The line break reads as a space (an empty line's too).
            self.comment.push(b' ');
        } else if line.first() == Some(&b'%') {
            // An escape line: private data for other programs.
            self.col = self.lines.line().len();
        } else if is_blank(line) {
            self.blanks = self.blanks.saturating_add(1);
            self.col = self.lines.line().len();
        }
        Ok(true)
    }

    /// Reads the next token; `None` at the end of the input.
    pub(crate) fn next(&mut self) -> Result<Option<Lexeme<'_>>, ScanError> {
        let (span, line, line_start, blanks) = match self.pending.take() {
            Some((span, line, line_start)) => (span, line, line_start, 0),
            None => match self.scan()? {
                Some(found) => found,
                None => return Ok(None),
            },
        };
        self.last = Some((span, line, line_start));
        let text = self.lines.line();
        let token = match span {
            Span::Tag {
                name,
                value,
                escaped,
            } => Token::Tag {
                // Letters, digits and `_` only (`lex_tag`): symbol bytes.
                name: ascii_text(&text[name.0..name.1]),
                value: if escaped {
                    Text(&self.scratch)
                } else {
                    Text(&text[value.0..value.1])
                },
            },
            Span::San(a, b) => Token::San(ascii_text(&text[a..b])),
            Span::Comment(a, b) => Token::Comment(trimmed(&text[a..b])),
            Span::LongComment => Token::Comment(trimmed(&self.comment)),
            Span::LineComment(a, b) => Token::LineComment(trimmed(&text[a..b])),
            Span::BrokenTag(a, b) => Token::BrokenTag(trimmed(&text[a..b])),
            Span::Null => Token::Null,
            Span::Nag(n) => Token::Nag(n),
            Span::Open => Token::Open,
            Span::Close => Token::Close,
            Span::Result(r) => Token::Result(r),
        };
        Ok(Some(Lexeme {
            token,
            line,
            line_start,
            blanks,
        }))
    }

    /// The next move of the current line, for a reader in a game's
    /// movetext whose visitor reads no comments: separators, move numbers
    /// and comments closed on the line are passed over on the way. `None`
    /// for anything else (the end of the line, the first token of a line,
    /// a token after blank lines, other tokens, a pending one), left for
    /// [`Scanner::next`] to read. Most of a file's moves are read here,
    /// without building a [`Lexeme`] for each and the reader's bookkeeping
    /// of it: that was an eighth of the instructions of reading a game.
    #[inline]
    pub(crate) fn next_move(&mut self) -> Option<(&str, u64)> {
        let (start, end) = self.find_move()?;
        // Symbol bytes only (`is_symbol`).
        let symbol = ascii_text(&self.lines.line()[start..end]);
        Some((symbol, self.lines.number()))
    }

    /// Where [`Scanner::next_move`]'s move lies in the current line (the
    /// span, not the text: a borrow of the line returned from the loop
    /// would outlive the loop's own mutations of `self`).
    #[inline(always)]
    fn find_move(&mut self) -> Option<(usize, usize)> {
        if self.pending.is_some() || self.in_comment.is_some() || self.blanks > 0 {
            return None;
        }
        let line = self.lines.line();
        loop {
            self.col += separators(line.get(self.col..)?);
            let start = self.col;
            let &b = line.get(start)?;
            if !self.token_on_line {
                // A line's first token may be a tag: `next` reads it.
                return None;
            }
            if b == b'{' {
                let close = find(&line[start + 1..], b'}')?;
                self.col = start + 2 + close;
                continue;
            }
            if !b.is_ascii_alphanumeric() || b == b'Z' {
                return None;
            }
            let end = start + symbol_len(&line[start..]);
            let symbol = &line[start..end];
            if b.is_ascii_digit() {
                if is_move_number(symbol) {
                    self.col = end;
                    continue;
                }
                // A result, or a null move.
                return None;
            }
            if symbol == b"e" {
                // Perhaps `e.p.`.
                return None;
            }
            self.col = end;
            return Some((start, end));
        }
    }

    /// Finds the next token: what it is and where it lies, its line,
    /// whether it starts its line, and the blank lines before it.
    fn scan(&mut self) -> Result<Option<(Span, u64, bool, u32)>, ScanError> {
        loop {
            if self.col >= self.lines.line().len() {
                if !self.next_line()? {
                    return match self.in_comment.take() {
                        Some(opened) => Err(self.syntax(
                            PgnErrorKind::UnterminatedComment { opened },
                            opened,
                            "{".into(),
                        )),
                        None => Ok(None),
                    };
                }
                continue;
            }
            if let Some(opened) = self.in_comment {
                if self.continue_comment()? {
                    self.in_comment = None;
                    self.token_on_line = true;
                    if self.pass_over_comments && self.blanks == 0 {
                        continue;
                    }
                    let blanks = std::mem::take(&mut self.blanks);
                    return Ok(Some((
                        Span::LongComment,
                        opened,
                        self.comment_line_start,
                        blanks,
                    )));
                }
                continue;
            }
            let line = self.lines.line();
            let number = self.lines.number();
            self.col += separators(&line[self.col..]);
            let start = self.col;
            let Some(&b) = line.get(start) else {
                continue;
            };
            let (span, end) = match b {
                b'{' => match find(&line[start + 1..], b'}') {
                    Some(i) if self.pass_over_comments && self.blanks == 0 => {
                        self.col = start + 2 + i;
                        self.token_on_line = true;
                        continue;
                    }
                    Some(i) => (Span::Comment(start + 1, start + 1 + i), start + 2 + i),
                    None => {
                        let rest = &line[start + 1..];
                        if rest.len() > self.lines.max_len() {
                            let max = self.lines.max_len();
                            return Err(self.syntax(
                                PgnErrorKind::CommentTooLong { max },
                                number,
                                "{".into(),
                            ));
                        }
                        self.comment.clear();
                        self.comment.extend_from_slice(rest);
                        self.in_comment = Some(number);
                        self.comment_line_start = !self.token_on_line;
                        self.token_on_line = true;
                        self.col = line.len();
                        continue;
                    }
                },
                b';' => (Span::LineComment(start + 1, line.len()), line.len()),
                b'-' if line.get(start + 1) == Some(&b'-') => (Span::Null, start + 2),
                b'(' => (Span::Open, start + 1),
                b')' => (Span::Close, start + 1),
                b'*' => (Span::Result(GameResult::Unknown), start + 1),
                b'$' => {
                    let digits = line[start + 1..]
                        .iter()
                        .take_while(|b| b.is_ascii_digit())
                        .count();
                    let end = start + 1 + digits;
                    let nag = std::str::from_utf8(&line[start + 1..end])
                        .ok()
                        .filter(|d| !d.is_empty())
                        .and_then(|d| d.parse::<u8>().ok());
                    match nag {
                        Some(n) => (Span::Nag(n), end),
                        None => {
                            let token = bytes_text(&line[start..end]);
                            return Err(self.syntax(PgnErrorKind::BadNag, number, token));
                        }
                    }
                }
                b'!' | b'?' => {
                    let len = line[start..]
                        .iter()
                        .take_while(|&&b| b == b'!' || b == b'?')
                        .count();
                    let run = &line[start..start + len];
                    match suffix_nag(run) {
                        Some(n) => (Span::Nag(n), start + len),
                        None => {
                            let token = bytes_text(run);
                            return Err(self.syntax(PgnErrorKind::BadAnnotation, number, token));
                        }
                    }
                }
                b'[' => match lex_tag(line, start) {
                    Ok(tag) => {
                        if tag.escaped {
                            let raw = &line[tag.value.0..tag.value.1];
                            self.scratch.clear();
                            let mut i = 0;
                            while i < raw.len() {
                                if raw[i] == b'\\' && i + 1 < raw.len() {
                                    i += 1;
                                }
                                self.scratch.push(raw[i]);
                                i += 1;
                            }
                        }
                        let span = Span::Tag {
                            name: tag.name,
                            value: tag.value,
                            escaped: tag.escaped,
                        };
                        (span, tag.end)
                    }
                    Err(reason) => {
                        // The rest of the line is the malformed tag.
                        let token = bytes_text(&line[start..]);
                        self.col = line.len();
                        self.token_on_line = true;
                        return Err(self.syntax(PgnErrorKind::MalformedTag(reason), number, token));
                    }
                },
                b if b.is_ascii_alphanumeric() => {
                    let end = start + symbol_len(&line[start..]);
                    let symbol = &line[start..end];
                    if !self.token_on_line && looks_like_tag_without_bracket(&line[end..]) {
                        (Span::BrokenTag(start, line.len()), line.len())
                    } else {
                        if is_move_number(symbol) {
                            self.col = end;
                            self.token_on_line = true;
                            continue;
                        }
                        if symbol == b"e" && line[end..].starts_with(b".p.") {
                            // `exd6 e.p.`: the en-passant mark, passed over.
                            self.col = end + 3;
                            continue;
                        }
                        let span = match symbol {
                            b"1-0" => Span::Result(GameResult::WhiteWins),
                            b"0-1" => Span::Result(GameResult::BlackWins),
                            b"1/2-1/2" => Span::Result(GameResult::Draw),
                            b"Z0" | b"0000" => Span::Null,
                            _ => Span::San(start, end),
                        };
                        (span, end)
                    }
                }
                _ => {
                    let c = String::from_utf8_lossy(&line[start..])
                        .chars()
                        .next()
                        .unwrap_or(char::REPLACEMENT_CHARACTER);
                    let token = c.to_string();
                    return Err(self.syntax(PgnErrorKind::UnexpectedChar(c), number, token));
                }
            };
            self.col = end;
            let line_start = !self.token_on_line;
            self.token_on_line = true;
            let blanks = std::mem::take(&mut self.blanks);
            return Ok(Some((span, number, line_start, blanks)));
        }
    }

    /// Goes on with a comment from an earlier line; `true` when it closes on
    /// this one.
    fn continue_comment(&mut self) -> Result<bool, ScanError> {
        let line = self.lines.line();
        let rest = &line[self.col..];
        let (part, closed) = match find(rest, b'}') {
            Some(i) => (&rest[..i], Some(self.col + i + 1)),
            None => (rest, None),
        };
        if self.comment.len() + part.len() > self.lines.max_len() {
            let max = self.lines.max_len();
            let opened = self.in_comment.take().unwrap_or(self.lines.number());
            return Err(self.syntax(PgnErrorKind::CommentTooLong { max }, opened, "{".into()));
        }
        self.comment.extend_from_slice(part);
        match closed {
            Some(end) => {
                self.col = end;
                Ok(true)
            }
            None => {
                self.col = line.len();
                Ok(false)
            }
        }
    }

    /// Makes the token read last the next one again (the first token of
    /// the next game, found while looking for the end of this one). Nothing
    /// may be read in between: its text is still in the scanner's buffers.
    pub(crate) fn unread(&mut self) {
        self.pending = self.last.take();
    }

    /// After an error in a game's movetext: passes over the rest of the
    /// game, as far as a blank line outside comments, a line starting with a
    /// tag pair (the next game's tags, left to be read) or the end of the
    /// input. Comments are followed, so that a blank line or a `;` inside
    /// one does not end the game early.
    pub(crate) fn skip_game(&mut self) -> io::Result<()> {
        self.pending = None;
        let mut in_comment = self.in_comment.take().is_some();
        self.comment.clear();
        self.blanks = 0;
        let mut fresh = self.col == 0;
        loop {
            let line = self.lines.line();
            let start = if line.starts_with(BOM) { BOM.len() } else { 0 };
            if fresh && !self.lines.too_long() {
                let rest = &line[start..];
                if starts_tag(rest) {
                    // The next game's tags (a comment left open ends here too).
                    self.col = start;
                    self.token_on_line = false;
                    return Ok(());
                }
                if !in_comment && is_blank(rest) {
                    self.col = line.len();
                    return Ok(());
                }
                if !in_comment && rest.first() == Some(&b'%') {
                    self.col = line.len();
                }
            }
            for &b in line.get(self.col..).unwrap_or_default() {
                match b {
                    b'{' if !in_comment => in_comment = true,
                    b'}' if in_comment => in_comment = false,
                    b';' if !in_comment => break,
                    _ => {}
                }
            }
            self.col = 0;
            self.token_on_line = false;
            if !self.lines.advance()? {
                return Ok(());
            }
            fresh = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every token of `text` with its line, or the first error.
    fn tokens(text: &str) -> Result<Vec<(u64, String)>, (PgnErrorKind, u64, String)> {
        let mut scanner = Scanner::new(text.as_bytes());
        let mut out = Vec::new();
        loop {
            match scanner.next() {
                Ok(Some(l)) => out.push((l.line, l.token.text())),
                Ok(None) => return Ok(out),
                Err(ScanError::Syntax { kind, line, token }) => return Err((kind, line, token)),
                Err(ScanError::Io(e)) => panic!("{e}"),
            }
        }
    }

    fn texts(text: &str) -> Vec<String> {
        match tokens(text) {
            Ok(t) => t.into_iter().map(|(_, s)| s).collect(),
            Err(e) => panic!("{text:?}: {e:?}"),
        }
    }

    #[test]
    fn symbol_bytes_are_ascii() {
        // What `ascii_text` relies on.
        for b in 0..=255u8 {
            assert!(!is_symbol(b) || b.is_ascii(), "{b:#x}");
        }
        assert_eq!(ascii_text(b"Nf3+"), "Nf3+");
    }

    #[test]
    fn movetext_tokens() {
        assert_eq!(
            texts("1.e4 e5!? 2. Nf3 $14 (2. f4?! exf4) 2... Nc6 {a\ncomment} ; rest\n1/2-1/2"),
            [
                "e4",
                "e5",
                "$5",
                "Nf3",
                "$14",
                "(",
                "f4",
                "$6",
                "exf4",
                ")",
                "Nc6",
                "{a comment}",
                ";rest",
                "1/2-1/2"
            ]
        );
        // Null moves in their three spellings.
        assert_eq!(texts("1. e4 -- 2. Z0 0000"), ["e4", "--", "--", "--"]);
        assert_eq!(
            texts("[Event \"a \\\"b\\\" \\\\ c\"]\n[Site\t\"x\" ]\n\n1-0 0-1 *"),
            [
                "[Event \"a \"b\" \\ c\"]",
                "[Site \"x\"]",
                "1-0",
                "0-1",
                "*"
            ]
        );
        // `%` escapes a line only in the first column.
        assert_eq!(texts("% escape ( {\ne4"), ["e4"]);
        // Each line break in a comment is a space, an empty line's too.
        assert_eq!(texts("{a\n\n b\r\nc }"), ["{a   b c}"]);
        assert_eq!(texts("\u{feff}e4\r\n"), ["e4"]);
        // A byte-order mark at the start of any line (files joined by cat).
        assert_eq!(texts("e4\n\u{feff}e5\n"), ["e4", "e5"]);
    }

    #[test]
    fn blank_lines_are_counted_outside_comments() {
        let mut scanner = Scanner::new("e4\n\n \n{a\n\nb} e5\n\ne6".as_bytes());
        let mut blanks = Vec::new();
        while let Ok(Some(l)) = scanner.next() {
            blanks.push((l.token.text(), l.blanks));
        }
        assert_eq!(
            blanks,
            [
                ("e4".into(), 0),
                ("{a  b}".into(), 2),
                ("e5".into(), 0),
                ("e6".into(), 1)
            ]
        );
    }

    #[test]
    fn errors_name_line_and_token() {
        assert_eq!(
            tokens("e4\ne5 $300"),
            Err((PgnErrorKind::BadNag, 2, "$300".into()))
        );
        assert_eq!(
            tokens("e4 !!!"),
            Err((PgnErrorKind::BadAnnotation, 1, "!!!".into()))
        );
        assert_eq!(
            tokens(" % not an escape"),
            Err((PgnErrorKind::UnexpectedChar('%'), 1, "%".into()))
        );
        assert_eq!(
            tokens("e4 <e5>"),
            Err((PgnErrorKind::UnexpectedChar('<'), 1, "<".into()))
        );
        assert_eq!(
            tokens("[Event \"x]"),
            Err((
                PgnErrorKind::MalformedTag("the value's closing quote is missing"),
                1,
                "[Event \"x]".into()
            ))
        );
        assert_eq!(
            tokens("e4 {open\nmore\n[Event \"next\"]"),
            Err((
                PgnErrorKind::UnterminatedComment { opened: 1 },
                1,
                "{".into()
            ))
        );
    }
}
