//! What an engine sends the GUI: [`Reply`]. Its `FromStr` reads a line and
//! its `Display` writes one.

use crate::info::{parse_info, Info};
use crate::option::{parse_option, UciOption};
use crate::words::{split_line, Words};
use crate::ParseError;
use fianchetto_movegen::UciMove;
use std::fmt;
use std::str::FromStr;

/// One line from the engine to the GUI.
///
/// ```
/// use fianchetto_uci::{BestMove, Reply};
/// let reply: Reply = "bestmove e2e4 ponder e7e5".parse()?;
/// let Reply::BestMove(best) = &reply else { unreachable!() };
/// assert_eq!(best.ponder.map(|m| m.to_string()).as_deref(), Some("e7e5"));
/// assert_eq!(reply.to_string(), "bestmove e2e4 ponder e7e5");
/// // Stockfish's answer in a position without moves.
/// assert_eq!("bestmove (none)".parse::<Reply>()?.to_string(), "bestmove 0000");
/// # Ok::<(), fianchetto_uci::ParseError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `id name …` / `id author …`.
    Id(Id),
    /// `uciok`: the end of the answer to `uci`.
    UciOk,
    /// `readyok`: the answer to `isready`.
    ReadyOk,
    /// `bestmove <move> [ponder <move>]`.
    BestMove(BestMove),
    /// `copyprotection checking|ok|error`.
    CopyProtection(Status),
    /// `registration checking|ok|error`.
    Registration(Status),
    /// `info …`.
    Info(Box<Info>),
    /// `option name … type …`.
    Option(UciOption),
}

/// The engine's identity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Id {
    /// `id name <name>`.
    Name(String),
    /// `id author <author>`.
    Author(String),
}

/// The engine's move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BestMove {
    /// The move; [`UciMove::Null`] (`0000`, or Stockfish's `(none)`) when
    /// the position has none.
    pub mv: UciMove,
    /// The reply the engine expects, to ponder on.
    pub ponder: Option<UciMove>,
}

/// The state of copy protection or registration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// `checking`.
    Checking,
    /// `ok`.
    Ok,
    /// `error`.
    Error,
}

impl Status {
    fn name(self) -> &'static str {
        match self {
            Status::Checking => "checking",
            Status::Ok => "ok",
            Status::Error => "error",
        }
    }
}

fn parse_move(w: &mut Words, keyword: &str) -> Result<UciMove, ParseError> {
    let text = w.value(keyword)?;
    if text == "(none)" {
        return Ok(UciMove::Null);
    }
    text.parse().map_err(|source| ParseError::BadMove {
        command: "bestmove",
        keyword: keyword.to_string(),
        index: 1,
        source,
    })
}

fn parse_status(w: &mut Words) -> Result<Status, ParseError> {
    match w.value("status")? {
        "checking" => Ok(Status::Checking),
        "ok" => Ok(Status::Ok),
        "error" => Ok(Status::Error),
        other => Err(w.unexpected(other, "checking, ok or error")),
    }
}

impl FromStr for Reply {
    type Err = ParseError;

    /// Reads one line from an engine.
    fn from_str(line: &str) -> Result<Reply, ParseError> {
        let (first, rest) = split_line(line).ok_or(ParseError::Empty)?;
        let command = match first {
            "uciok" => return Ok(Reply::UciOk),
            "readyok" => return Ok(Reply::ReadyOk),
            "id" => "id",
            "bestmove" => "bestmove",
            "copyprotection" => "copyprotection",
            "registration" => "registration",
            "info" => "info",
            "option" => "option",
            other => {
                return Err(ParseError::Unknown {
                    kind: "reply",
                    word: other.to_string(),
                })
            }
        };
        let mut w = Words::new(&rest, command);
        Ok(match command {
            "id" => match w.next() {
                Some("name") => Reply::Id(Id::Name(w.rest())),
                Some("author") => Reply::Id(Id::Author(w.rest())),
                Some(other) => return Err(w.unexpected(other, "`name` or `author`")),
                None => {
                    return Err(ParseError::MissingValue {
                        command,
                        keyword: "name|author".into(),
                    })
                }
            },
            "bestmove" => {
                let mv = parse_move(&mut w, "bestmove")?;
                let ponder = match w.next() {
                    Some("ponder") => match parse_move(&mut w, "ponder")? {
                        UciMove::Null => None,
                        mv => Some(mv),
                    },
                    Some(other) => return Err(w.unexpected(other, "`ponder <move>`")),
                    None => None,
                };
                Reply::BestMove(BestMove { mv, ponder })
            }
            "copyprotection" => Reply::CopyProtection(parse_status(&mut w)?),
            "registration" => Reply::Registration(parse_status(&mut w)?),
            "info" => Reply::Info(Box::new(parse_info(&mut w)?)),
            _ => Reply::Option(parse_option(&mut w)?),
        })
    }
}

impl fmt::Display for BestMove {
    /// `bestmove e2e4 ponder e7e5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bestmove {}", self.mv)?;
        match self.ponder {
            Some(p) => write!(f, " ponder {p}"),
            None => Ok(()),
        }
    }
}

impl fmt::Display for Reply {
    /// The reply as one line of protocol text (without the newline).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Id(Id::Name(name)) => write!(f, "id name {name}"),
            Reply::Id(Id::Author(author)) => write!(f, "id author {author}"),
            Reply::UciOk => f.write_str("uciok"),
            Reply::ReadyOk => f.write_str("readyok"),
            Reply::BestMove(b) => b.fmt(f),
            Reply::CopyProtection(s) => write!(f, "copyprotection {}", s.name()),
            Reply::Registration(s) => write!(f, "registration {}", s.name()),
            Reply::Info(info) => info.fmt(f),
            Reply::Option(o) => o.fmt(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Bound, BoundedScore, Score, Wdl};
    use std::time::Duration;

    fn parse(line: &str) -> Result<Reply, ParseError> {
        line.parse()
    }

    #[test]
    fn reads_every_reply() {
        assert_eq!(
            parse("id name Stockfish 16"),
            Ok(Reply::Id(Id::Name("Stockfish 16".into())))
        );
        assert_eq!(parse("uciok"), Ok(Reply::UciOk));
        assert_eq!(parse("readyok"), Ok(Reply::ReadyOk));
        assert_eq!(
            parse("bestmove 0000"),
            Ok(Reply::BestMove(BestMove {
                mv: UciMove::Null,
                ponder: None
            }))
        );
        assert_eq!(
            parse("registration ok"),
            Ok(Reply::Registration(Status::Ok))
        );
        assert_eq!(
            parse("copyprotection checking"),
            Ok(Reply::CopyProtection(Status::Checking))
        );
        let Ok(Reply::Info(info)) = parse(
            "info depth 5 seldepth 7 multipv 2 score mate -3 lowerbound wdl 0 10 990 nodes 900 nps 9000 \
             hashfull 3 tbhits 1 time 100 currmove e2e4 currmovenumber 1 pv e2e4 e7e5 string hello  world",
        ) else {
            panic!()
        };
        assert_eq!(info.multipv, Some(2));
        assert_eq!(
            info.score,
            Some(BoundedScore {
                score: Score::Mate(-3),
                bound: Bound::Lower
            })
        );
        assert_eq!(
            info.wdl,
            Some(Wdl {
                win: 0,
                draw: 10,
                loss: 990
            })
        );
        assert_eq!(info.time, Some(Duration::from_millis(100)));
        assert_eq!(info.pv.len(), 2);
        assert_eq!(info.string.as_deref(), Some("hello world"));
        // Unknown words are skipped; a list of moves ends at a word that is
        // not a move.
        let Ok(Reply::Info(info)) = parse("info depth 2 ebf 1.5 pv e2e4 bogus nodes 7") else {
            panic!()
        };
        assert_eq!(
            (info.depth, info.pv.len(), info.nodes),
            (Some(2), 1, Some(7))
        );
        let Ok(Reply::Info(info)) = parse("info currline 2 e2e4 e7e5 refutation d1h5 g6h5") else {
            panic!()
        };
        assert_eq!(
            info.currline.map(|c| (c.cpu, c.moves.len())),
            Some((Some(2), 2))
        );
        assert_eq!(info.refutation.len(), 2);
    }

    #[test]
    fn names_what_is_wrong() {
        for (line, want) in [
            ("", "empty line"),
            ("hello", "unknown reply `hello`"),
            ("bestmove", "`bestmove`: `bestmove` needs a value"),
            ("bestmove e2e4 later", "`bestmove`: unexpected `later`; expected `ponder <move>`"),
            ("bestmove e9e4", "`bestmove`: move 1 after `bestmove`: `e9e4` is not a UCI move (its first two characters are not a square such as e2; expected from- and to-square and an optional promotion letter, like e2e4 or e7e8q)"),
            ("info depth deep", "`info`: `depth` expects a non-negative whole number, got `deep`"),
            ("info score cp", "`info`: `cp` needs a value"),
            ("info score", "`info`: `score` needs a value"),
            ("info score pawns 3", "`info`: unexpected `pawns`; expected `cp <centipawns>` or `mate <moves>`"),
            ("info wdl 1 2", "`info`: `wdl` needs a value"),
            ("id", "`id`: `name|author` needs a value"),
            ("registration maybe", "`registration`: unexpected `maybe`; expected checking, ok or error"),
        ] {
            assert_eq!(parse(line).unwrap_err().to_string(), want, "{line}");
        }
    }

    #[test]
    fn writes_what_it_reads() {
        for line in [
            "id name Fianchetto 0.1.0",
            "id author the Fianchetto developers",
            "uciok",
            "readyok",
            "bestmove e7e8q ponder a7a8n",
            "bestmove e2e4",
            "copyprotection error",
            "registration checking",
            "info depth 20 seldepth 31 multipv 1 score cp 23 wdl 80 880 40 nodes 1 nps 2 hashfull 3 tbhits 4 sbhits 5 cpuload 6 time 7 currmove e2e4 currmovenumber 8 pv e2e4 e7e5 refutation d1h5 g7g6 currline 1 e2e4 string any text",
            "info depth 3 score mate -1 upperbound",
            "info string only",
            "option name Threads type spin default 1 min 1 max 512",
        ] {
            assert_eq!(parse(line).map(|r| r.to_string()), Ok(line.to_string()));
        }
    }
}
