//! One tab's state: its game, its engine settings, the job running for it
//! (an engine move, an analysis or the Learn experiment), the pages that
//! listen to it, and its snapshot as JSON.

use super::jobs::JobOrder;
use super::settings::{json_text, Settings, SettingsJson};
use fianchetto_board::svg::{parse_move_squares, BoardSvg};
use fianchetto_board::{Bitboards, Board, CastlingMode, Color, Move, Square};
use fianchetto_eval::Score;
use fianchetto_movegen::pgn::Tags;
use fianchetto_movegen::{san_list, to_san, to_uci, Game, MoveGen, Outcome};
use fianchetto_search::time::Instant;
use fianchetto_search::{Bound, Info};
use serde::{Serialize, Serializer};
use std::cell::RefCell;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::SyncSender;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

/// What a job does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobKind {
    /// Chooses the engine's move and plays it.
    EngineMove,
    /// Analyses the position until stopped.
    Analysis,
    /// Runs the Learn experiment on the position.
    Learn,
}

/// The job running for a session.
#[derive(Debug)]
pub struct Job {
    /// Tells a finished job whether it is still the session's.
    pub id: u64,
    /// What it does.
    pub kind: JobKind,
    /// Raised to stop it.
    pub stop: Arc<AtomicBool>,
}

/// The lines of an analysis (or of the engine thinking about its move).
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The position analysed.
    pub board: Bitboards,
    /// The latest report of each line (`lines[0]` the best).
    pub lines: Vec<Option<Info>>,
    /// Who searches: `"analysis"` or `"engine"`.
    pub by: &'static str,
    /// When it started.
    pub started: Instant,
    /// Nodes of the searches finished (several lines are several
    /// searches) and of the one running, at its last report.
    pub nodes: (u64, u64),
    /// Time from the start to the last report.
    pub elapsed: Duration,
}

impl Analysis {
    /// An analysis of `board` with `lines` lines, starting now.
    pub fn new(board: Bitboards, lines: usize, by: &'static str) -> Analysis {
        Analysis {
            board,
            lines: vec![None; lines],
            by,
            started: Instant::now(),
            nodes: (0, 0),
            elapsed: Duration::ZERO,
        }
    }

    /// Takes a report of line `k` (0: the best). The lines below it may
    /// still come from the previous depth: one that starts with the same
    /// move takes the line `k` showed before, so that no move is shown
    /// twice and an analysis stopped between two lines leaves no hole.
    pub fn report(&mut self, k: usize, info: &Info) {
        if let Some(slot) = self.lines.get_mut(k) {
            let before = slot.replace(info.clone());
            let first = info.pv.first();
            if let Some(twin) = self
                .lines
                .iter_mut()
                .skip(k + 1)
                .find(|line| line.as_ref().is_some_and(|l| l.pv.first() == first))
            {
                *twin = before;
            }
        }
        self.nodes.1 = info.nodes;
        self.elapsed = self.started.elapsed();
    }

    /// Counts a finished search of `nodes`.
    pub fn finished(&mut self, nodes: u64) {
        self.nodes = (self.nodes.0 + nodes, 0);
        self.elapsed = self.started.elapsed();
    }
}

/// One bar of the Learn view.
#[derive(Clone, Debug)]
pub struct LearnRow {
    /// Its name.
    pub name: String,
    /// What it shows, in one sentence.
    pub meaning: String,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
    /// Whether the depth was reached (not cut by the node budget or a stop).
    pub complete: bool,
}

/// The Learn experiment's results so far.
#[derive(Clone, Debug)]
pub struct Learn {
    /// The position.
    pub fen: String,
    /// The algorithms' depth.
    pub depth: u32,
    /// The ablation's depth.
    pub ablation_depth: u32,
    /// The evaluation used.
    pub eval: &'static str,
    /// The algorithms, one bar each.
    pub algorithms: Vec<LearnRow>,
    /// The PVS ablation, one bar each.
    pub ablation: Vec<LearnRow>,
}

/// A tab's state.
pub struct Session {
    /// Its id (in every request of the tab).
    pub id: String,
    /// Itself, for the jobs it starts.
    pub me: Weak<Mutex<Session>>,
    /// The game.
    pub game: Game<Bitboards>,
    /// The tags of a game read from PGN (written back on export).
    pub tags: Tags,
    /// The engine settings.
    pub settings: Settings,
    /// Whether the board is drawn from Black's side.
    pub flipped: bool,
    /// Whether the user asked for analysis (it follows the moves until
    /// stopped).
    pub analysing: bool,
    /// The running job.
    pub job: Option<Job>,
    /// The id the next job gets.
    pub next_job: u64,
    /// The latest analysis or engine thinking.
    pub analysis: Option<Analysis>,
    /// The latest Learn experiment.
    pub learn: Option<Learn>,
    /// Something the page should tell the user (a search that failed to
    /// start, a search bug worked around).
    pub notice: Option<String>,
    /// When a request or a live connection last showed the tab is open.
    pub last_seen: Instant,
    /// The live connections of the tab.
    pub listeners: Vec<SyncSender<String>>,
    /// Counts the snapshots published, so that the page keeps the newest
    /// of those that reach it by two ways (replies and the live stream).
    pub revision: u64,
    /// The move list as JSON with the game it was written for (a long game
    /// read from PGN would otherwise be written in SAN on every update).
    moves_json: RefCell<Option<(u64, Vec<MoveJson>)>>,
}

impl Session {
    /// A session at the start position.
    pub fn new(id: String, me: Weak<Mutex<Session>>, now: Instant) -> Session {
        Session {
            id,
            me,
            game: Game::new(Bitboards::startpos()),
            tags: Tags::new(),
            settings: Settings::default(),
            flipped: false,
            analysing: false,
            job: None,
            next_job: 1,
            analysis: None,
            learn: None,
            notice: None,
            last_seen: now,
            listeners: Vec::new(),
            revision: 0,
            moves_json: RefCell::new(None),
        }
    }

    /// The game's end: the outcome, with the draws a player may claim
    /// (threefold repetition, fifty moves) taken as claimed.
    pub fn outcome(&self) -> Option<Outcome> {
        self.game.outcome_with_claims()
    }

    /// Whether the engine is to move in a game that goes on.
    pub fn engine_to_move(&self) -> bool {
        self.outcome().is_none() && self.settings.engine.plays(self.game.board().turn())
    }

    /// Raises the running job's stop flag and forgets it (its results
    /// will not be taken).
    pub fn stop_job(&mut self) {
        if let Some(job) = self.job.take() {
            job.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Closes the session as it leaves the app (expired or evicted): its
    /// search is stopped and its live connections are ended.
    pub fn close(&mut self) {
        self.stop_job();
        self.listeners.clear();
    }

    /// The order of a job of `kind` on this tab's game and settings.
    pub fn order(&self, kind: JobKind) -> JobOrder {
        JobOrder {
            kind,
            game: self.game.clone(),
            settings: self.settings.clone(),
        }
    }

    /// The kind of job running, if any.
    pub fn job_kind(&self) -> Option<JobKind> {
        self.job.as_ref().map(|j| j.kind)
    }

    /// Sends the snapshot to every live connection, forgetting the closed
    /// ones. A connection that is behind misses this snapshot: each one is
    /// whole, so the next makes up for it.
    pub fn publish(&mut self) {
        self.revision += 1;
        if self.listeners.is_empty() {
            return;
        }
        let state = self.to_json();
        self.listeners.retain(|l| match l.try_send(state.clone()) {
            Ok(()) | Err(std::sync::mpsc::TrySendError::Full(_)) => true,
            Err(std::sync::mpsc::TrySendError::Disconnected(_)) => false,
        });
    }

    /// The whole state of the tab as JSON: the position (pieces, legal
    /// moves with their SAN, the last move, a king in check), the moves
    /// in SAN, the outcome, the settings, the analysis and the Learn
    /// results.
    pub fn to_json(&self) -> String {
        let board = self.game.board();
        let pieces = Pieces(
            Square::all()
                .filter_map(|sq| {
                    let p = board.piece_at(sq)?;
                    Some((sq.to_string(), piece_code(p.color, p.role.upper_char())))
                })
                .collect(),
        );
        // Every legal move's SAN in one pass (the list's moves in its order).
        let mut sans = String::new();
        let legal = san_list(board, &mut sans)
            .iter()
            .zip(sans.split(' '))
            .map(|(&mv, san)| {
                let uci = to_uci(board, mv, CastlingMode::Standard);
                LegalJson {
                    from: uci.get(0..2).unwrap_or("").to_string(),
                    to: uci.get(2..4).unwrap_or("").to_string(),
                    promotion: uci.get(4..5).map(str::to_string),
                    san: san.to_string(),
                    uci,
                }
            })
            .collect();
        let start = self.game.start();
        let last = self.game.moves().last().map(|&mv| {
            let before = &self.game.positions()[self.game.positions().len() - 2];
            to_uci(before, mv, CastlingMode::Standard)
        });
        let check = board
            .in_check()
            .then(|| board.king(board.turn()).to_string());
        // The picture: the board library's own drawing.
        let side = if self.flipped {
            Color::Black
        } else {
            Color::White
        };
        let mut picture = BoardSvg::from_board(board).orientation(side).size(None);
        if let Some((from, to)) = last.as_deref().and_then(parse_move_squares) {
            picture = picture.last_move_squares(from, to);
        }
        let job = self.job_kind();
        let thinking = job == Some(JobKind::EngineMove);
        let turn = |c: Color| if c == Color::White { "w" } else { "b" };
        json_text(&StateJson {
            session: &self.id,
            revision: self.revision,
            fen: board.fen(),
            start_fen: start.fen(),
            turn: turn(board.turn()),
            pieces,
            svg: picture.to_svg(),
            flipped: self.flipped,
            legal,
            moves: self.moves_json(),
            first_move_number: start.fullmove_number(),
            first_turn: turn(start.turn()),
            last,
            check,
            outcome: self.outcome().map(outcome_json),
            thinking,
            analysing: self.analysing,
            learning: job == Some(JobKind::Learn),
            settings: self.settings.json(),
            analysis: self
                .analysis
                .as_ref()
                .map(|a| analysis_json(a, job == Some(JobKind::Analysis) || thinking)),
            learn: self
                .learn
                .as_ref()
                .map(|l| learn_json(l, job == Some(JobKind::Learn))),
            notice: self.notice.as_deref(),
        })
    }
}

/// A tab's state as the page reads it (`Session::to_json`), members in
/// this order.
#[derive(Serialize)]
struct StateJson<'a> {
    session: &'a str,
    revision: u64,
    fen: String,
    start_fen: String,
    turn: &'static str,
    pieces: Pieces,
    svg: String,
    flipped: bool,
    legal: Vec<LegalJson>,
    moves: Vec<MoveJson>,
    first_move_number: u32,
    first_turn: &'static str,
    last: Option<String>,
    check: Option<String>,
    outcome: Option<OutcomeJson>,
    thinking: bool,
    analysing: bool,
    learning: bool,
    settings: SettingsJson,
    analysis: Option<AnalysisJson>,
    learn: Option<LearnJson>,
    notice: Option<&'a str>,
}

/// The pieces as an object from square to piece, a1 to h8.
struct Pieces(Vec<(String, String)>);

impl Serialize for Pieces {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

/// A legal move: its UCI text, squares, promotion and SAN.
#[derive(Serialize)]
struct LegalJson {
    uci: String,
    from: String,
    to: String,
    promotion: Option<String>,
    san: String,
}

/// A move played, in SAN and UCI.
#[derive(Clone, Serialize)]
struct MoveJson {
    san: String,
    uci: String,
}

/// The end of the game.
#[derive(Serialize)]
struct OutcomeJson {
    result: &'static str,
    reason: String,
    text: String,
}

/// A score: `cp` or `mate` from the mover's view, and from White's.
#[derive(Serialize)]
struct ScoreJson {
    #[serde(skip_serializing_if = "Option::is_none")]
    mate: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cp: Option<i64>,
    white: String,
    white_cp: i64,
}

/// One line of an analysis.
#[derive(Serialize)]
struct LineJson {
    multipv: usize,
    depth: u32,
    seldepth: u32,
    score: ScoreJson,
    bound: &'static str,
    nodes: u64,
    nps: u64,
    time_ms: u64,
    pv: String,
}

/// An analysis, or the engine thinking.
#[derive(Serialize)]
struct AnalysisJson {
    fen: String,
    by: &'static str,
    running: bool,
    nodes: u64,
    time_ms: u64,
    nps: u64,
    lines: Vec<LineJson>,
}

/// One bar of the Learn view.
#[derive(Serialize)]
struct RowJson {
    name: String,
    meaning: String,
    nodes: u64,
    time_ms: f64,
    complete: bool,
}

/// The Learn experiment.
#[derive(Serialize)]
struct LearnJson {
    fen: String,
    depth: u32,
    ablation_depth: u32,
    eval: &'static str,
    running: bool,
    algorithms: Vec<RowJson>,
    ablation: Vec<RowJson>,
}

impl Session {
    /// The moves played, in SAN and UCI (written again only when the game
    /// changed).
    fn moves_json(&self) -> Vec<MoveJson> {
        let mut key = DefaultHasher::new();
        self.game.start().hash().hash(&mut key);
        for mv in self.game.moves() {
            mv.bits().hash(&mut key);
        }
        let key = key.finish();
        let mut cache = self.moves_json.borrow_mut();
        match &*cache {
            Some((k, json)) if *k == key => json.clone(),
            _ => {
                let json: Vec<MoveJson> = self
                    .game
                    .positions()
                    .iter()
                    .zip(self.game.moves())
                    .map(|(before, &mv)| MoveJson {
                        san: to_san(before, mv).unwrap_or_else(|_| mv.to_string()),
                        uci: to_uci(before, mv, CastlingMode::Standard),
                    })
                    .collect();
                *cache = Some((key, json.clone()));
                json
            }
        }
    }
}

/// `wP`, `bK`: the colour and the role, as the page's `data-piece`.
fn piece_code(color: Color, role: char) -> String {
    let c = if color == Color::White { 'w' } else { 'b' };
    format!("{c}{role}")
}

fn outcome_json(outcome: Outcome) -> OutcomeJson {
    let how = match outcome {
        Outcome::Decisive { how, .. } | Outcome::Draw(how) => how,
    };
    OutcomeJson {
        result: outcome.result(),
        reason: how.to_string(),
        text: outcome.to_string(),
    }
}

/// A score for the side to move as JSON: `cp` or `mate` (moves, negative
/// when mated) from the mover's view, and `white`, the text from White's
/// view (`+0.35`, `#3`, `#-2`) with `white_cp` for the evaluation bar.
pub fn score_json(score: Score, turn: Color) -> String {
    json_text(&score_value(score, turn))
}

fn score_value(score: Score, turn: Color) -> ScoreJson {
    let white = if turn == Color::White {
        score
    } else {
        score.flip()
    };
    let mate = score.mate_moves().map(i64::from);
    let cp = mate.is_none().then(|| i64::from(score.value()));
    let (text, white_cp) = match white.mate_moves() {
        Some(m) => (format!("#{m}"), if m > 0 { 10_000 } else { -10_000 }),
        None => (
            format!("{:+.2}", f64::from(white.value()) / 100.0),
            i64::from(white.value()),
        ),
    };
    ScoreJson {
        mate,
        cp,
        white: text,
        white_cp,
    }
}

/// A principal variation in SAN with move numbers (up to the first move
/// that is not legal, which a hash table can put at its end).
fn pv_san(board: &Bitboards, pv: &[Move]) -> String {
    let mut legal = 0;
    let mut b = board.clone();
    for &mv in pv {
        if !b.is_legal(mv) {
            break;
        }
        b.play_unchecked(mv);
        legal += 1;
    }
    fianchetto_movegen::san_line(board, &pv[..legal]).unwrap_or_default()
}

fn analysis_json(a: &Analysis, running: bool) -> AnalysisJson {
    let turn = a.board.turn();
    let lines = a
        .lines
        .iter()
        .enumerate()
        .filter_map(|(k, info)| {
            let info = info.as_ref()?;
            let bound = match info.bound {
                Bound::Exact => "exact",
                Bound::Lower => "lower",
                Bound::Upper => "upper",
            };
            Some(LineJson {
                multipv: k + 1,
                depth: info.depth,
                seldepth: info.seldepth,
                score: score_value(info.score, turn),
                bound,
                nodes: info.nodes,
                nps: info.nps,
                time_ms: info.time.as_millis() as u64,
                pv: pv_san(&a.board, &info.pv),
            })
        })
        .collect();
    let nodes = a.nodes.0 + a.nodes.1;
    let seconds = a.elapsed.as_secs_f64();
    AnalysisJson {
        fen: a.board.fen(),
        by: a.by,
        running,
        nodes,
        time_ms: a.elapsed.as_millis() as u64,
        nps: if seconds > 0.0 {
            (nodes as f64 / seconds) as u64
        } else {
            0
        },
        lines,
    }
}

fn learn_rows(rows: &[LearnRow]) -> Vec<RowJson> {
    rows.iter()
        .map(|r| RowJson {
            name: r.name.clone(),
            meaning: r.meaning.clone(),
            nodes: r.nodes,
            time_ms: r.time.as_secs_f64() * 1000.0,
            complete: r.complete,
        })
        .collect()
}

fn learn_json(l: &Learn, running: bool) -> LearnJson {
    LearnJson {
        fen: l.fen.clone(),
        depth: l.depth,
        ablation_depth: l.ablation_depth,
        eval: l.eval,
        running,
        algorithms: learn_rows(&l.algorithms),
        ablation: learn_rows(&l.ablation),
    }
}

/// Locks a session; a job that panicked while holding the lock (which
/// would be a bug) leaves the state as it was, still usable.
pub fn lock(session: &Mutex<Session>) -> std::sync::MutexGuard<'_, Session> {
    session.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_read_from_white() {
        assert!(score_json(Score::cp(35), Color::White).contains(r#""white":"+0.35""#));
        let black = score_json(Score::cp(35), Color::Black);
        assert!(black.contains(r#""white":"-0.35""#), "{black}");
        assert!(black.contains(r#""cp":35"#), "{black}");
        let mate = score_json(Score::mate_in(3), Color::Black);
        assert!(mate.contains(r##""white":"#-2""##), "{mate}");
        assert!(mate.contains(r#""mate":2"#), "{mate}");
    }

    #[test]
    fn a_deeper_line_that_takes_a_lower_lines_move_swaps_with_it() {
        let b = Bitboards::startpos();
        let mv = |s| fianchetto_movegen::parse_uci(&b, s).unwrap();
        let line = |depth, m| Info {
            depth,
            pv: vec![mv(m)],
            ..Info::default()
        };
        let firsts = |a: &Analysis| {
            a.lines
                .iter()
                .map(|l| l.as_ref().map(|i| (i.depth, i.pv[0])))
                .collect::<Vec<_>>()
        };
        let mut a = Analysis::new(b.clone(), 3, "analysis");
        for (k, m) in ["e2e4", "d2d4", "g1f3"].into_iter().enumerate() {
            a.report(k, &line(5, m));
        }
        // Depth 6's best is depth 5's third move: that line now shows
        // depth 5's best, and no line is left empty.
        a.report(0, &line(6, "g1f3"));
        let want = [(6, mv("g1f3")), (5, mv("d2d4")), (5, mv("e2e4"))];
        assert_eq!(firsts(&a), want.map(Some));
        // A move no other line shows replaces only its own line.
        a.report(1, &line(6, "c2c4"));
        let want = [(6, mv("g1f3")), (6, mv("c2c4")), (5, mv("e2e4"))];
        assert_eq!(firsts(&a), want.map(Some));
        // Out of range: ignored.
        a.report(7, &line(6, "b1c3"));
        assert_eq!(firsts(&a), want.map(Some));
    }

    #[test]
    fn pv_stops_at_an_illegal_move() {
        let b = Bitboards::startpos();
        let e4 = fianchetto_movegen::parse_uci(&b, "e2e4").unwrap();
        assert_eq!(pv_san(&b, &[e4, e4]), "1. e4");
    }
}
