//! The input as numbered lines, read in constant memory: a line is copied
//! into one reused buffer (cut at a limit, so that a file without line
//! breaks cannot exhaust memory), its `\n` or `\r\n` removed, and a UTF-8
//! byte-order mark at the start of the input dropped.

use std::io::{self, BufRead};

/// The default longest line kept (1 MiB). Real PGN lines are short; a
/// game exported on one line with clock comments is a few kilobytes.
pub(crate) const DEFAULT_MAX_LINE: usize = 1 << 20;

/// Numbered lines of a [`BufRead`].
pub(crate) struct Lines<R> {
    inner: R,
    /// The current line, without its line break.
    line: Vec<u8>,
    /// The current line's number, from 1 (0 before the first).
    number: u64,
    /// Bytes consumed from `inner`.
    bytes: u64,
    /// Longest line kept; the rest of a longer line is dropped.
    max_len: usize,
    /// Whether the current line was longer than `max_len`.
    too_long: bool,
    /// Whether `inner` is exhausted.
    eof: bool,
}

impl<R: BufRead> Lines<R> {
    pub(crate) fn new(inner: R) -> Lines<R> {
        Lines {
            inner,
            line: Vec::with_capacity(256),
            number: 0,
            bytes: 0,
            max_len: DEFAULT_MAX_LINE,
            too_long: false,
            eof: false,
        }
    }

    pub(crate) fn set_max_len(&mut self, max: usize) {
        self.max_len = max.max(1);
    }

    pub(crate) fn max_len(&self) -> usize {
        self.max_len
    }

    /// The current line.
    #[inline]
    pub(crate) fn line(&self) -> &[u8] {
        &self.line
    }

    /// The current line's number (1-based).
    #[inline]
    pub(crate) fn number(&self) -> u64 {
        self.number
    }

    /// Bytes read so far.
    pub(crate) fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Whether the current line was cut at the limit.
    pub(crate) fn too_long(&self) -> bool {
        self.too_long
    }

    pub(crate) fn into_inner(self) -> R {
        self.inner
    }

    /// Moves to the next line; `false` at the end of the input.
    pub(crate) fn advance(&mut self) -> io::Result<bool> {
        self.line.clear();
        self.too_long = false;
        if self.eof {
            return Ok(false);
        }
        let mut any = false;
        loop {
            let available = match self.inner.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                self.eof = true;
                break;
            }
            any = true;
            let (take, done) = match find_newline(available) {
                Some(i) => (i + 1, true),
                None => (available.len(), false),
            };
            let room = self.max_len.saturating_sub(self.line.len());
            if take > room {
                self.line.extend_from_slice(&available[..room]);
                self.too_long = true;
            } else {
                self.line.extend_from_slice(&available[..take]);
            }
            self.inner.consume(take);
            self.bytes += take as u64;
            if done {
                break;
            }
        }
        if !any {
            return Ok(false);
        }
        self.number += 1;
        if self.line.last() == Some(&b'\n') {
            self.line.pop();
        }
        if self.line.last() == Some(&b'\r') {
            self.line.pop();
        }
        if self.number == 1 && self.line.starts_with(b"\xEF\xBB\xBF") {
            self.line.drain(..3);
        }
        Ok(true)
    }
}

/// The index of the first `\n` in `bytes`.
#[inline]
fn find_newline(bytes: &[u8]) -> Option<usize> {
    memchr::memchr(b'\n', bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &[u8], max: usize) -> Vec<(u64, Vec<u8>, bool)> {
        let mut lines = Lines::new(text);
        lines.set_max_len(max);
        let mut out = Vec::new();
        while lines.advance().unwrap_or(false) {
            out.push((lines.number(), lines.line().to_vec(), lines.too_long()));
        }
        out
    }

    #[test]
    fn splits_strips_and_limits() {
        let got = all(b"\xEF\xBB\xBFone\r\ntwo\n\nthree", 100);
        let want: Vec<(u64, Vec<u8>, bool)> = vec![
            (1, b"one".to_vec(), false),
            (2, b"two".to_vec(), false),
            (3, b"".to_vec(), false),
            (4, b"three".to_vec(), false),
        ];
        assert_eq!(got, want);
        let got = all(b"abcdefghij\nxy\n", 4);
        assert_eq!(got[0], (1, b"abcd".to_vec(), true));
        assert_eq!(got[1], (2, b"xy".to_vec(), false));
        assert!(all(b"", 10).is_empty());
    }

    #[test]
    fn newline_search_matches_position() {
        let mut text = [b'a'; 40];
        for i in 0..40 {
            text[i] = b'\n';
            assert_eq!(find_newline(&text[..]), Some(i), "{i}");
            assert_eq!(find_newline(&text[i + 1..]), None, "{i}");
            text[i] = b'a';
        }
        // Bytes with the high bit set are not newlines.
        assert_eq!(find_newline(&[0x8a; 16]), None);
    }
}
