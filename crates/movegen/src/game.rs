//! `Game<B>`: a position with its history, and the rules that need the
//! history (repetition) or the move list (mate, stalemate) to decide.

use crate::MoveGen;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;
use fianchetto_board::{write_diagram, Board, Color, FenError, Move, Setup};

/// Why a game ended (or may be claimed drawn).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The side to move is mated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side can mate by any sequence of legal moves.
    InsufficientMaterial,
    /// Fifty moves by each side without capture or pawn move (claimable).
    FiftyMoves,
    /// Seventy-five moves by each side without capture or pawn move (automatic).
    SeventyFiveMoves,
    /// The same position for the third time (claimable).
    ThreefoldRepetition,
    /// The same position for the fifth time (automatic).
    FivefoldRepetition,
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `winner` won by `how` (always checkmate here).
    Decisive {
        /// Who won.
        winner: Color,
        /// How.
        how: Termination,
    },
    /// Drawn by `0`.
    Draw(Termination),
}

impl Outcome {
    /// The PGN result: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(self) -> &'static str {
        match self {
            Outcome::Decisive {
                winner: Color::White,
                ..
            } => "1-0",
            Outcome::Decisive {
                winner: Color::Black,
                ..
            } => "0-1",
            Outcome::Draw(_) => "1/2-1/2",
        }
    }
}

impl fmt::Display for Termination {
    /// What ended the game, in words: `checkmate`, `stalemate`,
    /// `insufficient material`, `the fifty-move rule`, `the seventy-five-move
    /// rule`, `threefold repetition`, `fivefold repetition`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient material",
            Termination::FiftyMoves => "the fifty-move rule",
            Termination::SeventyFiveMoves => "the seventy-five-move rule",
            Termination::ThreefoldRepetition => "threefold repetition",
            Termination::FivefoldRepetition => "fivefold repetition",
        })
    }
}

impl fmt::Display for Outcome {
    /// The outcome as a sentence: `White wins by checkmate`, `Draw by
    /// threefold repetition` (the PGN result is [`Outcome::result`]).
    ///
    /// ```
    /// use fianchetto_board::Color;
    /// use fianchetto_movegen::{Outcome, Termination};
    ///
    /// let mate = Outcome::Decisive { winner: Color::Black, how: Termination::Checkmate };
    /// assert_eq!(mate.to_string(), "Black wins by checkmate");
    /// assert_eq!(Outcome::Draw(Termination::FiftyMoves).to_string(), "Draw by the fifty-move rule");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Decisive { winner, how } => {
                let winner = match winner {
                    Color::White => "White",
                    Color::Black => "Black",
                };
                write!(f, "{winner} wins by {how}")
            }
            Outcome::Draw(how) => write!(f, "Draw by {how}"),
        }
    }
}

/// A move that is not legal in the game's current position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{mv} is not a legal move in {fen}")]
pub struct IllegalMove {
    /// The move.
    pub mv: Move,
    /// The position it was tried in.
    pub fen: String,
}

/// A game: the starting position, the moves played, and the position after
/// each, so that repetitions can be counted and moves taken back.
///
/// ```
/// use fianchetto_board::{Bitboards, Board};
/// use fianchetto_movegen::{Game, MoveGen, Outcome, Termination};
///
/// let mut game = Game::new(Bitboards::startpos());
/// for uci in ["f2f3", "e7e5", "g2g4", "d8h4"] {
///     game.play_uci(uci)?;
/// }
/// assert_eq!(game.outcome(), Some(Outcome::Decisive {
///     winner: fianchetto_board::Color::Black, how: Termination::Checkmate }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Game<B: Board> {
    /// `positions[0]` is the start; `positions[i]` follows `moves[i - 1]`.
    positions: Vec<B>,
    moves: Vec<Move>,
}

impl<B: MoveGen> Game<B> {
    /// A game starting at `start`.
    pub fn new(start: B) -> Game<B> {
        Game {
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// A game from a setup (validated).
    pub fn from_setup(setup: &Setup) -> Result<Game<B>, fianchetto_board::PositionError> {
        Ok(Game::new(B::from_setup(setup)?))
    }

    /// A game starting at the position of `fen` (standard castling; for
    /// Chess960, build the board with [`Board::from_fen_with`] and use
    /// [`Game::new`]).
    ///
    /// ```
    /// use fianchetto_board::Bitboards;
    /// use fianchetto_movegen::{Game, Outcome, Termination};
    ///
    /// let mut game: Game<Bitboards> = Game::from_fen("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1")?;
    /// game.play_san("Qf8#")?;
    /// let outcome = game.outcome().ok_or("not over")?;
    /// assert_eq!(outcome.to_string(), "White wins by checkmate");
    /// print!("{game}"); // the final position as a diagram, and the moves
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_fen(fen: &str) -> Result<Game<B>, FenError> {
        Ok(Game::new(B::from_fen(fen)?))
    }

    /// The current position.
    pub fn board(&self) -> &B {
        // `positions` always holds the start position.
        &self.positions[self.positions.len() - 1]
    }

    /// The position the game started from.
    pub fn start(&self) -> &B {
        &self.positions[0]
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every position so far, the start first and the current one last.
    pub fn positions(&self) -> &[B] {
        &self.positions
    }

    /// The hashes of every position so far, oldest first (what a search needs
    /// to detect repetitions of positions before its root).
    pub fn hashes(&self) -> impl DoubleEndedIterator<Item = u64> + ExactSizeIterator + '_ {
        self.positions.iter().map(Board::hash)
    }

    /// Plays `mv` after checking that it is legal; an illegal move changes
    /// nothing.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        if !self.board().is_legal(mv) {
            return Err(IllegalMove {
                mv,
                fen: self.board().fen(),
            });
        }
        self.play_unchecked(mv);
        Ok(())
    }

    /// Plays `mv`, which the caller knows to be legal (it came from this
    /// position's move list).
    pub fn play_unchecked(&mut self, mv: Move) {
        let mut next = self.board().clone();
        next.play_unchecked(mv);
        self.positions.push(next);
        self.moves.push(mv);
    }

    /// Plays a null move (the side to move passes, as `--` in PGN); the
    /// move list holds it as [`Move::NULL`]. Refused, changing nothing,
    /// when the side to move is in check.
    ///
    /// ```
    /// use fianchetto_board::{Bitboards, Board, Color, Move};
    /// use fianchetto_movegen::Game;
    ///
    /// let mut game = Game::new(Bitboards::startpos());
    /// game.play_null()?;
    /// assert_eq!(game.board().turn(), Color::Black);
    /// assert_eq!(game.moves(), [Move::NULL]);
    /// # Ok::<(), fianchetto_movegen::IllegalMove>(())
    /// ```
    pub fn play_null(&mut self) -> Result<(), IllegalMove> {
        if self.board().in_check() {
            return Err(IllegalMove {
                mv: Move::NULL,
                fen: self.board().fen(),
            });
        }
        let mut next = self.board().clone();
        next.play_null();
        self.positions.push(next);
        self.moves.push(Move::NULL);
        Ok(())
    }

    /// Parses a move in UCI notation and plays it.
    pub fn play_uci(&mut self, text: &str) -> Result<Move, crate::uci::UciMoveError> {
        let mv = crate::uci::parse_uci(self.board(), text)?;
        self.play_unchecked(mv);
        Ok(mv)
    }

    /// Parses a move in SAN (`Nf3`, `exd5`, `O-O`; see [`crate::san`] for
    /// the variants accepted) and plays it; an error changes nothing.
    pub fn play_san(&mut self, text: &str) -> Result<Move, crate::san::SanError> {
        let mv = crate::san::parse_san(self.board(), text)?;
        self.play_unchecked(mv);
        Ok(mv)
    }

    /// Takes the last move back; `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        Some(mv)
    }

    /// How many times the current position has occurred (1 when new).
    /// Positions count as equal when their hashes are; only positions since
    /// the last irreversible move are compared.
    pub fn repetitions(&self) -> usize {
        let current = self.board();
        let window = current.halfmove_clock() as usize + 1;
        let hash = current.hash();
        self.positions
            .iter()
            .rev()
            .take(window)
            .step_by(2)
            .filter(|p| p.hash() == hash)
            .count()
    }

    /// Why the game is over, if it is: checkmate, stalemate, insufficient
    /// material, or the automatic draws (seventy-five moves, fivefold
    /// repetition). Use [`Game::claimable_draw`] for the draws a player may
    /// claim.
    pub fn outcome(&self) -> Option<Outcome> {
        let b = self.board();
        if b.has_no_moves() {
            return Some(if b.in_check() {
                Outcome::Decisive {
                    winner: !b.turn(),
                    how: Termination::Checkmate,
                }
            } else {
                Outcome::Draw(Termination::Stalemate)
            });
        }
        if b.is_insufficient_material() {
            return Some(Outcome::Draw(Termination::InsufficientMaterial));
        }
        if b.halfmove_clock() >= 150 {
            return Some(Outcome::Draw(Termination::SeventyFiveMoves));
        }
        if self.repetitions() >= 5 {
            return Some(Outcome::Draw(Termination::FivefoldRepetition));
        }
        None
    }

    /// A draw the side to move could claim now: threefold repetition or the
    /// fifty-move rule (when the game is not already over).
    pub fn claimable_draw(&self) -> Option<Termination> {
        if self.repetitions() >= 3 {
            Some(Termination::ThreefoldRepetition)
        } else if self.board().halfmove_clock() >= 100 {
            Some(Termination::FiftyMoves)
        } else {
            None
        }
    }

    /// [`Game::outcome`], or a claimable draw counted as a draw: what engines
    /// and GUIs use to adjudicate.
    pub fn outcome_with_claims(&self) -> Option<Outcome> {
        self.outcome()
            .or_else(|| self.claimable_draw().map(Outcome::Draw))
    }
}

impl<B: MoveGen> fmt::Display for Game<B> {
    /// The current position as a text diagram (as the boards draw it), then
    /// its FEN and the moves so far in SAN.
    ///
    /// ```
    /// use fianchetto_board::Bitboards;
    /// use fianchetto_movegen::Game;
    ///
    /// let mut game: Game<Bitboards> = Game::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")?;
    /// game.play_san("e4")?;
    /// assert_eq!(game.to_string(), "\
    /// 8 . . . . k . . . \n\
    /// 7 . . . . . . . . \n\
    /// 6 . . . . . . . . \n\
    /// 5 . . . . . . . . \n\
    /// 4 . . . . P . . . \n\
    /// 3 . . . . . . . . \n\
    /// 2 . . . . . . . . \n\
    /// 1 . . . . K . . . \n  a b c d e f g h\n\
    /// Fen: 4k3/8/8/8/4P3/8/8/4K3 b - - 0 1\n\
    /// Moves: 1. e4\n");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let setup = self.board().to_setup();
        write_diagram(&setup, f)?;
        writeln!(f, "Fen: {setup}")?;
        if !self.moves.is_empty() {
            f.write_str("Moves:")?;
            match crate::san::san_line(self.start(), &self.moves) {
                Ok(line) => write!(f, " {line}")?,
                // Moves played unchecked that are not legal have no SAN.
                Err(_) => {
                    for mv in &self.moves {
                        write!(f, " {mv}")?;
                    }
                }
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fianchetto_board::Bitboards;

    #[test]
    fn repetition_and_undo() {
        let mut g = Game::new(Bitboards::startpos());
        for _ in 0..2 {
            for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
                g.play_uci(m).unwrap();
            }
        }
        assert_eq!(g.repetitions(), 3);
        assert_eq!(g.claimable_draw(), Some(Termination::ThreefoldRepetition));
        assert_eq!(g.outcome(), None);
        for _ in 0..2 {
            for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
                g.play_uci(m).unwrap();
            }
        }
        assert_eq!(
            g.outcome(),
            Some(Outcome::Draw(Termination::FivefoldRepetition))
        );
        assert!(g.undo().is_some());
        assert_eq!(g.moves().len(), 15);
        assert!(g.play_uci("e2e5").is_err());
        assert_eq!(g.moves().len(), 15);
    }

    /// The checked play of every backend: a legal move is played, an
    /// illegal one (from another position, a null move, a wrong kind)
    /// changes nothing and is named with the position in the error.
    fn checked_play<B: MoveGen>() {
        use fianchetto_board::{MoveKind, Square};
        let mut b = B::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let fen = b.fen();
        let wrong = [
            Move::NULL,
            Move::new(Square::E2, Square::E4, MoveKind::DoublePush),
            Move::new(Square::E1, Square::G1, MoveKind::Quiet),
            Move::new(Square::A1, Square::A8, MoveKind::Quiet),
            Move::new(Square::E1, Square::E3, MoveKind::Quiet),
        ];
        for mv in wrong {
            assert_eq!(
                b.play(mv),
                Err(IllegalMove {
                    mv,
                    fen: fen.clone()
                }),
                "{mv:?} ({})",
                B::NAME
            );
            assert_eq!(b.fen(), fen);
        }
        assert_eq!(
            b.play(Move::new(Square::E1, Square::E3, MoveKind::Quiet))
                .unwrap_err()
                .to_string(),
            "e1e3 is not a legal move in r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
        );
        let castle = Move::new(Square::E1, Square::G1, MoveKind::KingCastle);
        assert_eq!(b.play(castle), Ok(()));
        assert_eq!(b.fen(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    }

    #[test]
    fn checked_play_on_every_backend() {
        checked_play::<Bitboards>();
        checked_play::<fianchetto_board::Board0x88>();
        checked_play::<fianchetto_board::Mailbox>();
    }

    #[test]
    fn stalemate_insufficient_and_fifty() {
        let g = Game::new(Bitboards::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap());
        assert_eq!(g.outcome(), Some(Outcome::Draw(Termination::Stalemate)));
        let g = Game::new(Bitboards::from_fen("8/8/4k3/8/8/2B5/4K3/8 w - - 0 1").unwrap());
        assert_eq!(
            g.outcome(),
            Some(Outcome::Draw(Termination::InsufficientMaterial))
        );
        let g = Game::new(Bitboards::from_fen("8/8/4k3/8/8/2B5/4K1N1/8 w - - 0 1").unwrap());
        assert_eq!(g.outcome(), None);
        let g = Game::new(Bitboards::from_fen("8/8/4k3/8/8/2R5/4K3/8 w - - 100 80").unwrap());
        assert_eq!(g.outcome(), None);
        assert_eq!(g.claimable_draw(), Some(Termination::FiftyMoves));
        let g = Game::new(Bitboards::from_fen("8/8/4k3/8/8/2R5/4K3/8 w - - 150 80").unwrap());
        assert_eq!(
            g.outcome(),
            Some(Outcome::Draw(Termination::SeventyFiveMoves))
        );
    }
}
