//! The `info` reply: what a search reports while it runs, as a typed record.
//!
//! [`Info`] is generic over its moves: read from text it holds [`UciMove`]s
//! (the notation, not yet checked against a position); the client checks
//! them against the searched position with [`Info::try_map_moves`], which
//! turns them into [`fianchetto_board::Move`]s or names the first illegal one.

use crate::words::Words;
use crate::ParseError;
use fianchetto_board::Color;
use fianchetto_movegen::UciMove;
use std::fmt;
use std::time::Duration;

/// A score as UCI reports it, from the point of view of the side to move
/// (of the position searched, not of the move reported).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// `cp N`: centipawns.
    Cp(i32),
    /// `mate N`: mate in N moves (not plies); negative when the side to
    /// move is mated. `mate 0` is a position already mated.
    Mate(i32),
}

impl Score {
    /// The same score from `color`'s point of view, `self` being from the
    /// point of view of `to_move`.
    ///
    /// ```
    /// use fianchetto_board::Color;
    /// use fianchetto_uci::Score;
    /// assert_eq!(Score::Cp(30).pov(Color::Black, Color::White), Score::Cp(-30));
    /// assert_eq!(Score::Mate(2).pov(Color::White, Color::White), Score::Mate(2));
    /// ```
    pub fn pov(self, to_move: Color, color: Color) -> Score {
        if to_move == color {
            return self;
        }
        match self {
            Score::Cp(cp) => Score::Cp(cp.saturating_neg()),
            Score::Mate(m) => Score::Mate(m.saturating_neg()),
        }
    }

    /// The centipawns, `None` for a mate score.
    pub fn cp(self) -> Option<i32> {
        match self {
            Score::Cp(cp) => Some(cp),
            Score::Mate(_) => None,
        }
    }

    /// The score as a number that orders like the scores: centipawns, and
    /// mates beyond every centipawn score (`mate_value` for mate now, a
    /// unit less for each move further away).
    pub fn value(self, mate_value: i32) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(m) if m > 0 => mate_value.saturating_sub(m),
            Score::Mate(m) => m.saturating_sub(mate_value),
        }
    }
}

impl fmt::Display for Score {
    /// `cp 35` or `mate -2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(m) => write!(f, "mate {m}"),
        }
    }
}

/// Whether a reported score is exact or only a bound (the search failed
/// high or low at its aspiration window).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Bound {
    /// The score.
    #[default]
    Exact,
    /// `lowerbound`: the true score is at least this.
    Lower,
    /// `upperbound`: the true score is at most this.
    Upper,
}

/// A score with its bound: `score cp 35 lowerbound`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoundedScore {
    /// The score.
    pub score: Score,
    /// Exact, or which bound.
    pub bound: Bound,
}

impl BoundedScore {
    /// An exact score.
    pub fn exact(score: Score) -> BoundedScore {
        BoundedScore {
            score,
            bound: Bound::Exact,
        }
    }
}

impl fmt::Display for BoundedScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.score.fmt(f)?;
        match self.bound {
            Bound::Exact => Ok(()),
            Bound::Lower => f.write_str(" lowerbound"),
            Bound::Upper => f.write_str(" upperbound"),
        }
    }
}

/// Win, draw and loss chances in per mille, for the side to move (`wdl W D L`,
/// Stockfish's extension, shown when `UCI_ShowWDL` is on).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Wdl {
    /// Wins per mille.
    pub win: u32,
    /// Draws per mille.
    pub draw: u32,
    /// Losses per mille.
    pub loss: u32,
}

/// One `info` line. Every field is optional, as in the protocol; a parsed
/// line fills the ones it names. `M` is the move type: [`UciMove`] as read,
/// [`fianchetto_board::Move`] once checked against a position.
///
/// ```
/// use fianchetto_uci::{Bound, Info, Reply, Score};
/// let line = "info depth 12 seldepth 17 multipv 1 score cp -35 upperbound wdl 40 900 60 \
///             nodes 120000 nps 800000 hashfull 12 tbhits 0 time 150 pv e7e5 g1f3";
/// let Reply::Info(info) = line.parse()? else { unreachable!() };
/// assert_eq!(info.depth, Some(12));
/// let score = info.score.unwrap();
/// assert_eq!((score.score, score.bound), (Score::Cp(-35), Bound::Upper));
/// assert_eq!(info.pv.len(), 2);
/// assert_eq!(Reply::Info(info).to_string(), line);
/// # Ok::<(), fianchetto_uci::ParseError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info<M = UciMove> {
    /// `depth`: the nominal depth in plies.
    pub depth: Option<u32>,
    /// `seldepth`: the deepest ply reached.
    pub seldepth: Option<u32>,
    /// `multipv`: which of several principal variations this is, from 1.
    pub multipv: Option<u32>,
    /// `score`: the evaluation, exact or a bound.
    pub score: Option<BoundedScore>,
    /// `wdl`: win, draw and loss chances.
    pub wdl: Option<Wdl>,
    /// `nodes`: nodes searched.
    pub nodes: Option<u64>,
    /// `nps`: nodes per second.
    pub nps: Option<u64>,
    /// `hashfull`: the hash table's fill, per mille.
    pub hashfull: Option<u32>,
    /// `tbhits`: tablebase hits.
    pub tbhits: Option<u64>,
    /// `sbhits`: shredderbase hits.
    pub sbhits: Option<u64>,
    /// `cpuload`: CPU usage, per mille.
    pub cpuload: Option<u32>,
    /// `time`: time searched.
    pub time: Option<Duration>,
    /// `currmove`: the root move being searched.
    pub currmove: Option<M>,
    /// `currmovenumber`: its number in the root move list, from 1.
    pub currmovenumber: Option<u32>,
    /// `pv`: the principal variation, best move first.
    pub pv: Vec<M>,
    /// `refutation`: a move and the line that refutes it.
    pub refutation: Vec<M>,
    /// `currline`: the line a CPU is searching, with the CPU's number.
    pub currline: Option<CurrLine<M>>,
    /// `string`: free text (the rest of the line).
    pub string: Option<String>,
}

/// `currline [cpunr] moves…`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CurrLine<M = UciMove> {
    /// The CPU's number, from 1, when the engine gives it.
    pub cpu: Option<u32>,
    /// The line.
    pub moves: Vec<M>,
}

impl<M> Default for Info<M> {
    fn default() -> Info<M> {
        Info {
            depth: None,
            seldepth: None,
            multipv: None,
            score: None,
            wdl: None,
            nodes: None,
            nps: None,
            hashfull: None,
            tbhits: None,
            sbhits: None,
            cpuload: None,
            time: None,
            currmove: None,
            currmovenumber: None,
            pv: Vec::new(),
            refutation: Vec::new(),
            currline: None,
            string: None,
        }
    }
}

/// A move of an `info` line that is not legal where it stands.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{field}` move {index} (`{text}`): {reason}")]
pub struct IllegalInfoMove {
    /// `pv`, `currmove`, `refutation` or `currline`.
    pub field: &'static str,
    /// Its place in the list, from 1.
    pub index: usize,
    /// The move as the engine wrote it.
    pub text: String,
    /// Why it is refused.
    pub reason: String,
}

impl<M: Clone> Info<M> {
    /// Takes in a later report of the same search: every field `newer`
    /// names replaces this one's (a PV only when `newer` has one), so that
    /// the result holds the latest of everything reported, as a GUI shows it.
    ///
    /// ```
    /// use fianchetto_uci::{Info, Reply};
    /// let info = |line: &str| match line.parse::<Reply>() {
    ///     Ok(Reply::Info(info)) => *info,
    ///     _ => unreachable!(),
    /// };
    /// let mut merged = info("info depth 9 score cp 20 pv e2e4");
    /// merged.merge(info("info depth 10 currmove d2d4 currmovenumber 2"));
    /// assert_eq!(merged.to_string(), "info depth 10 score cp 20 currmove d2d4 currmovenumber 2 pv e2e4");
    /// ```
    pub fn merge(&mut self, newer: Info<M>) {
        fn take<T>(old: &mut Option<T>, new: Option<T>) {
            if new.is_some() {
                *old = new;
            }
        }
        take(&mut self.depth, newer.depth);
        take(&mut self.seldepth, newer.seldepth);
        take(&mut self.multipv, newer.multipv);
        take(&mut self.score, newer.score);
        take(&mut self.wdl, newer.wdl);
        take(&mut self.nodes, newer.nodes);
        take(&mut self.nps, newer.nps);
        take(&mut self.hashfull, newer.hashfull);
        take(&mut self.tbhits, newer.tbhits);
        take(&mut self.sbhits, newer.sbhits);
        take(&mut self.cpuload, newer.cpuload);
        take(&mut self.time, newer.time);
        take(&mut self.currmove, newer.currmove);
        take(&mut self.currmovenumber, newer.currmovenumber);
        take(&mut self.currline, newer.currline);
        take(&mut self.string, newer.string);
        if !newer.pv.is_empty() {
            self.pv = newer.pv;
        }
        if !newer.refutation.is_empty() {
            self.refutation = newer.refutation;
        }
    }

    /// The same report with its moves mapped by `f`, which is given each
    /// list from its start (`pv`, `refutation`, `currline`, and `currmove`
    /// as a list of one) and answers the moves in it, or the index of the
    /// first it refuses with the reason. This is how moves read as text are
    /// checked against the searched position.
    pub fn try_map_moves<N>(
        self,
        mut f: impl FnMut(&[M]) -> Result<Vec<N>, (usize, String)>,
    ) -> Result<Info<N>, IllegalInfoMove>
    where
        M: fmt::Display,
    {
        let mut list = |field: &'static str, moves: &[M]| {
            f(moves).map_err(|(i, reason)| IllegalInfoMove {
                field,
                index: i + 1,
                text: moves.get(i).map(|m| m.to_string()).unwrap_or_default(),
                reason,
            })
        };
        let currmove = match &self.currmove {
            Some(m) => list("currmove", std::slice::from_ref(m))?
                .into_iter()
                .next(),
            None => None,
        };
        let currline = match &self.currline {
            Some(c) => Some(CurrLine {
                cpu: c.cpu,
                moves: list("currline", &c.moves)?,
            }),
            None => None,
        };
        Ok(Info {
            pv: list("pv", &self.pv)?,
            refutation: list("refutation", &self.refutation)?,
            currmove,
            currline,
            depth: self.depth,
            seldepth: self.seldepth,
            multipv: self.multipv,
            score: self.score,
            wdl: self.wdl,
            nodes: self.nodes,
            nps: self.nps,
            hashfull: self.hashfull,
            tbhits: self.tbhits,
            sbhits: self.sbhits,
            cpuload: self.cpuload,
            time: self.time,
            currmovenumber: self.currmovenumber,
            string: self.string,
        })
    }
}

/// The keywords of `info`.
const KEYWORDS: &[&str] = &[
    "depth",
    "seldepth",
    "multipv",
    "score",
    "wdl",
    "nodes",
    "nps",
    "hashfull",
    "tbhits",
    "sbhits",
    "cpuload",
    "time",
    "currmove",
    "currmovenumber",
    "pv",
    "refutation",
    "currline",
    "string",
];

/// Reads the words after `info`. Unknown words are skipped one at a time,
/// as the protocol asks of a GUI (engines add their own); a known keyword
/// with a bad value is an error.
pub(crate) fn parse_info(w: &mut Words) -> Result<Info, ParseError> {
    let mut info = Info::default();
    while let Some(word) = w.next() {
        match word {
            "depth" => info.depth = Some(w.count(word)?),
            "seldepth" => info.seldepth = Some(w.count(word)?),
            "multipv" => info.multipv = Some(w.count(word)?),
            "nodes" => info.nodes = Some(w.count(word)?),
            "nps" => info.nps = Some(w.count(word)?),
            "hashfull" => info.hashfull = Some(w.count(word)?),
            "tbhits" => info.tbhits = Some(w.count(word)?),
            "sbhits" => info.sbhits = Some(w.count(word)?),
            "cpuload" => info.cpuload = Some(w.count(word)?),
            "currmovenumber" => info.currmovenumber = Some(w.count(word)?),
            "time" => info.time = Some(w.millis(word)?),
            "score" => info.score = Some(parse_score(w)?),
            "wdl" => {
                info.wdl = Some(Wdl {
                    win: w.count("wdl")?,
                    draw: w.count("wdl")?,
                    loss: w.count("wdl")?,
                })
            }
            "currmove" => {
                let text = w.value(word)?;
                let mv = text.parse().map_err(|source| ParseError::BadMove {
                    command: "info",
                    keyword: word.into(),
                    index: 1,
                    source,
                })?;
                info.currmove = Some(mv);
            }
            "pv" => info.pv = w.moves(),
            "refutation" => info.refutation = w.moves(),
            "currline" => {
                let cpu = match w.peek().map(str::parse::<u32>) {
                    Some(Ok(n)) => {
                        w.next();
                        Some(n)
                    }
                    _ => None,
                };
                info.currline = Some(CurrLine {
                    cpu,
                    moves: w.moves(),
                });
            }
            "string" => info.string = Some(w.rest()),
            _ => {}
        }
    }
    Ok(info)
}

fn parse_score(w: &mut Words) -> Result<BoundedScore, ParseError> {
    let mut score = None;
    let mut bound = Bound::Exact;
    while let Some(word) = w.peek() {
        match word {
            "cp" | "mate" => {
                w.next();
                let n = w.number(word, "a whole number")?;
                score = Some(if word == "cp" {
                    Score::Cp(n)
                } else {
                    Score::Mate(n)
                });
            }
            "lowerbound" => bound = Bound::Lower,
            "upperbound" => bound = Bound::Upper,
            _ => break,
        }
        if matches!(word, "lowerbound" | "upperbound") {
            w.next();
        }
    }
    match score {
        Some(score) => Ok(BoundedScore { score, bound }),
        None => Err(match w.peek() {
            Some(other) if !KEYWORDS.contains(&other) => {
                w.unexpected(other, "`cp <centipawns>` or `mate <moves>`")
            }
            _ => ParseError::MissingValue {
                command: "info",
                keyword: "score".into(),
            },
        }),
    }
}

fn write_moves<M: fmt::Display>(f: &mut fmt::Formatter<'_>, key: &str, moves: &[M]) -> fmt::Result {
    write!(f, " {key}")?;
    for mv in moves {
        write!(f, " {mv}")?;
    }
    Ok(())
}

impl<M: fmt::Display> fmt::Display for Info<M> {
    /// The `info …` line, fields in the order Stockfish writes them; `pv`
    /// after the numbers and `string` last, since it runs to the end.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        let numbers = [
            ("depth", self.depth.map(u64::from)),
            ("seldepth", self.seldepth.map(u64::from)),
            ("multipv", self.multipv.map(u64::from)),
        ];
        for (key, n) in numbers {
            if let Some(n) = n {
                write!(f, " {key} {n}")?;
            }
        }
        if let Some(score) = &self.score {
            write!(f, " score {score}")?;
        }
        if let Some(wdl) = &self.wdl {
            write!(f, " wdl {} {} {}", wdl.win, wdl.draw, wdl.loss)?;
        }
        let numbers = [
            ("nodes", self.nodes),
            ("nps", self.nps),
            ("hashfull", self.hashfull.map(u64::from)),
            ("tbhits", self.tbhits),
            ("sbhits", self.sbhits),
            ("cpuload", self.cpuload.map(u64::from)),
            ("time", self.time.map(|t| t.as_millis() as u64)),
        ];
        for (key, n) in numbers {
            if let Some(n) = n {
                write!(f, " {key} {n}")?;
            }
        }
        if let Some(mv) = &self.currmove {
            write!(f, " currmove {mv}")?;
        }
        if let Some(n) = self.currmovenumber {
            write!(f, " currmovenumber {n}")?;
        }
        if !self.pv.is_empty() {
            write_moves(f, "pv", &self.pv)?;
        }
        if !self.refutation.is_empty() {
            write_moves(f, "refutation", &self.refutation)?;
        }
        if let Some(line) = &self.currline {
            f.write_str(" currline")?;
            if let Some(cpu) = line.cpu {
                write!(f, " {cpu}")?;
            }
            for mv in &line.moves {
                write!(f, " {mv}")?;
            }
        }
        if let Some(text) = &self.string {
            write!(f, " string {text}")?;
        }
        Ok(())
    }
}
