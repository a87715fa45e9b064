//! Comment commands: the `[%name args]` notes that Lichess, ChessBase and
//! cutechess write inside PGN comments, read into [`Commands`] and written
//! back from it. The free text of a comment is kept apart.

use core::fmt::{self, Write as _};
use core::time::Duration;
use fianchetto_board::Square;

/// The typed commands of a move's comments:
///
/// | command | field | example |
/// | --- | --- | --- |
/// | `[%clk h:mm:ss]` | [`clock`](Commands::clock): the mover's remaining time (minutes and seconds below 60) | `[%clk 1:02:03]`, `[%clk 0:00:07.5]` |
/// | `[%emt h:mm:ss]` | [`elapsed`](Commands::elapsed): time spent on the move | `[%emt 0:00:12]` |
/// | `[%eval score,depth]` | [`eval`](Commands::eval): white's view, in pawns or mate | `[%eval 0.35,20]`, `[%eval #-3]` |
/// | `[%cal ...]` | [`arrows`](Commands::arrows) | `[%cal Ge2e4,Rd1d8]` |
/// | `[%csl ...]` | [`squares`](Commands::squares): highlighted squares | `[%csl Gd4,Re5]` |
///
/// A command that is malformed (`[%clk 1:2]`, `[%clk 0:99:99]`,
/// `[%eval x]`) or of another kind is not read: it stays in the comment's
/// text, untouched, and its field stays empty.
///
/// ```
/// use core::time::Duration;
/// use fianchetto_movegen::pgn::{Commands, Eval, MarkColor};
///
/// let (commands, text) = Commands::extract("[%eval -1.25,18] [%clk 0:03:07] White is lost [%cal Re1e8]");
/// assert_eq!(text, "White is lost");
/// assert_eq!(commands.clock, Some(Duration::from_secs(187)));
/// assert_eq!(commands.eval, Some(Eval::centipawns(-125).with_depth(18)));
/// assert_eq!(commands.arrows[0].color, MarkColor::Red);
/// assert_eq!(commands.to_string(), "[%eval -1.25,18] [%clk 0:03:07] [%cal Re1e8]");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Commands {
    /// `[%clk]`: the clock of the side that moved, after the move.
    pub clock: Option<Duration>,
    /// `[%emt]`: the time the move took.
    pub elapsed: Option<Duration>,
    /// `[%eval]`: the evaluation after the move.
    pub eval: Option<Eval>,
    /// `[%cal]`: arrows drawn on the board.
    pub arrows: Vec<Arrow>,
    /// `[%csl]`: highlighted squares.
    pub squares: Vec<SquareMark>,
}

/// The colour of an arrow or a highlighted square: the four that
/// ChessBase and Lichess use (`R`, `G`, `Y`, `B`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MarkColor {
    /// `R`.
    Red,
    /// `G`.
    Green,
    /// `Y`.
    Yellow,
    /// `B`.
    Blue,
}

impl MarkColor {
    /// The colour's letter: `R`, `G`, `Y` or `B`.
    pub const fn char(self) -> char {
        match self {
            MarkColor::Red => 'R',
            MarkColor::Green => 'G',
            MarkColor::Yellow => 'Y',
            MarkColor::Blue => 'B',
        }
    }

    /// The colour of a letter.
    pub const fn from_char(c: char) -> Option<MarkColor> {
        Some(match c {
            'R' => MarkColor::Red,
            'G' => MarkColor::Green,
            'Y' => MarkColor::Yellow,
            'B' => MarkColor::Blue,
            _ => return None,
        })
    }
}

/// An arrow from one square to another (`[%cal Ge2e4]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Arrow {
    /// Its colour.
    pub color: MarkColor,
    /// The square it starts on.
    pub from: Square,
    /// The square it points to.
    pub to: Square,
}

/// A highlighted square (`[%csl Gd4]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SquareMark {
    /// Its colour.
    pub color: MarkColor,
    /// The square.
    pub square: Square,
}

/// What an evaluation says, from white's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EvalScore {
    /// An advantage in centipawns (`[%eval 0.35]` is 35).
    Centipawns(i32),
    /// Mate in this many moves, negative when black mates (`[%eval #-3]`).
    Mate(i32),
}

/// An `[%eval]` command: the score and the depth searched, if given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Eval {
    /// The score, from white's point of view.
    pub score: EvalScore,
    /// The search depth (`[%eval 0.35,20]`).
    pub depth: Option<u32>,
}

impl Eval {
    /// An advantage of `cp` centipawns for white, without a depth.
    pub const fn centipawns(cp: i32) -> Eval {
        Eval {
            score: EvalScore::Centipawns(cp),
            depth: None,
        }
    }

    /// Mate in `moves` (negative: black mates), without a depth.
    pub const fn mate(moves: i32) -> Eval {
        Eval {
            score: EvalScore::Mate(moves),
            depth: None,
        }
    }

    /// The same evaluation at `depth`.
    pub const fn with_depth(self, depth: u32) -> Eval {
        Eval {
            score: self.score,
            depth: Some(depth),
        }
    }
}

impl Commands {
    /// Whether there is no command.
    pub fn is_empty(&self) -> bool {
        self.clock.is_none()
            && self.elapsed.is_none()
            && self.eval.is_none()
            && self.arrows.is_empty()
            && self.squares.is_empty()
    }

    /// Reads the commands of a comment: returns them and the comment's
    /// free text, the commands taken out (and trimmed). A command given
    /// twice keeps its last value; arrows and squares add up.
    pub fn extract(comment: &str) -> (Commands, String) {
        let mut commands = Commands::default();
        if !comment.contains("[%") {
            return (commands, comment.trim().to_string());
        }
        let mut text = String::with_capacity(comment.len());
        let mut rest = comment;
        while let Some(open) = rest.find("[%") {
            let (before, from) = rest.split_at(open);
            let Some(close) = from.find(']') else {
                break;
            };
            let body = &from[2..close];
            text.push_str(before);
            if commands.read(body) {
                // One space where the command was, none at the ends.
                text.truncate(text.trim_end().len());
                if !text.is_empty() {
                    text.push(' ');
                }
                rest = from[close + 1..].trim_start();
            } else {
                text.push_str(&from[..close + 1]);
                rest = &from[close + 1..];
            }
        }
        text.push_str(rest);
        (commands, text.trim().to_string())
    }

    /// Adds what the command `body` (the text between `[%` and `]`) says;
    /// `false` if it is of another kind or malformed.
    fn read(&mut self, body: &str) -> bool {
        let Some((name, args)) = body.split_once(|c: char| c.is_ascii_whitespace()) else {
            return false;
        };
        let args = args.trim();
        match name {
            "clk" => parse_time(args).map(|t| self.clock = Some(t)).is_some(),
            "emt" => parse_time(args).map(|t| self.elapsed = Some(t)).is_some(),
            "eval" => parse_eval(args).map(|e| self.eval = Some(e)).is_some(),
            "cal" => parse_marks(args, true)
                .map(|marks| {
                    self.arrows.extend(
                        marks
                            .into_iter()
                            .filter_map(|(color, from, to)| to.map(|to| Arrow { color, from, to })),
                    )
                })
                .is_some(),
            "csl" => parse_marks(args, false)
                .map(|marks| {
                    self.squares.extend(
                        marks
                            .into_iter()
                            .map(|(color, square, _)| SquareMark { color, square }),
                    )
                })
                .is_some(),
            _ => false,
        }
    }
}

/// `h:mm:ss` with an optional fraction of a second (`0:00:07.5`): any
/// number of hours, minutes and seconds below 60 (`0:99:00` is no time).
fn parse_time(text: &str) -> Option<Duration> {
    let mut parts = text.split(':');
    let (h, m, s) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let (whole, fraction) = s.split_once('.').unwrap_or((s, ""));
    if !digits(h) || !digits(m) || !digits(whole) {
        return None;
    }
    if !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (minutes, secs) = (m.parse::<u64>().ok()?, whole.parse::<u64>().ok()?);
    if minutes >= 60 || secs >= 60 {
        return None;
    }
    let seconds = h
        .parse::<u64>()
        .ok()?
        .checked_mul(3600)?
        .checked_add(minutes * 60 + secs)?;
    // Nanoseconds from up to nine digits of fraction.
    let mut nanos = 0u32;
    for (i, b) in fraction.bytes().take(9).enumerate() {
        nanos += u32::from(b - b'0') * 10u32.pow(8 - i as u32);
    }
    Some(Duration::new(seconds, nanos))
}

/// `0.35`, `-1.2`, `+3` (pawns, at most two decimals) or `#-3`, then
/// perhaps `,depth`.
fn parse_eval(text: &str) -> Option<Eval> {
    let (score, depth) = match text.split_once(',') {
        Some((score, depth)) => (score, Some(depth.trim().parse::<u32>().ok()?)),
        None => (text, None),
    };
    let score = match score.strip_prefix('#') {
        Some(mate) => EvalScore::Mate(mate.parse().ok()?),
        None => {
            let (negative, digits) = match score.as_bytes().first()? {
                b'-' => (true, &score[1..]),
                b'+' => (false, &score[1..]),
                _ => (false, score),
            };
            let (pawns, hundredths) = digits.split_once('.').unwrap_or((digits, ""));
            if pawns.is_empty() && hundredths.is_empty()
                || hundredths.len() > 2
                || !pawns
                    .bytes()
                    .chain(hundredths.bytes())
                    .all(|b| b.is_ascii_digit())
            {
                return None;
            }
            let pawns: i32 = if pawns.is_empty() {
                0
            } else {
                pawns.parse().ok()?
            };
            let mut cp = pawns.checked_mul(100)?;
            let scale = if hundredths.len() == 1 { 10 } else { 1 };
            if !hundredths.is_empty() {
                cp = cp.checked_add(hundredths.parse::<i32>().ok()? * scale)?;
            }
            EvalScore::Centipawns(if negative { -cp } else { cp })
        }
    };
    Some(Eval { score, depth })
}

/// `Ge2e4,Rd1d8` (arrows) or `Gd4,Re5` (squares): each a colour letter and
/// one square, or two for an arrow.
fn parse_marks(text: &str, arrows: bool) -> Option<Vec<(MarkColor, Square, Option<Square>)>> {
    text.split(',')
        .map(|mark| {
            let mark = mark.trim();
            let color = MarkColor::from_char(mark.chars().next()?)?;
            let squares = mark.get(1..)?;
            match (arrows, squares.len()) {
                (true, 4) => Some((
                    color,
                    squares.get(..2)?.parse().ok()?,
                    Some(squares.get(2..)?.parse().ok()?),
                )),
                (false, 2) => Some((color, squares.parse().ok()?, None)),
                _ => None,
            }
        })
        .collect()
}

/// Writes `d` as `h:mm:ss`, with tenths, hundredths or thousandths of a
/// second when it has them.
fn write_time(out: &mut impl fmt::Write, d: Duration) -> fmt::Result {
    let s = d.as_secs();
    write!(out, "{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)?;
    let millis = d.subsec_millis();
    if millis != 0 {
        let text = format!("{millis:03}");
        write!(out, ".{}", text.trim_end_matches('0'))?;
    }
    Ok(())
}

impl fmt::Display for Eval {
    /// The arguments of `[%eval]`: `0.35,20`, `-1.20`, `#-3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.score {
            EvalScore::Centipawns(cp) => {
                let sign = if cp < 0 { "-" } else { "" };
                let cp = cp.unsigned_abs();
                write!(f, "{sign}{}.{:02}", cp / 100, cp % 100)?;
            }
            EvalScore::Mate(n) => write!(f, "#{n}")?,
        }
        match self.depth {
            Some(depth) => write!(f, ",{depth}"),
            None => Ok(()),
        }
    }
}

impl fmt::Display for Commands {
    /// The commands as PGN writes them, separated by spaces: `[%eval]`,
    /// `[%clk]`, `[%emt]`, `[%csl]`, `[%cal]`, each if present.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        let mut sep = |f: &mut fmt::Formatter<'_>| {
            if !std::mem::take(&mut first) {
                f.write_char(' ')?;
            }
            Ok::<(), fmt::Error>(())
        };
        if let Some(eval) = self.eval {
            sep(f)?;
            write!(f, "[%eval {eval}]")?;
        }
        for (name, time) in [("clk", self.clock), ("emt", self.elapsed)] {
            if let Some(time) = time {
                sep(f)?;
                write!(f, "[%{name} ")?;
                write_time(f, time)?;
                f.write_char(']')?;
            }
        }
        if !self.squares.is_empty() {
            sep(f)?;
            f.write_str("[%csl ")?;
            for (i, m) in self.squares.iter().enumerate() {
                let comma = if i > 0 { "," } else { "" };
                write!(f, "{comma}{}{}", m.color.char(), m.square)?;
            }
            f.write_char(']')?;
        }
        if !self.arrows.is_empty() {
            sep(f)?;
            f.write_str("[%cal ")?;
            for (i, a) in self.arrows.iter().enumerate() {
                let comma = if i > 0 { "," } else { "" };
                write!(f, "{comma}{}{}{}", a.color.char(), a.from, a.to)?;
            }
            f.write_char(']')?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_command_and_keeps_the_text() {
        let (c, text) = Commands::extract(
            "before [%clk 1:02:03] middle [%emt 0:00:07.25][%eval #-3] [%csl Gd4,Re5] after [%cal Ge2e4,Bd1d8]",
        );
        assert_eq!(text, "before middle after");
        assert_eq!(c.clock, Some(Duration::from_secs(3723)));
        assert_eq!(c.elapsed, Some(Duration::from_millis(7250)));
        assert_eq!(c.eval, Some(Eval::mate(-3)));
        assert_eq!(
            c.squares,
            [
                SquareMark {
                    color: MarkColor::Green,
                    square: Square::D4
                },
                SquareMark {
                    color: MarkColor::Red,
                    square: Square::E5
                }
            ]
        );
        assert_eq!(
            c.arrows[1],
            Arrow {
                color: MarkColor::Blue,
                from: Square::D1,
                to: Square::D8
            }
        );
        assert_eq!(
            c.to_string(),
            "[%eval #-3] [%clk 1:02:03] [%emt 0:00:07.25] [%csl Gd4,Re5] [%cal Ge2e4,Bd1d8]"
        );
        // What is written reads back the same.
        assert_eq!(Commands::extract(&c.to_string()), (c, String::new()));
    }

    #[test]
    fn evals_in_pawns() {
        let eval = |t: &str| parse_eval(t);
        assert_eq!(eval("0.35,20"), Some(Eval::centipawns(35).with_depth(20)));
        assert_eq!(eval("-1.2"), Some(Eval::centipawns(-120)));
        assert_eq!(eval("+3"), Some(Eval::centipawns(300)));
        assert_eq!(eval("-.5"), Some(Eval::centipawns(-50)));
        assert_eq!(eval("#0"), Some(Eval::mate(0)));
        for bad in ["", "-", "0.355", "x", "1.2.3", "#", "0.3,", "0.3,x"] {
            assert_eq!(eval(bad), None, "{bad:?}");
        }
        assert_eq!(Eval::centipawns(-120).to_string(), "-1.20");
        assert_eq!(Eval::centipawns(-5).to_string(), "-0.05");
        assert_eq!(Eval::centipawns(35).with_depth(20).to_string(), "0.35,20");
    }

    #[test]
    fn clock_minutes_and_seconds_are_below_60() {
        let secs = Duration::from_secs;
        assert_eq!(parse_time("0:59:59"), Some(secs(3599)));
        assert_eq!(
            parse_time("123:00:00.5"),
            Some(Duration::from_millis(442_800_500))
        );
        for bad in ["99:99:99", "0:60:00", "0:00:60", "0:00:60.0", "1:75:00"] {
            assert_eq!(parse_time(bad), None, "{bad}");
        }
        let (c, kept) = Commands::extract("[%clk 99:99:99] [%emt 0:00:30]");
        assert_eq!(c.clock, None);
        assert_eq!(c.elapsed, Some(secs(30)));
        assert_eq!(kept, "[%clk 99:99:99]");
    }

    #[test]
    fn malformed_or_unknown_commands_stay_in_the_text() {
        for text in [
            "[%clk 1:2]",
            "[%clk x]",
            "[%clk 99:99:99]",
            "[%clk 0:60:00]",
            "[%clk 0:00:60]",
            "[%emt 0:00:75.5]",
            "[%eval]",
            "[%cal Xe2e4]",
            "[%csl Ge9]",
            "[%cal Ge2]",
            "[%mdl 8192]",
            "[%clk 0:01:00",
            "a [%timestamp 12] b",
        ] {
            let (c, kept) = Commands::extract(text);
            assert!(c.is_empty(), "{text}");
            assert_eq!(kept, text, "{text}");
        }
        let (c, kept) = Commands::extract("[%mdl 8192] [%clk 0:00:30]");
        assert_eq!(
            (c.clock, kept.as_str()),
            (Some(Duration::from_secs(30)), "[%mdl 8192]")
        );
    }
}
