//! A job's messages as JSON, for a job that runs apart from its session:
//! the app in WebAssembly hands each [`JobOrder`] to another Web Worker,
//! which runs it and sends back its [`Report`]s and, for the engine's
//! move, a [`Moved`]. Moves travel as their 16 bits ([`Move::bits`]);
//! everything read back is checked (a move against the position before it
//! is played), and a malformed message is an error naming what is wrong.
//!
//! ```
//! use fianchetto_gui::jobs::{JobOrder, Report};
//! use fianchetto_gui::session::JobKind;
//! use fianchetto_gui::settings::Settings;
//! use fianchetto_gui::wire;
//! use fianchetto_board::{Bitboards, Board};
//! use fianchetto_movegen::{parse_uci, Game};
//! use fianchetto_search::Info;
//!
//! let mut game = Game::new(Bitboards::startpos());
//! game.play(parse_uci(game.board(), "e2e4")?)?;
//! let order = JobOrder { kind: JobKind::Analysis, game, settings: Settings::default() };
//! let back = wire::order_from_json(&wire::order_to_json(&order))?;
//! assert_eq!(back.game.board().fen(), order.game.board().fen());
//! assert_eq!(back.settings, order.settings);
//!
//! let report = Report::Line(0, Info { depth: 3, nodes: 900, ..Info::default() });
//! assert!(matches!(wire::report_from_json(&wire::report_to_json(&report))?,
//!                  Report::Line(0, Info { depth: 3, nodes: 900, .. })));
//! assert!(wire::report_from_json("{\"line\": 1}").is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::jobs::{JobOrder, Moved, Report};
use super::params::Params;
use super::session::{JobKind, LearnRow};
use super::settings::{json_text, Settings};
use super::GuiError;
use fianchetto_board::{Bitboards, Board, Move};
use fianchetto_eval::Score;
use fianchetto_movegen::Game;
use fianchetto_search::{Bound, Info};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// A [`JobOrder`]: the game as its start and its moves, the settings as
/// the page sends them.
#[derive(Serialize, Deserialize)]
struct OrderWire {
    kind: String,
    start: String,
    moves: Vec<u16>,
    settings: serde_json::Map<String, serde_json::Value>,
}

/// A [`Report`], tagged by its kind.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum ReportWire {
    Line { k: usize, info: InfoWire },
    LineDone { nodes: u64 },
    Algorithm(RowWire),
    Ablation(RowWire),
}

/// An [`Info`].
#[derive(Serialize, Deserialize)]
struct InfoWire {
    depth: u32,
    seldepth: u32,
    score: i32,
    bound: String,
    nodes: u64,
    nps: u64,
    hashfull: u32,
    time_us: u64,
    pv: Vec<u16>,
    tbhits: u64,
}

/// A [`LearnRow`].
#[derive(Serialize, Deserialize)]
struct RowWire {
    name: String,
    meaning: String,
    nodes: u64,
    time_us: u64,
    complete: bool,
}

/// A [`Moved`].
#[derive(Serialize, Deserialize)]
struct MovedWire {
    mv: Option<u16>,
    notice: Option<String>,
}

fn bad(what: &str, e: impl std::fmt::Display) -> GuiError {
    GuiError::BadInput(format!("malformed {what} from the job's worker: {e}"))
}

fn kind_name(kind: JobKind) -> &'static str {
    match kind {
        JobKind::EngineMove => "engine-move",
        JobKind::Analysis => "analysis",
        JobKind::Learn => "learn",
    }
}

fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX)
}

/// A move from its bits, `what` naming it in the error.
fn move_of(bits: u16, what: &str) -> Result<Move, GuiError> {
    Move::from_bits(bits).ok_or_else(|| bad(what, format_args!("{bits} is not a move")))
}

/// The order as JSON.
pub fn order_to_json(order: &JobOrder) -> String {
    let settings = match serde_json::to_value(order.settings.json()) {
        Ok(serde_json::Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    };
    json_text(&OrderWire {
        kind: kind_name(order.kind).to_string(),
        start: order.game.start().fen(),
        moves: order.game.moves().iter().map(|m| m.bits()).collect(),
        settings,
    })
}

/// An order read back: its game replayed move by move (each checked
/// legal), its settings checked as a request's are.
pub fn order_from_json(text: &str) -> Result<JobOrder, GuiError> {
    let w: OrderWire = serde_json::from_str(text).map_err(|e| bad("job order", e))?;
    let kind = [JobKind::EngineMove, JobKind::Analysis, JobKind::Learn]
        .into_iter()
        .find(|&k| kind_name(k) == w.kind)
        .ok_or_else(|| bad("job order", format_args!("no job is called `{}`", w.kind)))?;
    let start = Bitboards::from_fen(&w.start).map_err(|e| bad("job order", e))?;
    let mut game = Game::new(start);
    for bits in w.moves {
        let mv = move_of(bits, "job order")?;
        game.play(mv).map_err(|e| bad("job order", e))?;
    }
    let pairs: Vec<(String, String)> = w
        .settings
        .into_iter()
        .map(|(name, value)| match value {
            serde_json::Value::String(s) => (name, s),
            other => (name, other.to_string()),
        })
        .collect();
    let pairs: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    let settings = Settings::default().updated(&Params::of(&pairs))?;
    Ok(JobOrder {
        kind,
        game,
        settings,
    })
}

fn row_wire(row: &LearnRow) -> RowWire {
    RowWire {
        name: row.name.clone(),
        meaning: row.meaning.clone(),
        nodes: row.nodes,
        time_us: micros(row.time),
        complete: row.complete,
    }
}

fn row_of(w: RowWire) -> LearnRow {
    LearnRow {
        name: w.name,
        meaning: w.meaning,
        nodes: w.nodes,
        time: Duration::from_micros(w.time_us),
        complete: w.complete,
    }
}

/// A report as JSON.
pub fn report_to_json(report: &Report) -> String {
    json_text(&match report {
        Report::Line(k, info) => ReportWire::Line {
            k: *k,
            info: InfoWire {
                depth: info.depth,
                seldepth: info.seldepth,
                score: info.score.0,
                bound: match info.bound {
                    Bound::Exact => "exact",
                    Bound::Lower => "lower",
                    Bound::Upper => "upper",
                }
                .to_string(),
                nodes: info.nodes,
                nps: info.nps,
                hashfull: info.hashfull,
                time_us: micros(info.time),
                pv: info.pv.iter().map(|m| m.bits()).collect(),
                tbhits: info.tbhits,
            },
        },
        Report::LineDone(nodes) => ReportWire::LineDone { nodes: *nodes },
        Report::Algorithm(row) => ReportWire::Algorithm(row_wire(row)),
        Report::Ablation(row) => ReportWire::Ablation(row_wire(row)),
    })
}

/// A report read back.
pub fn report_from_json(text: &str) -> Result<Report, GuiError> {
    let w: ReportWire = serde_json::from_str(text).map_err(|e| bad("report", e))?;
    Ok(match w {
        ReportWire::Line { k, info: i } => {
            let bound = match i.bound.as_str() {
                "exact" => Bound::Exact,
                "lower" => Bound::Lower,
                "upper" => Bound::Upper,
                other => return Err(bad("report", format_args!("no bound is called `{other}`"))),
            };
            let pv =
                i.pv.into_iter()
                    .map(|bits| move_of(bits, "report"))
                    .collect::<Result<Vec<Move>, GuiError>>()?;
            Report::Line(
                k,
                Info {
                    depth: i.depth,
                    seldepth: i.seldepth,
                    score: Score(i.score),
                    bound,
                    nodes: i.nodes,
                    nps: i.nps,
                    hashfull: i.hashfull,
                    time: Duration::from_micros(i.time_us),
                    pv,
                    tbhits: i.tbhits,
                },
            )
        }
        ReportWire::LineDone { nodes } => Report::LineDone(nodes),
        ReportWire::Algorithm(row) => Report::Algorithm(row_of(row)),
        ReportWire::Ablation(row) => Report::Ablation(row_of(row)),
    })
}

/// The engine's move as JSON.
pub fn moved_to_json(moved: &Moved) -> String {
    json_text(&MovedWire {
        mv: moved.mv.map(|m| m.bits()),
        notice: moved.notice.clone(),
    })
}

/// The engine's move read back (its legality is checked when it is played).
pub fn moved_from_json(text: &str) -> Result<Moved, GuiError> {
    let w: MovedWire = serde_json::from_str(text).map_err(|e| bad("move", e))?;
    Ok(Moved {
        mv: w.mv.map(|bits| move_of(bits, "move")).transpose()?,
        notice: w.notice,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use fianchetto_movegen::parse_uci;

    fn game(moves: &[&str]) -> Game<Bitboards> {
        let mut g = Game::new(Bitboards::startpos());
        for m in moves {
            let mv = parse_uci(g.board(), m).unwrap();
            g.play(mv).unwrap();
        }
        g
    }

    #[test]
    fn orders_keep_the_history_and_the_settings() {
        let settings = Settings::default()
            .updated(&Params::of(&[
                ("engine", "both"),
                ("algo", "mcts"),
                ("limit", "elo"),
                ("value", "1800"),
                ("multipv", "4"),
                ("learn_depth", "2"),
            ]))
            .unwrap();
        for kind in [JobKind::EngineMove, JobKind::Analysis, JobKind::Learn] {
            let order = JobOrder {
                kind,
                game: game(&["g1f3", "g8f6", "f3g1", "f6g8", "e2e4"]),
                settings: settings.clone(),
            };
            let back = order_from_json(&order_to_json(&order)).unwrap();
            assert_eq!(back.kind, kind);
            assert_eq!(back.settings, settings);
            assert_eq!(back.game.moves(), order.game.moves());
            assert_eq!(back.game.positions(), order.game.positions());
        }
    }

    #[test]
    fn reports_and_moves_come_back_the_same() {
        let g = game(&["e2e4"]);
        let pv: Vec<Move> = ["e7e5", "g1f3"]
            .iter()
            .scan(g.board().clone(), |b, m| {
                let mv = parse_uci(b, m).unwrap();
                b.play_unchecked(mv);
                Some(mv)
            })
            .collect();
        let info = Info {
            depth: 7,
            seldepth: 11,
            score: Score(-35),
            bound: Bound::Upper,
            nodes: 12_345,
            nps: 999,
            hashfull: 12,
            time: Duration::from_micros(4_567),
            pv: pv.clone(),
            tbhits: 3,
        };
        let row = LearnRow {
            name: "PVS".into(),
            meaning: "a <b> & \"c\"".into(),
            nodes: 77,
            time: Duration::from_micros(1_001),
            complete: false,
        };
        for report in [
            Report::Line(2, info),
            Report::LineDone(5),
            Report::Algorithm(row.clone()),
            Report::Ablation(row),
        ] {
            let text = report_to_json(&report);
            assert_eq!(
                format!("{:?}", report_from_json(&text).unwrap()),
                format!("{report:?}")
            );
        }
        for moved in [
            Moved {
                mv: Some(pv[0]),
                notice: None,
            },
            Moved {
                mv: None,
                notice: Some("no move".into()),
            },
        ] {
            assert_eq!(moved_from_json(&moved_to_json(&moved)).unwrap(), moved);
        }
    }

    #[test]
    fn malformed_messages_are_errors_naming_what_is_wrong() {
        let order = order_to_json(&JobOrder {
            kind: JobKind::Analysis,
            game: game(&["e2e4"]),
            settings: Settings::default(),
        });
        let e2e4 = game(&["e2e4"]).moves()[0].bits();
        // e2e4 again, from the position after it: illegal.
        let twice = order.replace(&format!("[{e2e4}]"), &format!("[{e2e4},{e2e4}]"));
        assert_ne!(twice, order);
        for (text, said) in [
            ("", "job order"),
            ("[1,2]", "job order"),
            (&*order.replace("analysis", "juggling"), "juggling"),
            (&*order.replace("rnbqkbnr/", "rnbqkbnrr/"), "job order"),
            (&*twice, "job order"),
            (&*order.replace("\"pvs\"", "\"abacus\""), "abacus"),
        ] {
            let e = order_from_json(text).unwrap_err().to_string();
            assert!(e.contains(said), "{text}: {e}");
        }
        for text in [
            "{}",
            "{\"line_done\": {\"nodes\": -1}}",
            "{\"line\": {\"k\": 0}}",
            "{\"line_done\": {\"nodes\": 1}, \"algorithm\": {}}",
        ] {
            let e = report_from_json(text).unwrap_err().to_string();
            assert!(e.contains("report"), "{text}: {e}");
        }
        assert!(moved_from_json("{\"mv\": 70000}").is_err());
    }
}
