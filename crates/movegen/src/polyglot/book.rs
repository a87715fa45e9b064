//! The book itself: entries, reading and checking a `.bin` file, finding a
//! position's moves and choosing one.

use super::{decode_move, encode_move, hash};
use crate::MoveGen;
use alloc::vec::Vec;
use fianchetto_board::{Board, Move};
#[cfg(feature = "std")]
use std::io::Read;
#[cfg(feature = "std")]
use std::path::{Path, PathBuf};

/// The size of one book entry in bytes.
pub const ENTRY_SIZE: usize = 16;

/// One raw entry of a Polyglot book, as stored in the file (where it is
/// big-endian).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct BookEntry {
    /// The Polyglot key of the position ([`super::hash`]).
    pub key: u64,
    /// The move in Polyglot's encoding ([`super::decode_move`] reads it).
    pub raw_move: u16,
    /// The move's weight: the higher, the more often it is chosen. Weight 0
    /// conventionally marks a deleted entry.
    pub weight: u16,
    /// Extra data some book tools keep ("learn"); usually zero.
    pub learn: u32,
}

impl BookEntry {
    /// The entry for playing `mv` with `weight` in `board` (learn data 0):
    /// what a tool writing a book needs.
    pub fn new<B: Board>(board: &B, mv: Move, weight: u16) -> BookEntry {
        BookEntry {
            key: hash(board),
            raw_move: encode_move(board, mv),
            weight,
            learn: 0,
        }
    }

    /// Reads an entry from its 16 big-endian bytes.
    pub fn from_bytes(bytes: [u8; ENTRY_SIZE]) -> BookEntry {
        let [k0, k1, k2, k3, k4, k5, k6, k7, m0, m1, w0, w1, l0, l1, l2, l3] = bytes;
        BookEntry {
            key: u64::from_be_bytes([k0, k1, k2, k3, k4, k5, k6, k7]),
            raw_move: u16::from_be_bytes([m0, m1]),
            weight: u16::from_be_bytes([w0, w1]),
            learn: u32::from_be_bytes([l0, l1, l2, l3]),
        }
    }

    /// The entry's 16 big-endian bytes, as a book file stores them.
    pub fn to_bytes(self) -> [u8; ENTRY_SIZE] {
        let mut out = [0; ENTRY_SIZE];
        out[0..8].copy_from_slice(&self.key.to_be_bytes());
        out[8..10].copy_from_slice(&self.raw_move.to_be_bytes());
        out[10..12].copy_from_slice(&self.weight.to_be_bytes());
        out[12..16].copy_from_slice(&self.learn.to_be_bytes());
        out
    }
}

/// A book move of a position: the legal move an entry stands for, with the
/// entry's weight and learn data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BookMove {
    /// The move, legal in the position it was looked up for.
    pub mv: Move,
    /// Its weight in the book.
    pub weight: u16,
    /// The entry's learn data.
    pub learn: u32,
}

/// Why a book was refused.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// The file could not be read.
    #[cfg(feature = "std")]
    #[error("cannot read the book {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        #[source]
        source: std::io::Error,
    },
    /// The length is not a whole number of entries.
    #[error("the book is {len} bytes long, not a multiple of {ENTRY_SIZE} (the size of a Polyglot entry): it is truncated or not a Polyglot book")]
    Length {
        /// The length in bytes.
        len: u64,
    },
    /// An entry's key is smaller than the one before it.
    #[error("entry {index} has key {key:016x}, below the key {previous:016x} of the entry before it: a Polyglot book is sorted by key, so this is not one (or it is damaged)")]
    Unsorted {
        /// The entry's index (0 = the first).
        index: usize,
        /// Its key.
        key: u64,
        /// The previous entry's key.
        previous: u64,
    },
}

/// A Polyglot opening book, held in memory (16 bytes an entry: a book of a
/// few megabytes is a few megabytes) and searched by binary search.
///
/// Reading checks the whole book: a length that is not a whole number of
/// entries, or keys out of order, refuse it with a [`BookError`] rather
/// than giving wrong answers later. Entries whose move is not legal in the
/// position (a damaged book, a key collision) are skipped when moves are
/// looked up.
///
/// Lookups follow python-chess's reader: [`Book::moves`] lists a position's
/// legal moves of weight at least 1 in file order, [`Book::best_move`] is
/// the first of highest weight, and [`Book::weighted_move`] picks with
/// probability proportional to weight.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    entries: Vec<BookEntry>,
}

impl Book {
    /// Reads and checks the book file at `path`.
    #[cfg(feature = "std")]
    pub fn open(path: impl AsRef<Path>) -> Result<Book, BookError> {
        let path = path.as_ref();
        let io = |source| BookError::Io {
            path: path.to_path_buf(),
            source,
        };
        let file = std::fs::File::open(path).map_err(io)?;
        // Refuse a file of the wrong size before reading it all.
        let len = file.metadata().map_err(io)?.len();
        if len % ENTRY_SIZE as u64 != 0 {
            return Err(BookError::Length { len });
        }
        // Read no more than that size: a device that never ends (a user
        // naming /dev/zero) reads as empty rather than filling memory.
        let mut bytes = Vec::new();
        file.take(len).read_to_end(&mut bytes).map_err(io)?;
        Book::from_bytes(&bytes)
    }

    /// Reads and checks a book from the bytes of a `.bin` file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() % ENTRY_SIZE != 0 {
            return Err(BookError::Length {
                len: bytes.len() as u64,
            });
        }
        let entries: Vec<BookEntry> = bytes
            .chunks_exact(ENTRY_SIZE)
            .map(|chunk| {
                let mut raw = [0; ENTRY_SIZE];
                raw.copy_from_slice(chunk);
                BookEntry::from_bytes(raw)
            })
            .collect();
        if let Some(i) = entries.windows(2).position(|w| w[1].key < w[0].key) {
            return Err(BookError::Unsorted {
                index: i + 1,
                key: entries[i + 1].key,
                previous: entries[i].key,
            });
        }
        Ok(Book { entries })
    }

    /// A book of `entries` in any order: they are sorted by key, entries of
    /// equal keys keeping their order. With [`Book::to_bytes`], this is how
    /// a book file is written.
    pub fn from_entries(mut entries: Vec<BookEntry>) -> Book {
        entries.sort_by_key(|e| e.key);
        Book { entries }
    }

    /// The book as the bytes of a `.bin` file.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.entries.iter().flat_map(|e| e.to_bytes()).collect()
    }

    /// Every entry, sorted by key.
    pub fn entries(&self) -> &[BookEntry] {
        &self.entries
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The raw entries under `key`, in file order (any weight, legal or
    /// not): a binary search.
    pub fn entries_for_key(&self, key: u64) -> &[BookEntry] {
        let start = self.entries.partition_point(|e| e.key < key);
        let len = self.entries[start..].partition_point(|e| e.key == key);
        &self.entries[start..start + len]
    }

    /// The legal moves the book gives for `board` with weight at least
    /// `min_weight`, in file order. Entries whose move is not legal here
    /// are skipped.
    pub fn moves_with_min_weight<B: MoveGen>(&self, board: &B, min_weight: u16) -> Vec<BookMove> {
        self.entries_for_key(hash(board))
            .iter()
            .filter(|e| e.weight >= min_weight)
            .filter_map(|e| {
                decode_move(board, e.raw_move).map(|mv| BookMove {
                    mv,
                    weight: e.weight,
                    learn: e.learn,
                })
            })
            .collect()
    }

    /// The legal moves the book gives for `board`, in file order, leaving
    /// out entries of weight 0 (deleted, by convention): what python-chess's
    /// `find_all` yields.
    pub fn moves<B: MoveGen>(&self, board: &B) -> Vec<BookMove> {
        self.moves_with_min_weight(board, 1)
    }

    /// [`Book::moves`], highest weight first; moves of equal weight stay in
    /// file order.
    pub fn ranked_moves<B: MoveGen>(&self, board: &B) -> Vec<BookMove> {
        let mut moves = self.moves(board);
        moves.sort_by_key(|m| core::cmp::Reverse(m.weight));
        moves
    }

    /// The move of highest weight for `board` (the first in file order
    /// among equals), or `None` when the position is not in the book.
    pub fn best_move<B: MoveGen>(&self, board: &B) -> Option<BookMove> {
        // `max_by_key` keeps the last of equal maxima: fold for the first.
        self.moves(board)
            .into_iter()
            .fold(None, |best: Option<BookMove>, m| match best {
                Some(b) if b.weight >= m.weight => Some(b),
                _ => Some(m),
            })
    }

    /// A move for `board` chosen with probability proportional to its
    /// weight, `random` being a uniformly random number (from the caller's
    /// seeded generator): the moves' weights are laid end to end in file
    /// order and `random` scaled to their total picks one. `None` when the
    /// position is not in the book.
    pub fn weighted_move<B: MoveGen>(&self, board: &B, random: u64) -> Option<BookMove> {
        let moves = self.moves(board);
        let total: u64 = moves.iter().map(|m| u64::from(m.weight)).sum();
        // Multiply-shift: `random / 2^64` of the total, below the total.
        let pick = ((u128::from(random) * u128::from(total)) >> 64) as u64;
        let mut sum = 0;
        moves.into_iter().find(|m| {
            sum += u64::from(m.weight);
            sum > pick
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_bytes_are_big_endian() {
        let e = BookEntry {
            key: 0x0102_0304_0506_0708,
            raw_move: 0x090a,
            weight: 0x0b0c,
            learn: 0x0d0e_0f10,
        };
        let bytes = e.to_bytes();
        assert_eq!(bytes, std::array::from_fn(|i| i as u8 + 1));
        assert_eq!(BookEntry::from_bytes(bytes), e);
    }

    #[test]
    fn malformed_books_are_refused() {
        assert!(matches!(
            Book::from_bytes(&[0; 17]),
            Err(BookError::Length { len: 17 })
        ));
        let entry = |key| BookEntry {
            key,
            ..BookEntry::default()
        };
        let bytes: Vec<u8> = [entry(1), entry(3), entry(2)]
            .iter()
            .flat_map(|e| e.to_bytes())
            .collect();
        let err = Book::from_bytes(&bytes).unwrap_err();
        assert!(matches!(
            err,
            BookError::Unsorted {
                index: 2,
                key: 2,
                previous: 3
            }
        ));
        assert!(err.to_string().contains("sorted by key"), "{err}");
        let empty = Book::from_bytes(&[]).unwrap();
        assert!(empty.is_empty());
        assert!(empty.entries_for_key(0).is_empty());
    }

    #[test]
    fn binary_search_finds_every_run() {
        let keys = [1u64, 1, 5, 7, 7, 7, 9, u64::MAX];
        let book = Book::from_entries(
            keys.iter()
                .enumerate()
                .map(|(i, &key)| BookEntry {
                    key,
                    weight: i as u16,
                    ..BookEntry::default()
                })
                .collect(),
        );
        for key in [0, 1, 2, 5, 7, 8, 9, u64::MAX] {
            let found = book.entries_for_key(key);
            let want: Vec<u16> = (0..keys.len())
                .filter(|&i| keys[i] == key)
                .map(|i| i as u16)
                .collect();
            let got: Vec<u16> = found.iter().map(|e| e.weight).collect();
            assert_eq!(got, want, "key {key}");
        }
    }
}
