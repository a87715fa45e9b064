//! EPD (Extended Position Description): a position (the first four FEN
//! fields) and operations, one record a line, the format of test suites
//! and perft files.
//!
//! Operations read into typed values: `bm` and `am` (SAN moves resolved
//! against the position), `pm` and `pv` (a predicted move and variation,
//! resolved move after move), `id` and `c0`..`c9` (strings), `acd`
//! (analysis depth), `ce` (centipawn evaluation), `D1`..`Dn` (perft counts);
//! `hmvc` and `fmvn` set the position's clocks. Any other opcode is kept
//! with its operands as text. Records may also carry the clocks as FEN does,
//! two numbers after the four fields (`... w KQkq - 0 1 ;D1 20`), and
//! operations may be introduced by `;` as well as ended by one, as perft
//! files write them.
//!
//! A malformed record gets an [`EpdError`] naming the line and, for an
//! operation, its opcode.
//!
//! Records are read on any board backend (`Epd<Bitboards>` by default), and
//! written with `Display` after being built with [`Epd::new`] and the
//! setters ([`Epd::set_id`], [`Epd::set_best_moves`], [`Epd::set_perft`],
//! ...).
//!
//! ```
//! use fianchetto_movegen::epd::{self, Epd, Operation};
//! use fianchetto_movegen::to_san;
//!
//! let text = "# Win at Chess\n\
//!             2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";\n\
//!             rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400\n";
//! let records: Vec<Epd> = epd::read(text).collect::<Result<_, _>>()?;
//! assert_eq!(records[0].id(), Some("WAC.001"));
//! let best = records[0].best_moves();
//! assert_eq!(to_san(&records[0].board, best[0])?, "Qg6");
//! assert_eq!(records[1].perft_counts().collect::<Vec<_>>(), [(1, 20), (2, 400)]);
//! assert_eq!(
//!     records[0].to_string(),
//!     "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";"
//! );
//!
//! let err = Epd::parse("8/8/8/8/8/8/8/K6k w - - bm Kb3;").unwrap_err();
//! assert_eq!(err.line, 1);
//! assert!(err.to_string().contains("operation `bm`"), "{err}");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Writing a record:
//!
//! ```
//! use fianchetto_board::{Board, Mailbox};
//! use fianchetto_movegen::epd::Epd;
//! use fianchetto_movegen::parse_san;
//!
//! let board = Mailbox::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")?;
//! let mate = parse_san(&board, "Ra8#")?;
//! let mut record = Epd::new(board);
//! record.set_id("back rank").set_perft(1, 16).set_best_moves([mate])?;
//! assert_eq!(record.to_string(), "6k1/5ppp/8/8/8/8/8/R5K1 w - - id \"back rank\"; D1 16; bm Ra8#;");
//! // Setting an operation again replaces it.
//! record.set_id("mate in one");
//! assert_eq!(record.id(), Some("mate in one"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::game::IllegalMove;
use crate::san::{parse_san, San, SanError};
use crate::MoveGen;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;
use fianchetto_board::{Bitboards, FenError, Move, Setup};

/// One EPD operation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Operation {
    /// `bm`: the best moves (any of them solves a test position).
    BestMoves(Vec<Move>),
    /// `am`: moves to avoid.
    AvoidMoves(Vec<Move>),
    /// `id`: the record's name.
    Id(String),
    /// `c0`..`c9`: comments, numbered 0 to 9.
    Comment(u8, String),
    /// `acd`: analysis count, depth searched.
    AnalysisDepth(u32),
    /// `ce`: centipawn evaluation, from the side to move's view.
    Evaluation(i32),
    /// `pm`: the predicted move.
    PredictedMove(Move),
    /// `pv`: the predicted variation, each move played after the one before.
    PredictedVariation(Vec<Move>),
    /// `D<depth> <count>`: the number of leaf nodes of the legal move tree
    /// at that depth (perft).
    Perft {
        /// The depth.
        depth: u32,
        /// The leaf count.
        nodes: u64,
    },
    /// Any other opcode, with its operands as written (trimmed).
    Other {
        /// The opcode.
        opcode: String,
        /// The operands' text.
        operands: String,
    },
}

impl Operation {
    /// The opcode: `bm`, `c3`, `D5`, ...
    pub fn opcode(&self) -> String {
        match self {
            Operation::BestMoves(_) => "bm".into(),
            Operation::AvoidMoves(_) => "am".into(),
            Operation::Id(_) => "id".into(),
            Operation::Comment(n, _) => format!("c{n}"),
            Operation::AnalysisDepth(_) => "acd".into(),
            Operation::Evaluation(_) => "ce".into(),
            Operation::PredictedMove(_) => "pm".into(),
            Operation::PredictedVariation(_) => "pv".into(),
            Operation::Perft { depth, .. } => format!("D{depth}"),
            Operation::Other { opcode, .. } => opcode.clone(),
        }
    }
}

/// What is wrong with an EPD record (see [`EpdError`] for where).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EpdErrorKind {
    /// Fewer than four position fields.
    #[error("the record has {0} of the 4 position fields (placement, side to move, castling, en passant) before its operations")]
    Fields(usize),
    /// The position fields do not make a valid position.
    #[error("{0}")]
    Fen(FenError),
    /// Something after the four fields that is neither FEN clocks nor an
    /// operation.
    #[error("`{0}` after the position is not a halfmove clock and fullmove number (write both, or use the hmvc and fmvn operations)")]
    Clocks(String),
    /// A word where an opcode belongs that is not one.
    #[error(
        "`{0}` is not an opcode: an opcode starts with a letter and has only letters, digits and _"
    )]
    Opcode(String),
    /// A string operand without its closing quote.
    #[error("operation `{opcode}`: a string is not closed (missing `\"`)")]
    UnterminatedString {
        /// The operation's opcode.
        opcode: String,
    },
    /// An operand of the wrong kind or number.
    #[error("operation `{opcode}`: {reason}")]
    Operand {
        /// The operation's opcode.
        opcode: String,
        /// What was expected.
        reason: String,
    },
    /// A move that is not legal SAN in its position.
    #[error("operation `{opcode}`: {error}")]
    Move {
        /// The operation's opcode.
        opcode: String,
        /// Why the move was refused.
        error: SanError,
    },
}

/// A malformed EPD record: its line (from 1) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("EPD line {line}: {kind}")]
pub struct EpdError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong.
    pub kind: EpdErrorKind,
}

/// An EPD record: a position on the board backend `B` and its operations.
///
/// The clocks are the board's; they come from FEN-style numbers after the
/// four fields or from `hmvc`/`fmvn` operations (default 0 and 1), and are
/// written as `hmvc`/`fmvn` when they differ from the default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Epd<B = Bitboards> {
    /// The position.
    pub board: B,
    /// The operations other than `hmvc` and `fmvn`, in order.
    pub operations: Vec<Operation>,
}

/// An operand: a quoted string or a bare word.
#[derive(Clone, Copy, Debug)]
enum Operand<'a> {
    Quoted(&'a str),
    Bare(&'a str),
}

impl<'a> Operand<'a> {
    fn text(self) -> &'a str {
        match self {
            Operand::Quoted(s) | Operand::Bare(s) => s,
        }
    }
}

impl Epd {
    /// Reads one record on [`Bitboards`] (its errors say line 1).
    pub fn parse(text: &str) -> Result<Epd, EpdError> {
        Epd::from_line(text, 1)
    }

    /// Reads one record on [`Bitboards`] that stands on line `line` (for
    /// error messages); [`Epd::from_line`] reads one on any backend.
    pub fn parse_line(text: &str, line: usize) -> Result<Epd, EpdError> {
        Epd::from_line(text, line)
    }
}

impl<B: MoveGen> Epd<B> {
    /// A record of `board` with no operations.
    pub fn new(board: B) -> Epd<B> {
        Epd {
            board,
            operations: Vec::new(),
        }
    }

    /// Reads one record on the backend `B`, which stands on line `line`
    /// (for error messages); on [`Bitboards`], [`Epd::parse_line`] says the
    /// same without naming the backend, and `text.parse::<Epd<B>>()` reads
    /// a record of line 1.
    pub fn from_line(text: &str, line: usize) -> Result<Epd<B>, EpdError> {
        parse_record(text).map_err(|kind| EpdError { line, kind })
    }

    /// Sets `op`: it replaces the first operation with the same opcode, or
    /// is added at the end. The moves of `bm`, `am`, `pm` and `pv` are not
    /// checked here (the typed setters check them).
    pub fn set(&mut self, op: Operation) -> &mut Epd<B> {
        let opcode = op.opcode();
        match self.operations.iter_mut().find(|o| o.opcode() == opcode) {
            Some(slot) => *slot = op,
            None => self.operations.push(op),
        }
        self
    }

    /// Removes the operation with this opcode, returning it.
    pub fn remove(&mut self, opcode: &str) -> Option<Operation> {
        let i = self
            .operations
            .iter()
            .position(|op| op.opcode() == opcode)?;
        Some(self.operations.remove(i))
    }

    /// Sets the `id` string.
    pub fn set_id(&mut self, id: impl Into<String>) -> &mut Epd<B> {
        self.set(Operation::Id(id.into()))
    }

    /// Sets the comment `c0`..`c9` numbered `n` (from 0 to 9; a larger
    /// number is taken modulo 10).
    pub fn set_comment(&mut self, n: u8, text: impl Into<String>) -> &mut Epd<B> {
        self.set(Operation::Comment(n % 10, text.into()))
    }

    /// Sets the perft count `D<depth>`.
    pub fn set_perft(&mut self, depth: u32, nodes: u64) -> &mut Epd<B> {
        self.set(Operation::Perft { depth, nodes })
    }

    /// Sets `acd`, the depth searched.
    pub fn set_analysis_depth(&mut self, depth: u32) -> &mut Epd<B> {
        self.set(Operation::AnalysisDepth(depth))
    }

    /// Sets `ce`, the evaluation in centipawns from the side to move's view.
    pub fn set_evaluation(&mut self, centipawns: i32) -> &mut Epd<B> {
        self.set(Operation::Evaluation(centipawns))
    }

    /// Sets `bm`, the best moves; each must be legal in the position.
    pub fn set_best_moves(
        &mut self,
        moves: impl IntoIterator<Item = Move>,
    ) -> Result<&mut Epd<B>, IllegalMove> {
        let moves = self.legal(moves, false)?;
        Ok(self.set(Operation::BestMoves(moves)))
    }

    /// Sets `am`, the moves to avoid; each must be legal in the position.
    pub fn set_avoid_moves(
        &mut self,
        moves: impl IntoIterator<Item = Move>,
    ) -> Result<&mut Epd<B>, IllegalMove> {
        let moves = self.legal(moves, false)?;
        Ok(self.set(Operation::AvoidMoves(moves)))
    }

    /// Sets `pm`, the predicted move, which must be legal in the position.
    pub fn set_predicted_move(&mut self, mv: Move) -> Result<&mut Epd<B>, IllegalMove> {
        self.legal([mv], false)?;
        Ok(self.set(Operation::PredictedMove(mv)))
    }

    /// Sets `pv`, the predicted variation: each move legal after the ones
    /// before it.
    pub fn set_predicted_variation(
        &mut self,
        moves: impl IntoIterator<Item = Move>,
    ) -> Result<&mut Epd<B>, IllegalMove> {
        let moves = self.legal(moves, true)?;
        Ok(self.set(Operation::PredictedVariation(moves)))
    }

    /// `moves`, checked legal in the position (or, for a `sequence`, each
    /// after the ones before).
    fn legal(
        &self,
        moves: impl IntoIterator<Item = Move>,
        sequence: bool,
    ) -> Result<Vec<Move>, IllegalMove> {
        let mut position = self.board.clone();
        let mut out = Vec::new();
        for mv in moves {
            if !position.is_legal(mv) {
                return Err(IllegalMove {
                    mv,
                    fen: position.fen(),
                });
            }
            if sequence {
                position.play_unchecked(mv);
            }
            out.push(mv);
        }
        Ok(out)
    }
    /// The first operation with this opcode.
    pub fn get(&self, opcode: &str) -> Option<&Operation> {
        self.operations.iter().find(|op| op.opcode() == opcode)
    }

    /// The `id` string.
    pub fn id(&self) -> Option<&str> {
        self.operations.iter().find_map(|op| match op {
            Operation::Id(id) => Some(id.as_str()),
            _ => None,
        })
    }

    /// The `bm` moves (empty without a `bm` operation).
    pub fn best_moves(&self) -> &[Move] {
        self.operations
            .iter()
            .find_map(|op| match op {
                Operation::BestMoves(m) => Some(m.as_slice()),
                _ => None,
            })
            .unwrap_or(&[])
    }

    /// The `am` moves (empty without an `am` operation).
    pub fn avoid_moves(&self) -> &[Move] {
        self.operations
            .iter()
            .find_map(|op| match op {
                Operation::AvoidMoves(m) => Some(m.as_slice()),
                _ => None,
            })
            .unwrap_or(&[])
    }

    /// The perft counts, `(depth, nodes)`, in the order written.
    pub fn perft_counts(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        self.operations.iter().filter_map(|op| match op {
            Operation::Perft { depth, nodes } => Some((*depth, *nodes)),
            _ => None,
        })
    }
}

impl<B: MoveGen> FromStr for Epd<B> {
    type Err = EpdError;
    fn from_str(text: &str) -> Result<Epd<B>, EpdError> {
        Epd::from_line(text, 1)
    }
}

/// Every record of `text`, one a line, on [`Bitboards`]; blank lines and
/// lines starting with `#` are passed over. Each error names its line. (To
/// read a file of any size, or on another backend, feed each line of a
/// [`BufRead`](std::io::BufRead) to [`Epd::from_line`].)
pub fn read(text: &str) -> impl Iterator<Item = Result<Epd, EpdError>> + '_ {
    read_numbered(text).map(|r| r.map(|(_, epd)| epd))
}

/// [`read`], with each record's line number (from 1).
pub fn read_numbered(text: &str) -> impl Iterator<Item = Result<(usize, Epd), EpdError>> + '_ {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.lines().enumerate().filter_map(|(i, line)| {
        let trimmed = line.trim();
        (!trimmed.is_empty() && !trimmed.starts_with('#'))
            .then(|| Epd::from_line(line, i + 1).map(|epd| (i + 1, epd)))
    })
}

/// The next word of `text` (up to white space or `;`) and what follows it.
fn split_word(text: &str) -> (&str, &str) {
    let end = text
        .find(|c: char| c.is_whitespace() || c == ';')
        .unwrap_or(text.len());
    text.split_at(end)
}

fn parse_record<B: MoveGen>(text: &str) -> Result<Epd<B>, EpdErrorKind> {
    let mut rest = text.trim();
    let mut fields = Vec::with_capacity(4);
    while fields.len() < 4 {
        let (field, after) = split_word(rest);
        if field.is_empty() {
            return Err(EpdErrorKind::Fields(fields.len()));
        }
        fields.push(field);
        rest = after.trim_start();
    }
    let mut setup = Setup::from_fen(&fields.join(" ")).map_err(EpdErrorKind::Fen)?;
    if rest.starts_with(|c: char| c.is_ascii_digit()) {
        // FEN-style clocks: both numbers.
        let (halfmove, after) = split_word(rest);
        let (fullmove, after) = split_word(after.trim_start());
        let clocks = || EpdErrorKind::Clocks(format!("{halfmove} {fullmove}").trim().to_string());
        setup.halfmove_clock = halfmove.parse().map_err(|_| clocks())?;
        setup.fullmove_number = fullmove.parse().map_err(|_| clocks())?;
        rest = after;
    }
    let board = B::from_setup(&setup).map_err(|e| EpdErrorKind::Fen(e.into()))?;
    let mut operations = Vec::new();
    let mut clocks = (None, None);
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ';');
        if rest.is_empty() {
            break;
        }
        let end = rest
            .find(|c: char| c.is_whitespace() || c == ';' || c == '"')
            .unwrap_or(rest.len());
        let opcode = &rest[..end];
        let valid = opcode.starts_with(|c: char| c.is_ascii_alphabetic())
            && opcode
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid {
            let shown = match opcode {
                "" => rest.chars().next().map(String::from).unwrap_or_default(),
                _ => opcode.to_string(),
            };
            return Err(EpdErrorKind::Opcode(shown));
        }
        rest = &rest[end..];
        let (operands, raw_end) = split_operands(rest, opcode)?;
        let raw = rest[..raw_end].trim();
        rest = &rest[raw_end..];
        match opcode {
            "hmvc" => clocks.0 = Some(number::<u32>(opcode, &operands)?),
            "fmvn" => clocks.1 = Some(number::<u32>(opcode, &operands)?),
            _ => operations.push(operation(&board, opcode, &operands, raw)?),
        }
    }
    let board = match clocks {
        (None, None) => board,
        (halfmove, fullmove) => {
            setup.halfmove_clock = halfmove.unwrap_or(setup.halfmove_clock);
            setup.fullmove_number = fullmove.unwrap_or(setup.fullmove_number);
            let opcode = if halfmove.is_some() { "hmvc" } else { "fmvn" };
            B::from_setup(&setup).map_err(|e| EpdErrorKind::Operand {
                opcode: opcode.into(),
                reason: e.to_string(),
            })?
        }
    };
    Ok(Epd { board, operations })
}

/// The operands of one operation, up to its `;` (or the end), and where
/// they end.
fn split_operands<'a>(
    text: &'a str,
    opcode: &str,
) -> Result<(Vec<Operand<'a>>, usize), EpdErrorKind> {
    let bytes = text.as_bytes();
    let mut operands = Vec::new();
    let mut i = 0;
    loop {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= bytes.len() || bytes[i] == b';' {
            return Ok((operands, i));
        }
        if bytes[i] == b'"' {
            let close =
                text[i + 1..]
                    .find('"')
                    .ok_or_else(|| EpdErrorKind::UnterminatedString {
                        opcode: opcode.to_string(),
                    })?;
            operands.push(Operand::Quoted(&text[i + 1..i + 1 + close]));
            i += close + 2;
        } else {
            let start = i;
            while i < bytes.len()
                && !bytes[i].is_ascii_whitespace()
                && bytes[i] != b';'
                && bytes[i] != b'"'
            {
                i += 1;
            }
            operands.push(Operand::Bare(&text[start..i]));
        }
    }
}

fn operand_error(opcode: &str, reason: impl Into<String>) -> EpdErrorKind {
    EpdErrorKind::Operand {
        opcode: opcode.to_string(),
        reason: reason.into(),
    }
}

/// The single operand of `opcode`.
fn single<'a>(
    opcode: &str,
    operands: &[Operand<'a>],
    what: &str,
) -> Result<Operand<'a>, EpdErrorKind> {
    match operands {
        [one] => Ok(*one),
        _ => Err(operand_error(
            opcode,
            format!("expected one {what}, found {} operands", operands.len()),
        )),
    }
}

fn number<T: FromStr>(opcode: &str, operands: &[Operand<'_>]) -> Result<T, EpdErrorKind> {
    let text = single(opcode, operands, "number")?.text();
    text.parse()
        .map_err(|_| operand_error(opcode, format!("`{text}` is not a number in range")))
}

/// SAN moves each resolved in `board` (or, for a variation, each in the
/// position after the one before).
fn moves<B: MoveGen>(
    board: &B,
    opcode: &str,
    operands: &[Operand<'_>],
    sequence: bool,
) -> Result<Vec<Move>, EpdErrorKind> {
    if operands.is_empty() {
        return Err(operand_error(opcode, "expected at least one move in SAN"));
    }
    let mut position = board.clone();
    let mut out = Vec::with_capacity(operands.len());
    for operand in operands {
        let mv = parse_san(&position, operand.text()).map_err(|error| EpdErrorKind::Move {
            opcode: opcode.to_string(),
            error,
        })?;
        if sequence {
            position.play_unchecked(mv);
        }
        out.push(mv);
    }
    Ok(out)
}

fn operation<B: MoveGen>(
    board: &B,
    opcode: &str,
    operands: &[Operand<'_>],
    raw: &str,
) -> Result<Operation, EpdErrorKind> {
    let string = || {
        single(
            opcode,
            operands,
            "string (in double quotes if it has spaces)",
        )
        .map(|s| s.text().to_string())
    };
    Ok(match opcode {
        "bm" => Operation::BestMoves(moves(board, opcode, operands, false)?),
        "am" => Operation::AvoidMoves(moves(board, opcode, operands, false)?),
        "pm" => {
            single(opcode, operands, "move")?;
            Operation::PredictedMove(moves(board, opcode, operands, false)?[0])
        }
        "pv" => Operation::PredictedVariation(moves(board, opcode, operands, true)?),
        "id" => Operation::Id(string()?),
        "acd" => Operation::AnalysisDepth(number(opcode, operands)?),
        "ce" => Operation::Evaluation(number(opcode, operands)?),
        _ => {
            let comment = opcode
                .strip_prefix('c')
                .filter(|d| d.len() == 1)
                .and_then(|d| d.parse::<u8>().ok());
            let depth = opcode
                .strip_prefix('D')
                .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
            match (comment, depth) {
                (Some(n), _) => Operation::Comment(n, string()?),
                (_, Some(depth)) => Operation::Perft {
                    depth: depth
                        .parse()
                        .map_err(|_| operand_error(opcode, "the depth is too large"))?,
                    nodes: number(opcode, operands)?,
                },
                _ => Operation::Other {
                    opcode: opcode.to_string(),
                    operands: raw.to_string(),
                },
            }
        }
    })
}

/// A string operand in double quotes (a `"` inside, which EPD cannot
/// hold, is written as `'`).
fn write_string(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    write!(f, " \"{}\"", s.replace('"', "'"))
}

fn write_moves<B: MoveGen>(
    f: &mut fmt::Formatter<'_>,
    board: &B,
    moves: &[Move],
    sequence: bool,
) -> fmt::Result {
    let mut position = board.clone();
    for &mv in moves {
        match San::from_move(&position, mv) {
            Ok(san) => {
                write!(f, " {san}")?;
                if sequence {
                    position.play_unchecked(mv);
                }
            }
            // Set by hand through `operations`, not legal here: UCI text.
            Err(_) => write!(f, " {mv}")?,
        }
    }
    Ok(())
}

impl<B: MoveGen> fmt::Display for Epd<B> {
    /// Writes the record: the four position fields, `hmvc`/`fmvn` if the
    /// clocks are not 0 and 1, then each operation ended by `;`. A move
    /// that is not legal in its position (set by hand) is written in UCI
    /// notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let fen = self.board.fen();
        let fields: Vec<&str> = fen.split(' ').take(4).collect();
        f.write_str(&fields.join(" "))?;
        if self.board.halfmove_clock() != 0 {
            write!(f, " hmvc {};", self.board.halfmove_clock())?;
        }
        if self.board.fullmove_number() != 1 {
            write!(f, " fmvn {};", self.board.fullmove_number())?;
        }
        for op in &self.operations {
            write!(f, " {}", op.opcode())?;
            match op {
                Operation::BestMoves(m) | Operation::AvoidMoves(m) => {
                    write_moves(f, &self.board, m, false)?
                }
                Operation::PredictedMove(m) => write_moves(f, &self.board, &[*m], false)?,
                Operation::PredictedVariation(m) => write_moves(f, &self.board, m, true)?,
                Operation::Id(s) | Operation::Comment(_, s) => write_string(f, s)?,
                Operation::AnalysisDepth(n) => write!(f, " {n}")?,
                Operation::Evaluation(n) => write!(f, " {n}")?,
                Operation::Perft { nodes, .. } => write!(f, " {nodes}")?,
                Operation::Other { operands, .. } if operands.is_empty() => {}
                Operation::Other { operands, .. } => write!(f, " {operands}")?,
            }
            f.write_str(";")?;
        }
        Ok(())
    }
}
