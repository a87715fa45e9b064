//! A game against the computer in the terminal: the board drawn with Unicode
//! pieces, moves typed in SAN or UCI, `undo`, `hint`, `flip`, and the result
//! at the end. Reads commands from any `BufRead` and writes to any `Write`,
//! so that tests can script a whole game.

use fianchetto_board::{Board, Color, Move, Square};
use fianchetto_movegen::{parse_san, parse_uci, san_line, to_san, Game, MoveGen};

/// `mv` in SAN, or in UCI notation if it is not legal in `board` (it always
/// is here: the moves come from the move generator or a legality check).
fn san_or_uci<B: MoveGen>(board: &B, mv: Move) -> String {
    to_san(board, mv).unwrap_or_else(|_| mv.to_string())
}
use std::io::{self, BufRead, Write};

/// Whoever plays against the human.
pub trait Opponent<B: Board> {
    /// A short description (algorithm, depth, evaluation) for the banner.
    fn describe(&self) -> String;
    /// The move to play in the game's current position (`None` only when
    /// there is no legal move).
    fn choose(&mut self, game: &Game<B>) -> Option<Move>;
    /// Forget anything learned (a new game starts).
    fn new_game(&mut self) {}
}

/// Draws `board` with Unicode pieces, rank 8 on top unless `flipped`, the
/// squares of `last` marked.
pub fn draw<B: Board>(board: &B, flipped: bool, last: Option<Move>) -> String {
    let mut out = String::new();
    let ranks: Vec<u8> = if flipped {
        (0..8).collect()
    } else {
        (0..8).rev().collect()
    };
    let files: Vec<u8> = if flipped {
        (0..8).rev().collect()
    } else {
        (0..8).collect()
    };
    out.push_str("   +------------------------+\n");
    for &r in &ranks {
        out.push_str(&format!(" {} |", r + 1));
        for &f in &files {
            let sq = Square::from_index_wrapping(r as usize * 8 + f as usize);
            let marked = last.is_some_and(|m| m.from() == sq || m.to() == sq);
            let piece = board
                .piece_at(sq)
                .map_or(if sq.is_light() { '·' } else { ' ' }, |p| p.symbol());
            if marked {
                out.push_str(&format!("({piece})"));
            } else {
                out.push_str(&format!(" {piece} "));
            }
        }
        out.push_str("|\n");
    }
    out.push_str("   +------------------------+\n    ");
    for &f in &files {
        out.push_str(&format!(" {} ", (b'a' + f) as char));
    }
    out.push('\n');
    out
}

const HELP: &str = "Type a move in SAN (Nf3, exd5, O-O, e8=Q) or UCI (g1f3), or:
  undo     take back your last move (and the reply)
  hint     suggest a move
  flip     turn the board around
  moves    list the legal moves
  fen      print the position as FEN
  new      start again
  resign   give up
  quit     leave";

/// Plays one session: the human has `human` colour, the opponent the other.
/// Returns when the user quits or the input ends.
pub fn play_session<B: MoveGen, O: Opponent<B>>(
    start: B,
    human: Color,
    opponent: &mut O,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> io::Result<()> {
    let mut game = Game::new(start.clone());
    let mut flipped = human == Color::Black;
    writeln!(
        out,
        "Fianchetto: you play {human} against {}.",
        opponent.describe()
    )?;
    writeln!(out, "{HELP}")?;
    let mut show = true;
    loop {
        if show {
            writeln!(
                out,
                "\n{}",
                draw(game.board(), flipped, game.moves().last().copied())
            )?;
        }
        show = true;
        if let Some(outcome) = game.outcome_with_claims() {
            let moves = san_line(game.start(), game.moves()).unwrap_or_default();
            writeln!(out, "Game over: {} ({outcome})\n{moves}", outcome.result())?;
            writeln!(out, "Type `new` to play again or `quit`.")?;
        } else if game.board().turn() != human {
            writeln!(out, "Thinking...")?;
            out.flush()?;
            match opponent.choose(&game) {
                Some(mv) if game.board().is_legal(mv) => {
                    writeln!(out, "I play {}.", san_or_uci(game.board(), mv))?;
                    game.play_unchecked(mv);
                }
                _ => {
                    writeln!(out, "The computer found no move; the game stops here.")?;
                    return Ok(());
                }
            }
            continue;
        }
        write!(out, "{} to move> ", game.board().turn())?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            return Ok(());
        }
        let text = line.trim();
        match text {
            "" => show = false,
            "quit" | "exit" => return Ok(()),
            "help" | "?" => {
                writeln!(out, "{HELP}")?;
                show = false;
            }
            "flip" => flipped = !flipped,
            "fen" => {
                writeln!(out, "{}", game.board().fen())?;
                show = false;
            }
            "moves" => {
                let b = game.board();
                let list: Vec<String> = b.legal_moves().iter().map(|&m| san_or_uci(b, m)).collect();
                writeln!(out, "{}", list.join(" "))?;
                show = false;
            }
            "new" => {
                game = Game::new(start.clone());
                opponent.new_game();
            }
            "resign" => {
                writeln!(out, "You resign: {} wins.", !human)?;
                game = Game::new(start.clone());
                opponent.new_game();
            }
            "undo" => {
                // Take back to the last position where it was the human's turn.
                let mut undone = 0;
                while game.undo().is_some() {
                    undone += 1;
                    if game.board().turn() == human {
                        break;
                    }
                }
                if undone == 0 {
                    writeln!(out, "Nothing to undo.")?;
                    show = false;
                }
            }
            "hint" => {
                match opponent.choose(&game) {
                    Some(mv) => writeln!(out, "Hint: {}", san_or_uci(game.board(), mv))?,
                    None => writeln!(out, "No move to suggest.")?,
                }
                show = false;
            }
            _ if game.outcome_with_claims().is_some() => {
                writeln!(out, "The game is over; type `new` or `quit`.")?;
                show = false;
            }
            _ => {
                let b = game.board();
                match parse_san(b, text).or_else(|e| parse_uci(b, text).map_err(|_| e)) {
                    Ok(mv) => game.play_unchecked(mv),
                    Err(e) => {
                        writeln!(out, "{e}")?;
                        show = false;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fianchetto_board::Bitboards;

    /// Plays the first legal move in generation order: a fixed, predictable
    /// opponent for scripting the session.
    struct FirstMove;
    impl<B: MoveGen> Opponent<B> for FirstMove {
        fn describe(&self) -> String {
            "the first legal move".into()
        }
        fn choose(&mut self, game: &Game<B>) -> Option<Move> {
            game.board().legal_moves().first().copied()
        }
    }

    fn run(script: &str, human: Color) -> String {
        let mut out = Vec::new();
        play_session(
            Bitboards::startpos(),
            human,
            &mut FirstMove,
            &mut script.as_bytes(),
            &mut out,
        )
        .unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn scripted_session() {
        let text = run("e4\nNf3\nundo\nxx9\nhint\nfen\nflip\nquit\n", Color::White);
        assert!(text.contains("you play white"));
        assert!(text.contains("I play"));
        assert!(
            text.contains("is not") || text.contains("not a"),
            "bad move explained: {text}"
        );
        assert!(text.contains("Hint:"));
        // After 1.e4 Na6 2.Nf3 Nb8, `undo` goes back to white's move after 1...Na6.
        assert!(
            text.contains("r1bqkbnr/pppppppp/n7/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2"),
            "{text}"
        );
        assert!(text.contains('♔') && text.contains('♚'));
    }

    #[test]
    fn playing_black_lets_the_computer_start_and_eof_ends() {
        let text = run("", Color::Black);
        assert!(text.contains("I play"));
    }

    #[test]
    fn fools_mate_ends_the_game() {
        // The first-move opponent as black answers a3?? a6 etc.; instead play
        // from a position one move from mate for the human.
        let start =
            Bitboards::from_fen("rnbqkbnr/ppppp2p/5p2/6p1/4P3/8/PPPP1PPP/RNBQKBNR w KQkq g6 0 3")
                .unwrap();
        let mut out = Vec::new();
        play_session(
            start,
            Color::White,
            &mut FirstMove,
            &mut "Qh5#\nquit\n".as_bytes(),
            &mut out,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains("Game over: 1-0 (White wins by checkmate)"),
            "{text}"
        );
    }
}
