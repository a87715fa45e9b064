//! Reading a protocol line word by word, with errors that name the command
//! and the keyword a value belongs to. Shared by the command, reply, `info`
//! and `option` parsers.

use crate::ParseError;
use fianchetto_movegen::UciMove;
use std::str::FromStr;
use std::time::Duration;

/// The words of one line after its first, read left to right.
pub(crate) struct Words<'a> {
    words: Vec<&'a str>,
    next: usize,
    /// The command or reply the line is (for error messages).
    pub(crate) command: &'static str,
}

impl<'a> Words<'a> {
    pub(crate) fn new(words: &[&'a str], command: &'static str) -> Words<'a> {
        Words {
            words: words.to_vec(),
            next: 0,
            command,
        }
    }

    /// The next word, consumed.
    pub(crate) fn next(&mut self) -> Option<&'a str> {
        let w = self.words.get(self.next).copied();
        self.next += usize::from(w.is_some());
        w
    }

    /// The next word, left in place.
    pub(crate) fn peek(&self) -> Option<&'a str> {
        self.words.get(self.next).copied()
    }

    /// The value after `keyword`, which must be there.
    pub(crate) fn value(&mut self, keyword: &str) -> Result<&'a str, ParseError> {
        self.next().ok_or_else(|| ParseError::MissingValue {
            command: self.command,
            keyword: keyword.to_string(),
        })
    }

    /// The number after `keyword`; `what` says which numbers are allowed.
    pub(crate) fn number<T: FromStr>(
        &mut self,
        keyword: &str,
        what: &'static str,
    ) -> Result<T, ParseError> {
        let value = self.value(keyword)?;
        value.parse().map_err(|_| ParseError::BadNumber {
            command: self.command,
            keyword: keyword.to_string(),
            value: value.to_string(),
            expected: what,
        })
    }

    /// A whole number that cannot be negative.
    pub(crate) fn count<T: FromStr>(&mut self, keyword: &str) -> Result<T, ParseError> {
        self.number(keyword, "a non-negative whole number")
    }

    /// Milliseconds. GUIs may send a negative time when a clock ran out
    /// during a move: it reads as zero rather than refusing the command.
    pub(crate) fn millis(&mut self, keyword: &str) -> Result<Duration, ParseError> {
        let ms: i64 = self.number(keyword, "a whole number of milliseconds")?;
        Ok(Duration::from_millis(ms.max(0) as u64))
    }

    /// The words up to the next one that `stop` accepts (or the end),
    /// joined by single spaces.
    pub(crate) fn text_until(&mut self, stop: impl Fn(&str) -> bool) -> String {
        let mut parts = Vec::new();
        while let Some(w) = self.peek().filter(|w| !stop(w)) {
            parts.push(w);
            self.next += 1;
        }
        parts.join(" ")
    }

    /// `name` and the name that follows it, up to the word `end` (the
    /// `setoption name … value` and `option name … type` forms): an error
    /// when `name` or the name itself is missing.
    pub(crate) fn name_until(&mut self, end: &str) -> Result<String, ParseError> {
        let missing = |w: &Self| ParseError::MissingValue {
            command: w.command,
            keyword: "name".into(),
        };
        match self.next() {
            Some("name") => {}
            Some(other) => return Err(self.unexpected(other, "`name`")),
            None => return Err(missing(self)),
        }
        let name = self.text_until(|x| x == end);
        if name.is_empty() {
            return Err(missing(self));
        }
        Ok(name)
    }

    /// Every word left, joined by single spaces.
    pub(crate) fn rest(&mut self) -> String {
        self.text_until(|_| false)
    }

    /// The moves that follow, as long as the words are UCI moves (a list
    /// ends at the first word that is not one, as python-chess reads it).
    pub(crate) fn moves(&mut self) -> Vec<UciMove> {
        let mut moves = Vec::new();
        while let Some(mv) = self.peek().and_then(|w| w.parse::<UciMove>().ok()) {
            moves.push(mv);
            self.next += 1;
        }
        moves
    }

    /// The moves after `keyword`, every word up to `stop` (or the end)
    /// being one: a word there that is not a move is an error naming it.
    pub(crate) fn strict_moves(
        &mut self,
        keyword: &str,
        stop: impl Fn(&str) -> bool,
    ) -> Result<Vec<UciMove>, ParseError> {
        let mut moves = Vec::new();
        while let Some(w) = self.peek().filter(|w| !stop(w)) {
            let mv = w.parse::<UciMove>().map_err(|source| ParseError::BadMove {
                command: self.command,
                keyword: keyword.to_string(),
                index: moves.len() + 1,
                source,
            })?;
            moves.push(mv);
            self.next += 1;
        }
        Ok(moves)
    }

    /// An error for a word that is not what the command expects there.
    pub(crate) fn unexpected(&self, word: &str, expected: &'static str) -> ParseError {
        ParseError::Unexpected {
            command: self.command,
            word: word.to_string(),
            expected,
        }
    }
}

/// Splits a line into its first word and the rest.
pub(crate) fn split_line(line: &str) -> Option<(&str, Vec<&str>)> {
    let mut words = line.split_whitespace();
    let first = words.next()?;
    Some((first, words.collect()))
}
