//! Walking a [`PgnGame`] move by move: [`PgnGame::main_line`] zips the
//! main line's positions, moves, SAN and annotations, and
//! [`Variation::walk`] plays a variation from the position it starts from,
//! with the SAN of each of its moves.

use super::game::{Annotations, PgnGame, Variation};
use crate::game::IllegalMove;
use crate::san::San;
use crate::MoveGen;
use fianchetto_board::{Board, Color, Move};
use std::iter::FusedIterator;

/// The SAN of `mv` in `board`: `--` for a null move (refused when the side
/// to move is in check), an error for a move that is not legal there.
fn san_text<B: MoveGen>(board: &B, mv: Move) -> Result<String, IllegalMove> {
    if mv.is_null() {
        if board.in_check() {
            return Err(IllegalMove {
                mv,
                fen: board.fen(),
            });
        }
        return Ok("--".to_string());
    }
    Ok(San::from_move(board, mv)?.to_string())
}

/// One move of a game's main line with the positions around it and its
/// annotations: what [`PgnGame::main_line`] yields.
#[derive(Debug)]
pub struct MainLineMove<'a, B: Board> {
    /// The move's index in the main line, from 0 (its annotations are
    /// [`PgnGame::annotations`]`(index)`).
    pub index: usize,
    /// The position before the move.
    pub before: &'a B,
    /// The move ([`Move::NULL`] for a null move).
    pub mv: Move,
    /// The position after the move.
    pub after: &'a B,
    /// Its NAGs, comments, commands (clock, evaluation, ...) and variations.
    pub notes: &'a Annotations,
}

impl<B: Board> Clone for MainLineMove<'_, B> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<B: Board> Copy for MainLineMove<'_, B> {}

impl<'a, B: MoveGen> MainLineMove<'a, B> {
    /// The move in SAN (`Nf3`, `exd5`, `O-O+`; `--` for a null move).
    /// Fails only if the main line was changed to hold an illegal move
    /// (through [`Game::play_unchecked`](crate::Game::play_unchecked)).
    pub fn san(&self) -> Result<String, IllegalMove> {
        san_text(self.before, self.mv)
    }

    /// The side that played the move.
    pub fn color(&self) -> Color {
        self.before.turn()
    }

    /// The move number PGN writes before it (`12` for `12. Nf3` and
    /// `12... Nf6`).
    pub fn move_number(&self) -> u32 {
        self.before.fullmove_number()
    }

    /// The free text of the comments after the move.
    pub fn comments(&self) -> &'a [String] {
        &self.notes.comments
    }

    /// The alternatives to the move; each starts from
    /// [`before`](MainLineMove::before): `variation.walk(step.before)`.
    pub fn variations(&self) -> &'a [Variation] {
        &self.notes.variations
    }
}

/// The main line of a [`PgnGame`], move by move: see
/// [`PgnGame::main_line`].
#[derive(Debug)]
pub struct MainLine<'a, B: Board> {
    game: &'a PgnGame<B>,
    next: usize,
    end: usize,
}

impl<B: Board> Clone for MainLine<'_, B> {
    fn clone(&self) -> Self {
        MainLine {
            game: self.game,
            next: self.next,
            end: self.end,
        }
    }
}

impl<'a, B: MoveGen> MainLine<'a, B> {
    fn item(&self, index: usize) -> Option<MainLineMove<'a, B>> {
        let game = self.game;
        let positions = game.game.positions();
        Some(MainLineMove {
            index,
            before: positions.get(index)?,
            mv: *game.game.moves().get(index)?,
            after: positions.get(index + 1)?,
            notes: game.annotations(index)?,
        })
    }
}

impl<'a, B: MoveGen> Iterator for MainLine<'a, B> {
    type Item = MainLineMove<'a, B>;

    fn next(&mut self) -> Option<MainLineMove<'a, B>> {
        if self.next >= self.end {
            return None;
        }
        let item = self.item(self.next)?;
        self.next += 1;
        Some(item)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.end.saturating_sub(self.next);
        (left, Some(left))
    }
}

impl<B: MoveGen> DoubleEndedIterator for MainLine<'_, B> {
    fn next_back(&mut self) -> Option<Self::Item> {
        if self.next >= self.end {
            return None;
        }
        let item = self.item(self.end - 1)?;
        self.end -= 1;
        Some(item)
    }
}

impl<B: MoveGen> ExactSizeIterator for MainLine<'_, B> {}

impl<B: MoveGen> FusedIterator for MainLine<'_, B> {}

impl<B: MoveGen> PgnGame<B> {
    /// The main line, move by move: each move with its index, the
    /// positions before and after it, its SAN
    /// ([`MainLineMove::san`]) and its annotations; what one would
    /// otherwise zip by hand from `game.positions()`, `game.moves()` and
    /// [`annotations`](PgnGame::annotations).
    ///
    /// ```
    /// use core::time::Duration;
    /// use fianchetto_board::{Bitboards, Color};
    /// use fianchetto_movegen::pgn::PgnGame;
    ///
    /// let text = "1. e4 { [%clk 0:05:00] best by test } e5 (1... c5 2. Nf3) 2. Nf3 *";
    /// let game: PgnGame<Bitboards> = text.parse()?;
    /// let mut line = Vec::new();
    /// for step in game.main_line() {
    ///     line.push(format!("{}{} {}", step.move_number(), if step.color() == Color::White { "." } else { "..." }, step.san()?));
    /// }
    /// assert_eq!(line, ["1. e4", "1... e5", "2. Nf3"]);
    ///
    /// let first = game.main_line().next().ok_or("no move")?;
    /// assert_eq!(first.comments(), ["best by test"]);
    /// assert_eq!(first.notes.commands.clock, Some(Duration::from_secs(300)));
    /// // The variation replaces 1... e5: it starts from the position before it.
    /// let reply = game.main_line().nth(1).ok_or("no reply")?;
    /// assert_eq!(reply.variations()[0].san_moves(reply.before)?, ["c5", "Nf3"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn main_line(&self) -> MainLine<'_, B> {
        MainLine {
            game: self,
            next: 0,
            end: self.game.moves().len(),
        }
    }
}

/// One move of a [`Variation`], played: what [`Variation::walk`] returns.
#[derive(Clone, Debug)]
pub struct VariationMove<'a, B> {
    /// The position before the move (where its own sub-variations start).
    pub before: B,
    /// The move ([`Move::NULL`] for a null move).
    pub mv: Move,
    /// The move in SAN (`--` for a null move).
    pub san: String,
    /// Its NAGs, comments, commands and sub-variations.
    pub notes: &'a Annotations,
}

impl Variation {
    /// Plays the variation from `start`, the position before the move it
    /// replaces (for a variation of main-line move `i`, the position before
    /// that move: [`MainLineMove::before`]); each move with the position
    /// before it and its SAN. A sub-variation of one of these moves starts
    /// from that move's [`before`](VariationMove::before). Fails if a move
    /// is not legal where it is played (a variation read from PGN always
    /// is, when `start` is the right position).
    ///
    /// ```
    /// use fianchetto_board::Bitboards;
    /// use fianchetto_movegen::pgn::PgnGame;
    ///
    /// let game: PgnGame<Bitboards> = "1. e4 (1. d4 d5 (1... Nf6 2. c4) 2. c4) e5 *".parse()?;
    /// let first = game.main_line().next().ok_or("no move")?;
    /// let line = first.variations()[0].walk(first.before)?;
    /// let sans: Vec<&str> = line.iter().map(|m| m.san.as_str()).collect();
    /// assert_eq!(sans, ["d4", "d5", "c4"]);
    /// let sub = &line[1].notes.variations[0];
    /// assert_eq!(sub.san_moves(&line[1].before)?, ["Nf6", "c4"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn walk<'a, B: MoveGen>(
        &'a self,
        start: &B,
    ) -> Result<Vec<VariationMove<'a, B>>, IllegalMove> {
        let mut out = Vec::with_capacity(self.moves.len());
        let mut board = start.clone();
        for m in &self.moves {
            let san = san_text(&board, m.mv)?;
            let mut after = board.clone();
            if m.mv.is_null() {
                after.play_null();
            } else {
                after.play_unchecked(m.mv);
            }
            out.push(VariationMove {
                before: std::mem::replace(&mut board, after),
                mv: m.mv,
                san,
                notes: &m.notes,
            });
        }
        Ok(out)
    }

    /// The variation's moves in SAN, played from `start` (see
    /// [`Variation::walk`]); `--` for a null move.
    pub fn san_moves<B: MoveGen>(&self, start: &B) -> Result<Vec<String>, IllegalMove> {
        Ok(self.walk(start)?.into_iter().map(|m| m.san).collect())
    }
}
