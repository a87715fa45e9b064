//! [`Writer`]: games out as PGN export format. The Seven Tag Roster first
//! and in order, then the other tags (`Variant "Chess960"` added for a
//! start position with Chess960 castling); movetext with move numbers
//! (`12...` for a black move after a comment or variation), null moves as
//! `--`, NAGs as `$n`, comments in braces (commands first, as
//! `{ [%eval 0.35] [%clk 0:05:00] text }`), variations in parentheses,
//! lines broken at 80 columns.

use super::commands::Commands;
use super::game::{Annotations, PgnGame, Variation};
use super::tags::{roster_default, SEVEN_TAG_ROSTER};
use super::visitor::GameResult;
use crate::game::IllegalMove;
use crate::san::write_san;
use crate::MoveGen;
use fianchetto_board::{Color, Move};
use std::fmt::Write as _;
use std::io;

/// The longest movetext line written (a longer word gets a line of its own).
pub const LINE_WIDTH: usize = 80;

/// Why a game could not be written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The output failed.
    #[error("writing PGN failed: {0}")]
    Io(#[from] io::Error),
    /// A move (of a variation, or of notes out of step with the game) is not
    /// legal where it stands, so it has no SAN.
    #[error("cannot write the game: {0}")]
    IllegalMove(#[from] IllegalMove),
    /// A tag name PGN cannot hold (empty, or with characters other than
    /// letters, digits and `_`).
    #[error("cannot write the tag name {0:?}: a tag name is letters, digits and _")]
    TagName(String),
}

/// Writes games as PGN to an [`io::Write`], one after the other, each
/// followed by a blank line.
///
/// ```
/// use fianchetto_board::{Bitboards, Board};
/// use fianchetto_movegen::pgn::{PgnGame, Writer};
/// use fianchetto_movegen::Game;
///
/// let mut game = Game::new(Bitboards::startpos());
/// for san in ["f3", "e5", "g4", "Qh4#"] {
///     game.play_san(san)?;
/// }
/// let mut writer = Writer::new(Vec::new());
/// writer.write_game(&PgnGame::from(game))?;
/// let text = String::from_utf8(writer.into_inner())?;
/// assert!(text.contains("[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Writer<W> {
    out: W,
    text: String,
}

impl<W: io::Write> Writer<W> {
    /// A writer to `out`.
    pub fn new(out: W) -> Writer<W> {
        Writer {
            out,
            text: String::new(),
        }
    }

    /// Writes one game and a blank line after it.
    pub fn write_game<B: MoveGen>(&mut self, game: &PgnGame<B>) -> Result<(), WriteError> {
        self.text.clear();
        render(game, &mut self.text)?;
        self.text.push('\n');
        self.out.write_all(self.text.as_bytes())?;
        Ok(())
    }

    /// The output, given back (flush it if it is buffered).
    pub fn into_inner(self) -> W {
        self.out
    }
}

/// Appends `game` to `out`: tags, a blank line, the movetext ending with a
/// line break.
pub(crate) fn render<B: MoveGen>(game: &PgnGame<B>, out: &mut String) -> Result<(), WriteError> {
    write_tags(game, out)?;
    out.push('\n');
    let mut lines = Lines {
        out,
        width: 0,
        started: false,
        glue: String::new(),
        must_break: false,
    };
    let result = game
        .result
        .or_else(|| game.tags.get("Result").and_then(|r| r.parse().ok()))
        .unwrap_or(GameResult::Unknown);
    let moves = game.game.moves();
    let empty = Annotations::default();
    let main = moves
        .iter()
        .enumerate()
        .map(|(i, &mv)| (mv, game.notes.get(i).unwrap_or(&empty)));
    write_line(
        &mut lines,
        game.game.start(),
        (&game.commands, &game.comments),
        main,
    )?;
    lines.word(result.as_str());
    out.push('\n');
    Ok(())
}

fn write_tags<B: MoveGen>(game: &PgnGame<B>, out: &mut String) -> Result<(), WriteError> {
    let start = game.game.start();
    let start_fen = start.fen();
    let fen = (start_fen != fianchetto_board::START_FEN || game.tags.get("FEN").is_some())
        .then_some(start_fen);
    let result_tag = game
        .tags
        .get("Result")
        .map(str::to_string)
        .or_else(|| game.result.map(|r| r.as_str().to_string()));
    for name in SEVEN_TAG_ROSTER {
        let value = match name {
            "Result" => result_tag.as_deref(),
            _ => game.tags.get(name),
        };
        write_tag(out, name, value.unwrap_or(roster_default(name)))?;
    }
    let needs_variant = !start.castling().is_standard() && game.tags.get("Variant").is_none();
    if needs_variant {
        write_tag(out, "Variant", "Chess960")?;
    }
    let mut wrote_fen = false;
    for (name, value) in game.tags.iter() {
        if SEVEN_TAG_ROSTER.contains(&name) {
            continue;
        }
        match (name, &fen) {
            ("FEN", Some(fen)) => {
                write_tag(out, name, fen)?;
                wrote_fen = true;
            }
            ("SetUp", Some(_)) => write_tag(out, name, "1")?,
            _ => write_tag(out, name, value)?,
        }
    }
    if let (false, Some(fen)) = (wrote_fen, &fen) {
        if game.tags.get("SetUp").is_none() {
            write_tag(out, "SetUp", "1")?;
        }
        write_tag(out, "FEN", fen)?;
    }
    Ok(())
}

fn write_tag(out: &mut String, name: &str, value: &str) -> Result<(), WriteError> {
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return Err(WriteError::TagName(name.to_string()));
    }
    out.push('[');
    out.push_str(name);
    out.push_str(" \"");
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            _ => out.push(c),
        }
    }
    out.push_str("\"]\n");
    Ok(())
}

/// Movetext words joined by single spaces or line breaks.
struct Lines<'a> {
    out: &'a mut String,
    /// Characters on the current line.
    width: usize,
    /// Whether the current line has a word (perhaps an empty one).
    started: bool,
    /// Text to put right before the next word (an opening parenthesis).
    glue: String,
    /// The next word must start a new line (after a `;` comment).
    must_break: bool,
}

impl Lines<'_> {
    /// Adds a word, after a space or, if it would pass the width, a line
    /// break. A word starting with `%`, or with `[` and a letter, is kept
    /// off the start of a line (it would read as an escape line or the next
    /// game's tags).
    fn word(&mut self, word: &str) {
        let glue = std::mem::take(&mut self.glue);
        let len = glue.chars().count() + word.chars().count();
        let mut start = glue.chars().chain(word.chars());
        let risky_start = match (start.next(), start.next()) {
            (Some('%'), _) => true,
            (Some('['), Some(c)) => c.is_ascii_alphabetic(),
            _ => false,
        };
        if self.started {
            let fits = self.width + 1 + len <= LINE_WIDTH;
            if self.must_break || (!fits && !risky_start) {
                self.out.push('\n');
                self.width = 0;
            } else {
                self.out.push(' ');
                self.width += 1;
            }
        }
        self.must_break = false;
        self.started = true;
        self.out.push_str(&glue);
        self.out.push_str(word);
        self.width += len;
    }

    /// Attaches `text` to the next word.
    fn glue_next(&mut self, text: &str) {
        self.glue.push_str(text);
    }

    /// Attaches `text` to the last word, or puts it on a new line if it
    /// does not fit.
    fn glue_last(&mut self, text: &str) {
        let len = text.chars().count();
        if self.must_break || self.width + len > LINE_WIDTH {
            self.out.push('\n');
            self.width = 0;
            self.must_break = false;
        }
        self.started = true;
        self.out.push_str(text);
        self.width += len;
    }

    /// A comment: in braces, broken between words; a comment holding `}`
    /// goes after `;`, to the end of the line.
    fn comment(&mut self, text: &str) {
        let text: String = text
            .chars()
            .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
            .collect();
        // The white space the reader trims (not all of Unicode's).
        let text = text.trim_matches([' ', '\t', '\x0b', '\x0c']);
        if text.contains('}') {
            self.word(&format!(";{text}"));
            self.must_break = true;
            return;
        }
        self.word("{");
        // A command (`[%clk 0:05:00]`) stays on one line.
        let mut command = String::new();
        for piece in text.split(' ') {
            // Outside a command, a piece that does not open an unfinished one.
            let opens_command = piece.starts_with("[%") && !piece.contains(']');
            if command.is_empty() && !opens_command {
                self.word(piece);
                continue;
            }
            if !command.is_empty() {
                command.push(' ');
            }
            command.push_str(piece);
            if piece.contains(']') {
                self.word(&std::mem::take(&mut command));
            }
        }
        if !command.is_empty() {
            self.word(&command);
        }
        self.word("}");
    }
}

/// Writes comments: the commands first, in the first comment's braces
/// (unless its text is empty: the reader would drop it), then the free
/// texts.
fn write_comments(lines: &mut Lines<'_>, commands: &Commands, comments: &[String]) {
    let mut texts = comments.iter().peekable();
    if !commands.is_empty() {
        let mut first = commands.to_string();
        if let Some(text) = texts.next_if(|t| !t.trim().is_empty()) {
            first.push(' ');
            first.push_str(text);
        }
        lines.comment(&first);
    }
    for text in texts {
        lines.comment(text);
    }
}

/// Writes a line of moves played from `board`: comments before it, then
/// each move with its move number, NAGs, comments and variations.
fn write_line<'n, B: MoveGen>(
    lines: &mut Lines<'_>,
    board: &B,
    (commands, comments): (&Commands, &[String]),
    moves: impl Iterator<Item = (Move, &'n Annotations)>,
) -> Result<(), WriteError> {
    write_comments(lines, commands, comments);
    let mut board = board.clone();
    let mut number_black = true;
    let mut word = String::new();
    for (mv, notes) in moves {
        let legal = board.legal_moves();
        let playable = if mv.is_null() {
            !board.in_check()
        } else {
            legal.contains(&mv)
        };
        if !playable {
            return Err(WriteError::IllegalMove(IllegalMove {
                mv,
                fen: board.fen(),
            }));
        }
        let number = board.fullmove_number();
        word.clear();
        match board.turn() {
            Color::White => {
                let _ = write!(word, "{number}.");
            }
            Color::Black if number_black => {
                let _ = write!(word, "{number}...");
            }
            Color::Black => {}
        }
        if !word.is_empty() {
            // The number stays on the line of its move.
            word.push(' ');
            lines.glue_next(&word);
        }
        let mut after = board.clone();
        word.clear();
        if mv.is_null() {
            after.play_null();
            word.push_str("--");
        } else {
            after.play_unchecked(mv);
            write_san(&board, mv, &legal, &after, &mut word);
        }
        lines.word(&word);
        for nag in &notes.nags {
            word.clear();
            let _ = write!(word, "${nag}");
            lines.word(&word);
        }
        write_comments(lines, &notes.commands, &notes.comments);
        for variation in &notes.variations {
            write_variation(lines, &board, variation)?;
        }
        number_black = !notes.comments.is_empty()
            || !notes.commands.is_empty()
            || !notes.variations.is_empty();
        board = after;
    }
    Ok(())
}

fn write_variation<B: MoveGen>(
    lines: &mut Lines<'_>,
    board: &B,
    variation: &Variation,
) -> Result<(), WriteError> {
    lines.glue_next("(");
    let moves = variation.moves.iter().map(|m| (m.mv, &m.notes));
    let comments = (&variation.commands, variation.comments.as_slice());
    write_line(lines, board, comments, moves)?;
    if variation.comments.is_empty() && variation.commands.is_empty() && variation.moves.is_empty()
    {
        // An empty variation: the parenthesis waits in the glue.
        let glue = std::mem::take(&mut lines.glue);
        lines.word(&glue);
    }
    lines.glue_last(")");
    Ok(())
}
