//! What the engine side of a tab does: which colours it plays, with which
//! algorithm and evaluation, under which limit; how many lines the
//! analysis shows; how deep the Learn view searches.

use super::params::Params;
use super::GuiError;
use fianchetto_board::Color;
use fianchetto_eval::select::EvalName;
use fianchetto_search::select::Algo;
use fianchetto_search::strength::{strength_nodes, ELO_RANGE};
use fianchetto_search::Limits;
use serde::Serialize;
use std::time::Duration;

/// The colours the engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineSide {
    /// Neither: two people, or one analysing.
    None,
    /// White.
    White,
    /// Black.
    Black,
    /// Both: the engine plays itself.
    Both,
}

impl EngineSide {
    const ALL: [EngineSide; 4] = [
        EngineSide::None,
        EngineSide::White,
        EngineSide::Black,
        EngineSide::Both,
    ];

    fn name(self) -> &'static str {
        match self {
            EngineSide::None => "none",
            EngineSide::White => "white",
            EngineSide::Black => "black",
            EngineSide::Both => "both",
        }
    }

    /// Whether the engine moves for `color`.
    pub fn plays(self, color: Color) -> bool {
        match self {
            EngineSide::None => false,
            EngineSide::Both => true,
            EngineSide::White => color == Color::White,
            EngineSide::Black => color == Color::Black,
        }
    }
}

/// How long the engine thinks about a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// To this depth in plies.
    Depth(u32),
    /// For this many milliseconds.
    Time(u64),
    /// With the node budget that plays at this `UCI_Elo` (calibrated for
    /// PVS with NNUE; see `strength_nodes`).
    Elo(i64),
}

/// The allowed range of each limit.
const DEPTH_RANGE: (i64, i64) = (1, 30);
const TIME_RANGE_MS: (i64, i64) = (10, 60_000);
/// Most lines the analysis shows.
pub const MAX_MULTIPV: usize = 8;
/// The deepest the Learn view searches (minimax is exponential).
pub const LEARN_DEPTH_RANGE: (i64, i64) = (1, 7);
/// The deepest the Learn view's ablation searches.
pub const ABLATION_DEPTH_RANGE: (i64, i64) = (1, 14);

/// A tab's engine settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Which colours the engine plays.
    pub engine: EngineSide,
    /// The search algorithm.
    pub algo: Algo,
    /// The evaluation.
    pub eval: EvalName,
    /// The engine's limit per move.
    pub limit: Limit,
    /// How many lines the analysis shows.
    pub multipv: usize,
    /// The Learn view's depth for the algorithms.
    pub learn_depth: u32,
    /// The Learn view's depth for the PVS ablation.
    pub ablation_depth: u32,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            engine: EngineSide::Black,
            algo: Algo::Pvs,
            eval: EvalName::Nnue,
            limit: Limit::Time(1000),
            multipv: 3,
            learn_depth: 4,
            ablation_depth: 7,
        }
    }
}

/// Reads an integer in `range`, naming the setting when it is not one.
fn number(what: &str, text: &str, (lo, hi): (i64, i64)) -> Result<i64, GuiError> {
    match text.trim().parse::<i64>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(n),
        _ => Err(GuiError::BadInput(format!(
            "{what} must be a whole number from {lo} to {hi}, not `{text}`"
        ))),
    }
}

impl Settings {
    /// These settings with the ones `params` gives changed (`engine`,
    /// `algo`, `eval`, `limit` with `value`, `multipv`, `learn_depth`,
    /// `ablation_depth`); every value is checked before any is taken, so
    /// that a bad one changes nothing.
    pub fn updated(&self, params: &Params) -> Result<Settings, GuiError> {
        let mut next = self.clone();
        if let Some(side) = params.get("engine") {
            next.engine = EngineSide::ALL
                .into_iter()
                .find(|s| s.name() == side)
                .ok_or_else(|| {
                    GuiError::BadInput(format!(
                        "the engine plays none, white, black or both, not `{side}`"
                    ))
                })?;
        }
        if let Some(name) = params.get("algo") {
            next.algo = Algo::named(name).map_err(|e| GuiError::BadInput(e.to_string()))?;
        }
        if let Some(name) = params.get("eval") {
            next.eval = EvalName::named(name).map_err(|e| GuiError::BadInput(e.to_string()))?;
        }
        if let Some(kind) = params.get("limit") {
            let value = params.require("value")?;
            next.limit = match kind {
                "depth" => Limit::Depth(number("the depth", value, DEPTH_RANGE)? as u32),
                "time" => Limit::Time(number("the time (ms)", value, TIME_RANGE_MS)? as u64),
                "elo" => Limit::Elo(number("UCI_Elo", value, ELO_RANGE)?),
                other => {
                    return Err(GuiError::BadInput(format!(
                        "the limit is depth, time or elo, not `{other}`"
                    )))
                }
            };
        }
        if let Some(n) = params.get("multipv") {
            next.multipv = number("the number of lines", n, (1, MAX_MULTIPV as i64))? as usize;
        }
        if let Some(d) = params.get("learn_depth") {
            next.learn_depth = number("the Learn depth", d, LEARN_DEPTH_RANGE)? as u32;
        }
        if let Some(d) = params.get("ablation_depth") {
            next.ablation_depth = number("the ablation depth", d, ABLATION_DEPTH_RANGE)? as u32;
        }
        Ok(next)
    }

    /// The search limits of one engine move. Every move is also capped in
    /// time, so that minimax asked for depth 30 still answers.
    pub fn move_limits(&self) -> Limits {
        let cap = Duration::from_millis(TIME_RANGE_MS.1 as u64);
        match self.limit {
            Limit::Depth(d) => Limits {
                movetime: Some(cap),
                ..Limits::depth(d)
            },
            Limit::Time(ms) => Limits::movetime(Duration::from_millis(ms)),
            Limit::Elo(elo) => Limits {
                movetime: Some(cap),
                ..Limits::nodes(strength_nodes(elo))
            },
        }
    }

    /// The settings as JSON.
    pub fn to_json(&self) -> String {
        json_text(&self.json())
    }

    /// The settings as a value to serialize.
    pub fn json(&self) -> SettingsJson {
        let (limit, value) = match self.limit {
            Limit::Depth(d) => ("depth", i64::from(d)),
            Limit::Time(ms) => ("time", ms as i64),
            Limit::Elo(e) => ("elo", e),
        };
        SettingsJson {
            engine: self.engine.name(),
            algo: self.algo.name(),
            eval: self.eval.name(),
            limit,
            value,
            multipv: self.multipv,
            learn_depth: self.learn_depth,
            ablation_depth: self.ablation_depth,
        }
    }
}

/// [`Settings`] as the page reads them.
#[derive(Serialize)]
pub struct SettingsJson {
    engine: &'static str,
    algo: &'static str,
    eval: &'static str,
    limit: &'static str,
    value: i64,
    multipv: usize,
    learn_depth: u32,
    ablation_depth: u32,
}

/// What the page offers in its menus.
#[derive(Serialize)]
struct Options {
    algorithms: Vec<&'static str>,
    evaluations: Vec<&'static str>,
    engine: Vec<&'static str>,
    depth: (i64, i64),
    time: (i64, i64),
    elo: (i64, i64),
    multipv: (i64, i64),
    learn_depth: (i64, i64),
    ablation_depth: (i64, i64),
    defaults: SettingsJson,
}

/// `value` as JSON text, with `<` written `\u003c` (it can only be in a
/// string), so that no reply can close a `<script>` element. The values
/// serialized here are plain structs, strings and numbers, which
/// serde_json always writes.
pub(crate) fn json_text<T: Serialize>(value: &T) -> String {
    let text = serde_json::to_string(value).unwrap_or_else(|e| {
        serde_json::json!({ "error": format!("cannot write the reply: {e}") }).to_string()
    });
    if text.contains('<') {
        text.replace('<', "\\u003c")
    } else {
        text
    }
}

/// What the page offers in its menus, from the registries of names (so
/// that a new algorithm or evaluation appears without touching the page).
pub fn options_json() -> String {
    json_text(&Options {
        algorithms: Algo::ALL.iter().map(|a| a.name()).collect(),
        evaluations: EvalName::ALL.iter().map(|e| e.name()).collect(),
        engine: EngineSide::ALL.iter().map(|s| s.name()).collect(),
        depth: DEPTH_RANGE,
        time: TIME_RANGE_MS,
        elo: ELO_RANGE,
        multipv: (1, MAX_MULTIPV as i64),
        learn_depth: LEARN_DEPTH_RANGE,
        ablation_depth: ABLATION_DEPTH_RANGE,
        defaults: Settings::default().json(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn updates_are_checked_whole() {
        let s = Settings::default();
        let next = s
            .updated(&Params::of(&[
                ("engine", "both"),
                ("algo", "minimax"),
                ("eval", "material"),
                ("limit", "depth"),
                ("value", "3"),
                ("multipv", "2"),
            ]))
            .unwrap();
        assert_eq!(next.engine, EngineSide::Both);
        assert_eq!(next.algo, Algo::Minimax);
        assert_eq!(next.eval, EvalName::Material);
        assert_eq!(next.limit, Limit::Depth(3));
        assert_eq!(next.multipv, 2);
        assert_eq!(next.move_limits().depth, Some(3));
        // One bad value: an error naming it, nothing taken.
        for (bad, said) in [
            (vec![("algo", "minimax"), ("eval", "abacus")], "abacus"),
            (vec![("limit", "depth"), ("value", "0")], "from 1 to 30"),
            (vec![("limit", "elo"), ("value", "99999")], "UCI_Elo"),
            (vec![("limit", "depth")], "value"),
            (vec![("limit", "moon"), ("value", "1")], "moon"),
            (vec![("engine", "red")], "red"),
            (vec![("multipv", "9")], "lines"),
            (vec![("learn_depth", "8")], "Learn"),
        ] {
            let err = s.updated(&Params::of(&bad)).unwrap_err().to_string();
            assert!(err.contains(said), "{err}");
        }
        let elo = s
            .updated(&Params::of(&[("limit", "elo"), ("value", "2000")]))
            .unwrap();
        assert_eq!(elo.move_limits().nodes, Some(strength_nodes(2000)));
    }

    #[test]
    fn json_text_escapes_what_could_close_a_script() {
        assert_eq!(
            json_text(&("</script>", "\"\u{1}")),
            r#"["\u003c/script>","\"\u0001"]"#
        );
    }

    #[test]
    fn options_list_the_registries() {
        let o = options_json();
        for a in Algo::ALL {
            assert!(o.contains(&format!("\"{}\"", a.name())), "{o}");
        }
        for e in EvalName::ALL {
            assert!(o.contains(&format!("\"{}\"", e.name())), "{o}");
        }
    }
}
