//! What a GUI sends an engine: [`Command`], with `go`'s limits in [`Go`]
//! and `position` in [`Position`]. [`Command`]'s `FromStr` reads a line and
//! its `Display` writes one, so that `line.parse::<Command>()?.to_string()`
//! gives the line back in its plain form (single spaces, keywords in the
//! protocol's order).

use crate::words::{split_line, Words};
use crate::ParseError;
use fianchetto_board::CastlingMode;
use fianchetto_movegen::{Game, MoveGen, UciMove};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// One command from the GUI to the engine.
///
/// ```
/// use fianchetto_uci::{Command, Go};
/// let cmd: Command = "go wtime 1000 btime 900 movestogo 20".parse()?;
/// let Command::Go(go) = &cmd else { unreachable!() };
/// assert_eq!(go.movestogo, Some(20));
/// assert_eq!(cmd.to_string(), "go wtime 1000 btime 900 movestogo 20");
/// assert_eq!(Command::Go(Go::depth(7)).to_string(), "go depth 7");
/// # Ok::<(), fianchetto_uci::ParseError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify yourself, list your options, answer `uciok`.
    Uci,
    /// `debug on` / `debug off` (a bare `debug` reads as on).
    Debug(bool),
    /// `isready`: answer `readyok` once every command before is done.
    IsReady,
    /// `setoption name <name> [value <value>]`; the name and the value may
    /// hold spaces. A button has no value.
    SetOption {
        /// The option's name.
        name: String,
        /// The value, when one is given.
        value: Option<String>,
    },
    /// `register later` or `register name <name> code <code>`.
    Register(Registration),
    /// `ucinewgame`: the next position is from another game.
    UciNewGame,
    /// `position startpos|fen <FEN> [moves …]`.
    Position(Position),
    /// `go …`: search.
    Go(Go),
    /// `stop`: end the search and answer `bestmove` now.
    Stop,
    /// `ponderhit`: the opponent played the move the engine ponders on.
    PonderHit,
    /// `quit`.
    Quit,
    /// `d` (not UCI; Stockfish's): draw the position.
    Display,
    /// `eval` (not UCI; Stockfish's): print the static evaluation.
    Eval,
}

/// The arguments of `register`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Registration {
    /// `register later` (also a bare `register`).
    #[default]
    Later,
    /// `register name <name> code <code>`; either part may be missing.
    Now {
        /// The user's name.
        name: Option<String>,
        /// The registration code.
        code: Option<String>,
    },
}

/// `position`: a start (the standard one or a FEN) and the moves played
/// from it. The FEN is kept as text: whether it is a legal position (and
/// how its castling rights read, with `UCI_Chess960`) is for the engine to
/// decide.
///
/// ```
/// use fianchetto_board::{Bitboards, Board, CastlingMode};
/// use fianchetto_movegen::Game;
/// use fianchetto_uci::Position;
/// let mut game = Game::new(Bitboards::startpos());
/// game.play_uci("e2e4")?;
/// let position = Position::of_game(&game, CastlingMode::Standard);
/// assert_eq!(position.to_string(), "position startpos moves e2e4");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Position {
    /// The FEN of the start, or `None` for the standard start position.
    pub fen: Option<String>,
    /// The moves played from it.
    pub moves: Vec<UciMove>,
}

impl Position {
    /// The position of `game`: its start (as `startpos` when it is the
    /// standard one) and its moves, castling written as `mode` says
    /// (king takes rook for Chess960).
    pub fn of_game<B: MoveGen>(game: &Game<B>, mode: CastlingMode) -> Position {
        let start = game.start();
        let fen = start.fen();
        let mut board = start.clone();
        let moves = game
            .moves()
            .iter()
            .map(|&mv| {
                let text = UciMove::from_move(mv, board.castling(), mode);
                board.play_unchecked(mv);
                text
            })
            .collect();
        Position {
            fen: (fen != fianchetto_board::START_FEN).then_some(fen),
            moves,
        }
    }
}

impl fmt::Display for Position {
    /// The whole command: `position startpos moves e2e4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.fen {
            Some(fen) => write!(f, "position fen {fen}")?,
            None => f.write_str("position startpos")?,
        }
        if !self.moves.is_empty() {
            f.write_str(" moves")?;
            for mv in &self.moves {
                write!(f, " {mv}")?;
            }
        }
        Ok(())
    }
}

/// The limits and modes of `go`. Times are whole milliseconds on the wire;
/// a negative time (a GUI whose clock ran out during the move) reads as zero.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Go {
    /// Search only these moves at the root.
    pub searchmoves: Vec<UciMove>,
    /// Search in pondering mode, on the opponent's time, until `ponderhit`
    /// or `stop`.
    pub ponder: bool,
    /// White's clock.
    pub wtime: Option<Duration>,
    /// Black's clock.
    pub btime: Option<Duration>,
    /// White's increment per move.
    pub winc: Option<Duration>,
    /// Black's increment per move.
    pub binc: Option<Duration>,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Search this many plies.
    pub depth: Option<u32>,
    /// Search this many nodes.
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    /// Search exactly this long.
    pub movetime: Option<Duration>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Not UCI (Stockfish's): count the move tree to this depth and print
    /// a divide.
    pub perft: Option<u32>,
}

impl Go {
    /// `go depth N`.
    pub fn depth(plies: u32) -> Go {
        Go {
            depth: Some(plies),
            ..Go::default()
        }
    }

    /// `go nodes N`.
    pub fn nodes(nodes: u64) -> Go {
        Go {
            nodes: Some(nodes),
            ..Go::default()
        }
    }

    /// `go movetime T`.
    pub fn movetime(time: Duration) -> Go {
        Go {
            movetime: Some(time),
            ..Go::default()
        }
    }

    /// `go infinite`.
    pub fn infinite() -> Go {
        Go {
            infinite: true,
            ..Go::default()
        }
    }

    /// `go wtime … btime … winc … binc …`: both clocks and increments.
    pub fn clock(white: Duration, black: Duration, white_inc: Duration, black_inc: Duration) -> Go {
        Go {
            wtime: Some(white),
            btime: Some(black),
            winc: Some(white_inc),
            binc: Some(black_inc),
            ..Go::default()
        }
    }

    /// Whether only `stop` (or `ponderhit`) ends this search.
    pub fn is_unbounded(&self) -> bool {
        self.infinite || self.ponder
    }
}

impl fmt::Display for Go {
    /// The whole command, keywords in the protocol's order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        if !self.searchmoves.is_empty() {
            f.write_str(" searchmoves")?;
            for mv in &self.searchmoves {
                write!(f, " {mv}")?;
            }
        }
        if self.ponder {
            f.write_str(" ponder")?;
        }
        let times = [
            ("wtime", self.wtime),
            ("btime", self.btime),
            ("winc", self.winc),
            ("binc", self.binc),
        ];
        for (key, t) in times {
            if let Some(t) = t {
                write!(f, " {key} {}", t.as_millis())?;
            }
        }
        let counts = [
            ("movestogo", self.movestogo.map(u64::from)),
            ("depth", self.depth.map(u64::from)),
            ("nodes", self.nodes),
            ("mate", self.mate.map(u64::from)),
            ("movetime", self.movetime.map(|t| t.as_millis() as u64)),
        ];
        for (key, n) in counts {
            if let Some(n) = n {
                write!(f, " {key} {n}")?;
            }
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        if let Some(depth) = self.perft {
            write!(f, " perft {depth}")?;
        }
        Ok(())
    }
}

/// The keywords of `go`.
const GO_KEYWORDS: &[&str] = &[
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

fn parse_go(w: &mut Words) -> Result<Go, ParseError> {
    let mut go = Go::default();
    while let Some(word) = w.next() {
        match word {
            "ponder" => go.ponder = true,
            "infinite" => go.infinite = true,
            "wtime" => go.wtime = Some(w.millis(word)?),
            "btime" => go.btime = Some(w.millis(word)?),
            "winc" => go.winc = Some(w.millis(word)?),
            "binc" => go.binc = Some(w.millis(word)?),
            "movetime" => go.movetime = Some(w.millis(word)?),
            "movestogo" => go.movestogo = Some(w.count(word)?),
            "depth" => go.depth = Some(w.count(word)?),
            "nodes" => go.nodes = Some(w.count(word)?),
            "mate" => go.mate = Some(w.count(word)?),
            "perft" => go.perft = Some(w.count(word)?),
            "searchmoves" => {
                go.searchmoves = w.strict_moves(word, |x| GO_KEYWORDS.contains(&x))?;
            }
            other => {
                return Err(w.unexpected(
                    other,
                    "searchmoves, ponder, wtime, btime, winc, binc, movestogo, depth, nodes, mate, movetime, infinite or perft",
                ))
            }
        }
    }
    Ok(go)
}

fn parse_position(w: &mut Words) -> Result<Position, ParseError> {
    let fen = match w.next() {
        Some("startpos") => None,
        Some("fen") => {
            let fen = w.text_until(|x| x == "moves");
            if fen.is_empty() {
                return Err(ParseError::MissingValue {
                    command: w.command,
                    keyword: "fen".into(),
                });
            }
            Some(fen)
        }
        Some(other) => return Err(w.unexpected(other, "`startpos` or `fen <FEN>`")),
        None => {
            return Err(ParseError::MissingValue {
                command: w.command,
                keyword: "startpos|fen".into(),
            })
        }
    };
    let moves = match w.next() {
        None => Vec::new(),
        Some("moves") => w.strict_moves("moves", |_| false)?,
        Some(other) => return Err(w.unexpected(other, "`moves`")),
    };
    Ok(Position { fen, moves })
}

fn parse_setoption(w: &mut Words) -> Result<Command, ParseError> {
    let name = w.name_until("value")?;
    // `value` with nothing after it is an empty value (a string option
    // cleared), not a missing one.
    let value = w.next().map(|_| w.rest());
    Ok(Command::SetOption { name, value })
}

fn parse_register(w: &mut Words) -> Registration {
    let (mut name, mut code) = (None, None);
    while let Some(word) = w.next() {
        match word {
            "name" => name = Some(w.text_until(|x| x == "code")),
            "code" => code = Some(w.text_until(|x| x == "name")),
            // `later`, and anything unknown: registration is optional.
            _ => {}
        }
    }
    match (name, code) {
        (None, None) => Registration::Later,
        (name, code) => Registration::Now { name, code },
    }
}

impl FromStr for Command {
    type Err = ParseError;

    /// Reads one line. A blank line is [`ParseError::Empty`]; a first word
    /// that is not a command is an error (the protocol suggests skipping
    /// unknown words, but naming the mistake helps a user typing by hand).
    fn from_str(line: &str) -> Result<Command, ParseError> {
        let (first, rest) = split_line(line).ok_or(ParseError::Empty)?;
        let simple = match first {
            "uci" => Some(Command::Uci),
            "isready" => Some(Command::IsReady),
            "ucinewgame" => Some(Command::UciNewGame),
            "stop" => Some(Command::Stop),
            "ponderhit" => Some(Command::PonderHit),
            "quit" => Some(Command::Quit),
            "d" => Some(Command::Display),
            "eval" => Some(Command::Eval),
            _ => None,
        };
        if let Some(cmd) = simple {
            return Ok(cmd);
        }
        let command = match first {
            "debug" => "debug",
            "setoption" => "setoption",
            "register" => "register",
            "position" => "position",
            "go" => "go",
            other => {
                return Err(ParseError::Unknown {
                    kind: "command",
                    word: other.to_string(),
                })
            }
        };
        let mut w = Words::new(&rest, command);
        Ok(match command {
            "debug" => match w.next() {
                Some("on") | None => Command::Debug(true),
                Some("off") => Command::Debug(false),
                Some(other) => return Err(w.unexpected(other, "`on` or `off`")),
            },
            "setoption" => parse_setoption(&mut w)?,
            "register" => Command::Register(parse_register(&mut w)),
            "position" => Command::Position(parse_position(&mut w)?),
            _ => Command::Go(parse_go(&mut w)?),
        })
    }
}

impl fmt::Display for Command {
    /// The command as one line of protocol text (without the newline).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Uci => f.write_str("uci"),
            Command::Debug(on) => write!(f, "debug {}", if *on { "on" } else { "off" }),
            Command::IsReady => f.write_str("isready"),
            Command::SetOption { name, value } => {
                write!(f, "setoption name {name}")?;
                match value {
                    Some(v) => write!(f, " value {v}"),
                    None => Ok(()),
                }
            }
            Command::Register(Registration::Later) => f.write_str("register later"),
            Command::Register(Registration::Now { name, code }) => {
                f.write_str("register")?;
                if let Some(name) = name {
                    write!(f, " name {name}")?;
                }
                if let Some(code) = code {
                    write!(f, " code {code}")?;
                }
                Ok(())
            }
            Command::UciNewGame => f.write_str("ucinewgame"),
            Command::Position(p) => p.fmt(f),
            Command::Go(go) => go.fmt(f),
            Command::Stop => f.write_str("stop"),
            Command::PonderHit => f.write_str("ponderhit"),
            Command::Quit => f.write_str("quit"),
            Command::Display => f.write_str("d"),
            Command::Eval => f.write_str("eval"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Command, ParseError> {
        line.parse()
    }

    #[test]
    fn reads_every_command() {
        assert_eq!(parse("  "), Err(ParseError::Empty));
        assert_eq!(parse("uci"), Ok(Command::Uci));
        assert_eq!(parse("debug off"), Ok(Command::Debug(false)));
        assert_eq!(parse("debug"), Ok(Command::Debug(true)));
        assert_eq!(
            parse("setoption name Move Overhead value 30"),
            Ok(Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            })
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Ok(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert_eq!(
            parse("setoption name BookFile value"),
            Ok(Command::SetOption {
                name: "BookFile".into(),
                value: Some(String::new())
            })
        );
        assert_eq!(
            parse("position startpos moves e2e4 e7e5"),
            Ok(Command::Position(Position {
                fen: None,
                moves: vec!["e2e4".parse().unwrap(), "e7e5".parse().unwrap()]
            }))
        );
        assert_eq!(
            parse("position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1a2"),
            Ok(Command::Position(Position {
                fen: Some("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
                moves: vec!["a1a2".parse().unwrap()]
            }))
        );
        let Ok(Command::Go(g)) = parse(
            "go wtime 1000 btime -5 winc 10 binc 10 movestogo 20 searchmoves e2e4 d2d4 depth 7",
        ) else {
            panic!("go did not parse");
        };
        let ms = Duration::from_millis;
        assert_eq!(
            (g.wtime, g.btime, g.winc, g.movestogo, g.depth),
            (Some(ms(1000)), Some(ms(0)), Some(ms(10)), Some(20), Some(7))
        );
        assert_eq!(g.searchmoves.len(), 2);
        let Ok(Command::Go(g)) = parse("go infinite ponder mate 3 nodes 5 movetime 70 perft 2")
        else {
            panic!()
        };
        assert!(g.infinite && g.ponder && g.is_unbounded());
        assert_eq!(
            (g.mate, g.nodes, g.movetime, g.perft),
            (Some(3), Some(5), Some(ms(70)), Some(2))
        );
        assert_eq!(
            parse("register later"),
            Ok(Command::Register(Registration::Later))
        );
        assert_eq!(
            parse("register name Ada Lovelace code 42"),
            Ok(Command::Register(Registration::Now {
                name: Some("Ada Lovelace".into()),
                code: Some("42".into())
            }))
        );
    }

    #[test]
    fn names_what_is_wrong() {
        assert_eq!(
            parse("hello"),
            Err(ParseError::Unknown {
                kind: "command",
                word: "hello".into()
            })
        );
        for (line, want) in [
            ("go depth", "`go`: `depth` needs a value"),
            ("go depth x", "`go`: `depth` expects a non-negative whole number, got `x`"),
            ("go depth -1", "`go`: `depth` expects a non-negative whole number, got `-1`"),
            ("go wtime soon", "`go`: `wtime` expects a whole number of milliseconds, got `soon`"),
            ("go sideways", "`go`: unexpected `sideways`; expected searchmoves, ponder, wtime, btime, winc, binc, movestogo, depth, nodes, mate, movetime, infinite or perft"),
            ("go searchmoves e2e4 zz", "`go`: move 2 after `searchmoves`: `zz` is not a UCI move (it has 2 characters, not 4 or 5; expected from- and to-square and an optional promotion letter, like e2e4 or e7e8q)"),
            ("position", "`position`: `startpos|fen` needs a value"),
            ("position fen", "`position`: `fen` needs a value"),
            ("position fen moves e2e4", "`position`: `fen` needs a value"),
            ("position startpos e2e4", "`position`: unexpected `e2e4`; expected `moves`"),
            ("setoption", "`setoption`: `name` needs a value"),
            ("setoption value 3", "`setoption`: unexpected `value`; expected `name`"),
            ("setoption name value 3", "`setoption`: `name` needs a value"),
            ("position middle", "`position`: unexpected `middle`; expected `startpos` or `fen <FEN>`"),
            ("setoption Hash value 3", "`setoption`: unexpected `Hash`; expected `name`"),
            ("setoption name value 3", "`setoption`: `name` needs a value"),
            ("debug maybe", "`debug`: unexpected `maybe`; expected `on` or `off`"),
        ] {
            assert_eq!(parse(line).unwrap_err().to_string(), want, "{line}");
        }
    }

    #[test]
    fn writes_what_it_reads() {
        for line in [
            "uci",
            "debug on",
            "debug off",
            "isready",
            "setoption name Move Overhead value 30",
            "setoption name Clear Hash",
            "register later",
            "register name Ada code 42",
            "ucinewgame",
            "position startpos",
            "position startpos moves e2e4 e7e5 e1e2",
            "position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1a2",
            "go",
            "go searchmoves e2e4 d2d4 ponder wtime 1 btime 2 winc 3 binc 4 movestogo 5 depth 6 nodes 7 mate 8 movetime 9 infinite perft 10",
            "stop",
            "ponderhit",
            "quit",
            "d",
            "eval",
        ] {
            assert_eq!(parse(line).map(|c| c.to_string()), Ok(line.to_string()));
        }
        // Plain form: single spaces, the protocol's keyword order.
        assert_eq!(
            parse("go  depth 3   wtime 10").unwrap().to_string(),
            "go wtime 10 depth 3"
        );
    }

    #[test]
    fn the_position_of_a_game() {
        use fianchetto_board::{Bitboards, Board};
        let fen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNN1KR w Hhf - 0 1";
        let board = Bitboards::from_fen_with(fen, CastlingMode::Chess960).unwrap();
        let mut game = Game::new(board);
        let castle = fianchetto_movegen::parse_uci(game.board(), "g1h1").unwrap();
        game.play(castle).unwrap();
        let p = Position::of_game(&game, CastlingMode::Chess960);
        assert_eq!(p.moves, vec!["g1h1".parse().unwrap()]);
        assert!(p.fen.is_some());
        let p = Position::of_game(&Game::new(Bitboards::startpos()), CastlingMode::Standard);
        assert_eq!(p.to_string(), "position startpos");
    }
}
