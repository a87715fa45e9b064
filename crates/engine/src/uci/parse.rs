//! Parsing UCI commands from text into [`UciCommand`] values, with an error
//! that names what is wrong for anything malformed. Nothing here touches the
//! engine's state: a line that does not parse changes nothing.

use std::fmt;

/// The parameters of `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// Only consider these moves at the root (UCI text, checked later).
    pub searchmoves: Vec<String>,
    /// Search in pondering mode (on the opponent's time).
    pub ponder: bool,
    /// White's remaining time in ms.
    pub wtime: Option<u64>,
    /// Black's remaining time in ms.
    pub btime: Option<u64>,
    /// White's increment per move in ms.
    pub winc: Option<u64>,
    /// Black's increment per move in ms.
    pub binc: Option<u64>,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Search this many plies only.
    pub depth: Option<u32>,
    /// Search this many nodes only.
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    /// Search exactly this many ms.
    pub movetime: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Not UCI but common (Stockfish): `go perft N` prints a divide.
    pub perft: Option<u32>,
}

/// One command from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciCommand {
    /// `uci`: identify and list options.
    Uci,
    /// `debug on|off`.
    Debug(bool),
    /// `isready`: answer `readyok` once ready.
    IsReady,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// Option name (may contain spaces).
        name: String,
        /// The value, if given (may contain spaces).
        value: Option<String>,
    },
    /// `register ...` (accepted and ignored: nothing to register).
    Register,
    /// `ucinewgame`.
    UciNewGame,
    /// `position startpos|fen <fen> [moves m1 m2 ...]`.
    Position {
        /// The FEN, or `None` for the start position.
        fen: Option<String>,
        /// The moves played from it, as UCI text.
        moves: Vec<String>,
    },
    /// `go ...`.
    Go(GoParams),
    /// `stop`.
    Stop,
    /// `ponderhit`: the opponent played the move we pondered on.
    PonderHit,
    /// `quit`.
    Quit,
    /// `d` (not UCI, as in Stockfish): draw the current position.
    Display,
    /// `eval` (not UCI, as in Stockfish): print the static evaluation.
    Eval,
}

/// What is wrong with a command line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UciParseError {
    /// The first word is not a command.
    #[error("unknown command `{0}`")]
    Unknown(String),
    /// A keyword needs a value that is missing.
    #[error("`{command}`: `{keyword}` needs a value")]
    MissingValue {
        /// The command.
        command: &'static str,
        /// The keyword.
        keyword: String,
    },
    /// A value is not a number in range.
    #[error("`{command}`: `{keyword}` expects a non-negative whole number, got `{value}`")]
    BadNumber {
        /// The command.
        command: &'static str,
        /// The keyword.
        keyword: String,
        /// The text given.
        value: String,
    },
    /// A word that is not one of the command's keywords.
    #[error("`{command}`: unexpected `{word}`; expected {expected}")]
    Unexpected {
        /// The command.
        command: &'static str,
        /// The word.
        word: String,
        /// What would have been valid there.
        expected: &'static str,
    },
}

impl fmt::Display for UciCommand {
    /// The command as UCI text (for logs and tests).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciCommand::Uci => f.write_str("uci"),
            UciCommand::Debug(on) => write!(f, "debug {}", if *on { "on" } else { "off" }),
            UciCommand::IsReady => f.write_str("isready"),
            UciCommand::SetOption {
                name,
                value: Some(v),
            } => write!(f, "setoption name {name} value {v}"),
            UciCommand::SetOption { name, value: None } => write!(f, "setoption name {name}"),
            UciCommand::Register => f.write_str("register"),
            UciCommand::UciNewGame => f.write_str("ucinewgame"),
            UciCommand::Position { fen, moves } => {
                match fen {
                    Some(fen) => write!(f, "position fen {fen}")?,
                    None => f.write_str("position startpos")?,
                }
                if !moves.is_empty() {
                    write!(f, " moves {}", moves.join(" "))?;
                }
                Ok(())
            }
            UciCommand::Go(_) => f.write_str("go ..."),
            UciCommand::Stop => f.write_str("stop"),
            UciCommand::PonderHit => f.write_str("ponderhit"),
            UciCommand::Quit => f.write_str("quit"),
            UciCommand::Display => f.write_str("d"),
            UciCommand::Eval => f.write_str("eval"),
        }
    }
}

/// Parses one line. `Ok(None)` for a blank line (UCI says to ignore it).
/// Unknown leading words are an error here; the protocol suggests skipping
/// unknown tokens, but naming the mistake helps users typing by hand, and the
/// engine answers with an `info string` and carries on either way.
pub fn parse_command(line: &str) -> Result<Option<UciCommand>, UciParseError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&first, rest)) = words.split_first() else {
        return Ok(None);
    };
    let cmd = match first {
        "uci" => UciCommand::Uci,
        "isready" => UciCommand::IsReady,
        "ucinewgame" => UciCommand::UciNewGame,
        "stop" => UciCommand::Stop,
        "ponderhit" => UciCommand::PonderHit,
        "quit" => UciCommand::Quit,
        "register" => UciCommand::Register,
        "d" => UciCommand::Display,
        "eval" => UciCommand::Eval,
        "debug" => match rest.first().copied() {
            Some("on") | None => UciCommand::Debug(true),
            Some("off") => UciCommand::Debug(false),
            Some(w) => {
                return Err(UciParseError::Unexpected {
                    command: "debug",
                    word: w.to_string(),
                    expected: "`on` or `off`",
                })
            }
        },
        "setoption" => parse_setoption(rest)?,
        "position" => parse_position(rest)?,
        "go" => UciCommand::Go(parse_go(rest)?),
        other => return Err(UciParseError::Unknown(other.to_string())),
    };
    Ok(Some(cmd))
}

fn parse_setoption(words: &[&str]) -> Result<UciCommand, UciParseError> {
    match words.first() {
        Some(&"name") => {}
        Some(w) => {
            return Err(UciParseError::Unexpected {
                command: "setoption",
                word: w.to_string(),
                expected: "`name`",
            })
        }
        None => {
            return Err(UciParseError::MissingValue {
                command: "setoption",
                keyword: "name".into(),
            })
        }
    }
    let words = &words[1..];
    let split = words.iter().position(|w| *w == "value");
    let (name_words, value) = match split {
        Some(i) => (&words[..i], Some(words[i + 1..].join(" "))),
        None => (words, None),
    };
    if name_words.is_empty() {
        return Err(UciParseError::MissingValue {
            command: "setoption",
            keyword: "name".into(),
        });
    }
    Ok(UciCommand::SetOption {
        name: name_words.join(" "),
        value,
    })
}

fn parse_position(words: &[&str]) -> Result<UciCommand, UciParseError> {
    let (fen, rest) = match words.first() {
        Some(&"startpos") => (None, &words[1..]),
        Some(&"fen") => {
            let end = words
                .iter()
                .position(|w| *w == "moves")
                .unwrap_or(words.len());
            if end == 1 {
                return Err(UciParseError::MissingValue {
                    command: "position",
                    keyword: "fen".into(),
                });
            }
            (Some(words[1..end].join(" ")), &words[end..])
        }
        Some(w) => {
            return Err(UciParseError::Unexpected {
                command: "position",
                word: w.to_string(),
                expected: "`startpos` or `fen <FEN>`",
            })
        }
        None => {
            return Err(UciParseError::MissingValue {
                command: "position",
                keyword: "startpos|fen".into(),
            })
        }
    };
    let moves = match rest.split_first() {
        None => Vec::new(),
        Some((&"moves", moves)) => moves.iter().map(|m| m.to_string()).collect(),
        Some((w, _)) => {
            return Err(UciParseError::Unexpected {
                command: "position",
                word: w.to_string(),
                expected: "`moves`",
            })
        }
    };
    Ok(UciCommand::Position { fen, moves })
}

fn number<T: std::str::FromStr>(words: &[&str], i: usize) -> Result<T, UciParseError> {
    let keyword = words[i].to_string();
    let value = words
        .get(i + 1)
        .ok_or_else(|| UciParseError::MissingValue {
            command: "go",
            keyword: keyword.clone(),
        })?;
    value.parse().map_err(|_| UciParseError::BadNumber {
        command: "go",
        keyword,
        value: value.to_string(),
    })
}

/// Times may be negative in some GUIs when a clock runs out mid-move: read
/// them as signed and clamp at zero rather than refuse the search.
fn time(words: &[&str], i: usize) -> Result<u64, UciParseError> {
    number::<i64>(words, i).map(|t| t.max(0) as u64)
}

fn parse_go(words: &[&str]) -> Result<GoParams, UciParseError> {
    let mut p = GoParams::default();
    let mut i = 0;
    while i < words.len() {
        let mut step = 2;
        match words[i] {
            "ponder" => {
                p.ponder = true;
                step = 1;
            }
            "infinite" => {
                p.infinite = true;
                step = 1;
            }
            "wtime" => p.wtime = Some(time(words, i)?),
            "btime" => p.btime = Some(time(words, i)?),
            "winc" => p.winc = Some(time(words, i)?),
            "binc" => p.binc = Some(time(words, i)?),
            "movestogo" => p.movestogo = Some(number(words, i)?),
            "depth" => p.depth = Some(number(words, i)?),
            "nodes" => p.nodes = Some(number(words, i)?),
            "mate" => p.mate = Some(number(words, i)?),
            "movetime" => p.movetime = Some(time(words, i)?),
            "perft" => p.perft = Some(number(words, i)?),
            "searchmoves" => {
                // Every following word that is not a go keyword is a move.
                let moves: Vec<String> =
                    words[i + 1..].iter().take_while(|w| !is_go_keyword(w)).map(|w| w.to_string()).collect();
                step = 1 + moves.len();
                p.searchmoves = moves;
            }
            w => {
                return Err(UciParseError::Unexpected {
                    command: "go",
                    word: w.to_string(),
                    expected: "searchmoves, ponder, wtime, btime, winc, binc, movestogo, depth, nodes, mate, movetime, infinite or perft",
                })
            }
        }
        i += step;
    }
    Ok(p)
}

fn is_go_keyword(w: &str) -> bool {
    matches!(
        w,
        "searchmoves"
            | "ponder"
            | "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movestogo"
            | "depth"
            | "nodes"
            | "mate"
            | "movetime"
            | "infinite"
            | "perft"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_protocol() {
        assert_eq!(parse_command("  "), Ok(None));
        assert_eq!(parse_command("uci"), Ok(Some(UciCommand::Uci)));
        assert_eq!(
            parse_command("debug off"),
            Ok(Some(UciCommand::Debug(false)))
        );
        assert_eq!(
            parse_command("setoption name Move Overhead value 30"),
            Ok(Some(UciCommand::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            }))
        );
        assert_eq!(
            parse_command("setoption name Clear Hash"),
            Ok(Some(UciCommand::SetOption {
                name: "Clear Hash".into(),
                value: None
            }))
        );
        assert_eq!(
            parse_command("position startpos moves e2e4 e7e5"),
            Ok(Some(UciCommand::Position {
                fen: None,
                moves: vec!["e2e4".into(), "e7e5".into()]
            }))
        );
        assert_eq!(
            parse_command("position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1a2"),
            Ok(Some(UciCommand::Position {
                fen: Some("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
                moves: vec!["a1a2".into()]
            }))
        );
        let Ok(Some(UciCommand::Go(g))) = parse_command(
            "go wtime 1000 btime -5 winc 10 binc 10 movestogo 20 searchmoves e2e4 d2d4 depth 7",
        ) else {
            panic!("go did not parse");
        };
        assert_eq!(
            (g.wtime, g.btime, g.winc, g.movestogo, g.depth),
            (Some(1000), Some(0), Some(10), Some(20), Some(7))
        );
        assert_eq!(g.searchmoves, vec!["e2e4".to_string(), "d2d4".to_string()]);
        let Ok(Some(UciCommand::Go(g))) = parse_command("go infinite ponder") else {
            panic!()
        };
        assert!(g.infinite && g.ponder);
    }

    #[test]
    fn names_what_is_wrong() {
        assert_eq!(
            parse_command("hello"),
            Err(UciParseError::Unknown("hello".into()))
        );
        assert!(matches!(
            parse_command("go depth"),
            Err(UciParseError::MissingValue { .. })
        ));
        assert!(matches!(
            parse_command("go depth x"),
            Err(UciParseError::BadNumber { .. })
        ));
        assert!(matches!(
            parse_command("go depth -1"),
            Err(UciParseError::BadNumber { .. })
        ));
        assert!(matches!(
            parse_command("go sideways"),
            Err(UciParseError::Unexpected { .. })
        ));
        assert!(matches!(
            parse_command("position"),
            Err(UciParseError::MissingValue { .. })
        ));
        assert!(matches!(
            parse_command("position fen"),
            Err(UciParseError::MissingValue { .. })
        ));
        assert!(matches!(
            parse_command("position startpos e2e4"),
            Err(UciParseError::Unexpected { .. })
        ));
        assert!(matches!(
            parse_command("setoption Hash value 3"),
            Err(UciParseError::Unexpected { .. })
        ));
        assert_eq!(
            parse_command("go depth x").unwrap_err().to_string(),
            "`go`: `depth` expects a non-negative whole number, got `x`"
        );
    }
}
