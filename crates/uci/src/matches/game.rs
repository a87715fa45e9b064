//! One game between two engines: the clock (or node budget), the rules,
//! adjudication, faults, and the PGN record with clock and score comments.

use super::{Adjudication, Limit};
use crate::{ClientError, Engine, Go, Score};
use fianchetto_board::{Bitboards, Board, Color};
use fianchetto_movegen::pgn::{GameResult, PgnGame};
use fianchetto_movegen::{Game, Outcome, Termination};
use std::time::Duration;

/// What an engine did wrong, ending a game it then loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FaultKind {
    /// It answered an illegal move (or none where it had moves).
    Illegal,
    /// Its clock ran out (beyond the tolerated margin).
    Time,
    /// Its process ended.
    Crash,
    /// It stopped answering (not even `stop` brought a move), or answered
    /// with a line that is not UCI.
    Hang,
}

impl FaultKind {
    /// The PGN `Termination` tag's value for it.
    fn termination(self) -> &'static str {
        match self {
            FaultKind::Illegal => "illegal move",
            FaultKind::Time => "time forfeit",
            FaultKind::Crash => "abandoned",
            FaultKind::Hang => "stalled connection",
        }
    }
}

/// How one game ended.
#[derive(Clone, Debug)]
pub(crate) struct GameEnd {
    /// The game with its tags left to the caller, moves and comments.
    pub(crate) pgn: PgnGame<Bitboards>,
    /// The result.
    pub(crate) result: GameResult,
    /// Why, in words ("White mates", "Black's clock ran out").
    pub(crate) reason: String,
    /// The fault that ended it: by the engine of which colour, and what;
    /// with the error when the engine must be restarted.
    pub(crate) fault: Option<(Color, FaultKind, Option<String>)>,
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// `h:mm:ss.mmm` for a PGN `%clk` or `%emt` command (negative times read 0).
fn clock_text(seconds: f64) -> String {
    let ms = (seconds.max(0.0) * 1000.0).round() as u64;
    format!(
        "{}:{:02}:{:02}.{:03}",
        ms / 3_600_000,
        ms / 60_000 % 60,
        ms / 1000 % 60,
        ms % 1000
    )
}

/// `%eval` text from White's point of view: pawns (`0.35`) or a mate (`#-3`).
fn eval_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("{:.2}", f64::from(cp) / 100.0),
        Score::Mate(m) => format!("#{m}"),
    }
}

/// The resign and draw rules, counted over consecutive plies.
#[derive(Default)]
struct Adjudicator {
    /// Plies in a row whose mover's score was decisive, and for whom.
    decisive: u32,
    leader: Option<Color>,
    /// Plies in a row whose score was near zero.
    quiet: u32,
}

impl Adjudicator {
    /// Takes in the score of the move just made by `mover` at game ply
    /// `ply`; answers a result when a rule applies.
    fn update(
        &mut self,
        rules: &Adjudication,
        mover: Color,
        score: Option<Score>,
        ply: u32,
    ) -> Option<(GameResult, String)> {
        let Some(score) = score else {
            *self = Adjudicator::default();
            return None;
        };
        let white = score.pov(mover, Color::White);
        // Mate scores count as decisive and as far from a draw.
        let value = white.value(100_000);
        let leader = if value > 0 {
            Color::White
        } else {
            Color::Black
        };
        if rules.resign_plies > 0 && value.unsigned_abs() >= rules.resign_score.unsigned_abs() {
            if self.leader == Some(leader) {
                self.decisive += 1;
            } else {
                self.leader = Some(leader);
                self.decisive = 1;
            }
        } else {
            self.leader = None;
            self.decisive = 0;
        }
        if value.unsigned_abs() <= rules.draw_score.unsigned_abs() && ply >= rules.draw_from_ply {
            self.quiet += 1;
        } else {
            self.quiet = 0;
        }
        if let (true, Some(winner)) = (
            rules.resign_plies > 0 && self.decisive >= rules.resign_plies,
            self.leader,
        ) {
            let result = match winner {
                Color::White => GameResult::WhiteWins,
                Color::Black => GameResult::BlackWins,
            };
            return Some((
                result,
                format!("{} wins by adjudication", color_name(winner)),
            ));
        }
        if rules.draw_plies > 0 && self.quiet >= rules.draw_plies {
            return Some((GameResult::Draw, "Draw by adjudication".into()));
        }
        None
    }
}

fn rules_reason(outcome: Outcome) -> String {
    match outcome {
        Outcome::Decisive { winner, .. } => format!("{} mates", color_name(winner)),
        Outcome::Draw(how) => match how {
            Termination::Stalemate => "Draw by stalemate".into(),
            Termination::InsufficientMaterial => "Draw by insufficient mating material".into(),
            Termination::FiftyMoves | Termination::SeventyFiveMoves => {
                "Draw by fifty moves rule".into()
            }
            _ => "Draw by 3-fold repetition".into(),
        },
    }
}

/// The ply number of `board` counted from the start of the game (as the
/// FEN's move number says), what the move limit counts.
fn game_ply(board: &Bitboards) -> u32 {
    2 * board.fullmove_number().saturating_sub(1) + u32::from(board.turn() == Color::Black)
}

/// Plays `opening` on between `engines[0]` (white) and `engines[1]`
/// (black) to the end.
pub(crate) fn play(
    engines: [&mut Engine; 2],
    opening: &Game<Bitboards>,
    limit: &Limit,
    rules: &Adjudication,
    margin: Duration,
) -> GameEnd {
    let [white, black] = engines;
    let mut seats = [white, black];
    let mut pgn = PgnGame::new(opening.clone());
    let mut clocks = match limit {
        Limit::Clock { base, .. } => [base.as_secs_f64(); 2],
        Limit::Nodes(_) => [0.0; 2],
    };
    let mut adjudicator = Adjudicator::default();
    let end = |pgn: PgnGame<Bitboards>, result, reason: String, fault| GameEnd {
        pgn,
        result,
        reason,
        fault,
    };
    let loss = |mover: Color| match mover {
        Color::White => GameResult::BlackWins,
        Color::Black => GameResult::WhiteWins,
    };
    for (seat, color) in seats.iter_mut().zip([Color::White, Color::Black]) {
        if let Err(e) = seat.new_game() {
            // Neither moved: the game is lost by whoever is broken.
            let kind = fault_of(&e, false);
            let reason = format!("{} {}: {e}", color_name(color), kind_text(kind));
            let restart = e.needs_restart().then(|| e.to_string());
            return end(pgn, loss(color), reason, Some((color, kind, restart)));
        }
    }
    loop {
        let board = pgn.game.board().clone();
        if let Some(outcome) = pgn.game.outcome_with_claims() {
            let result = GameResult::from_outcome(outcome);
            return end(pgn, result, rules_reason(outcome), None);
        }
        if game_ply(&board) >= rules.max_plies {
            return end(pgn, GameResult::Draw, "Draw by move limit".into(), None);
        }
        let mover = board.turn();
        let go = match limit {
            Limit::Clock { increment, .. } => {
                let ms = |s: f64| Duration::from_secs_f64(s.max(0.0));
                Go::clock(ms(clocks[0]), ms(clocks[1]), *increment, *increment)
            }
            Limit::Nodes(n) => Go::nodes(*n),
        };
        let seat = &mut seats[mover.index()];
        let played = match seat.play(&pgn.game, &go) {
            Ok(played) => played,
            Err(e) => {
                let kind = fault_of(&e, matches!(limit, Limit::Clock { .. }));
                let restart = e.needs_restart().then(|| e.to_string());
                let reason = format!("{} {}: {e}", color_name(mover), kind_text(kind));
                return end(pgn, loss(mover), reason, Some((mover, kind, restart)));
            }
        };
        let spent = played.elapsed.as_secs_f64();
        if let Limit::Clock { increment, .. } = limit {
            let clock = &mut clocks[mover.index()];
            *clock -= spent;
            if *clock < -margin.as_secs_f64() {
                let reason = format!("{}'s clock ran out", color_name(mover));
                return end(
                    pgn,
                    loss(mover),
                    reason,
                    Some((mover, FaultKind::Time, None)),
                );
            }
            *clock += increment.as_secs_f64();
        }
        let Some(mv) = played.best else {
            // The client answers no move only where there is none, and the
            // rules have ended such a game above.
            let reason = format!("{} answered no move", color_name(mover));
            return end(
                pgn,
                loss(mover),
                reason,
                Some((mover, FaultKind::Illegal, None)),
            );
        };
        let score = played.info.score.map(|s| s.score);
        let mut comment = Vec::new();
        if let Some(score) = score {
            let depth = played.info.depth.unwrap_or(0);
            let white = score.pov(mover, Color::White);
            comment.push(format!("[%eval {},{depth}]", eval_text(white)));
        }
        if matches!(limit, Limit::Clock { .. }) {
            comment.push(format!("[%clk {}]", clock_text(clocks[mover.index()])));
        }
        comment.push(format!("[%emt {}]", clock_text(spent)));
        if pgn.play(mv).is_err() {
            // The client checked the move against this very position.
            let reason = format!("{} played an illegal move", color_name(mover));
            return end(
                pgn,
                loss(mover),
                reason,
                Some((mover, FaultKind::Illegal, None)),
            );
        }
        if let Some(notes) = pgn.notes.last_mut() {
            notes.comments.push(comment.join(" "));
        }
        let ply = game_ply(pgn.game.board());
        if pgn.game.outcome_with_claims().is_none() {
            if let Some((result, reason)) = adjudicator.update(rules, mover, score, ply) {
                return end(pgn, result, reason, None);
            }
        }
    }
}

/// Which fault an error is.
fn fault_of(e: &ClientError, clocked: bool) -> FaultKind {
    match e {
        ClientError::IllegalMove { .. } => FaultKind::Illegal,
        ClientError::Terminated { .. } | ClientError::Spawn { .. } => FaultKind::Crash,
        // With a clock, a search past its whole clock and the grace is lost
        // on time, whatever the engine does next.
        ClientError::Timeout { .. } if clocked => FaultKind::Time,
        _ => FaultKind::Hang,
    }
}

fn kind_text(kind: FaultKind) -> &'static str {
    match kind {
        FaultKind::Illegal => "played an illegal move",
        FaultKind::Time => "lost on time",
        FaultKind::Crash => "crashed",
        FaultKind::Hang => "stopped answering",
    }
}

impl GameEnd {
    /// The PGN `Termination` tag's value.
    pub(crate) fn termination(&self) -> &'static str {
        match (
            &self.fault,
            self.reason.contains("adjudication") || self.reason.contains("limit"),
        ) {
            (Some((_, kind, _)), _) => kind.termination(),
            (None, true) => "adjudication",
            (None, false) => "normal",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comment_texts() {
        assert_eq!(clock_text(9.8745), "0:00:09.875");
        assert_eq!(clock_text(3725.0), "1:02:05.000");
        assert_eq!(clock_text(-1.0), "0:00:00.000");
        assert_eq!(eval_text(Score::Cp(-35)), "-0.35");
        assert_eq!(eval_text(Score::Mate(-3)), "#-3");
    }

    #[test]
    fn adjudication_needs_agreement_for_the_whole_count() {
        let rules = Adjudication::default();
        let mut a = Adjudicator::default();
        // White is winning: white's scores positive, black's negative.
        let mut result = None;
        for ply in 0..rules.resign_plies {
            let mover = if ply % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            let score = Score::Cp(if mover == Color::White { 1200 } else { -1100 });
            result = a.update(&rules, mover, Some(score), 100 + ply);
            if ply + 1 < rules.resign_plies {
                assert_eq!(result, None, "ply {ply}");
            }
        }
        assert_eq!(result.map(|r| r.0), Some(GameResult::WhiteWins));
        // One small score resets the count.
        let mut a = Adjudicator::default();
        for ply in 0..20 {
            let mover = if ply % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            let cp = if ply % 6 == 5 { 0 } else { 1500 };
            let score = Score::Cp(if mover == Color::White { cp } else { -cp });
            assert_eq!(a.update(&rules, mover, Some(score), ply), None);
        }
        // The draw rule, when on.
        let rules = Adjudication {
            draw_from_ply: 10,
            draw_score: 10,
            draw_plies: 4,
            ..Adjudication::default()
        };
        let mut a = Adjudicator::default();
        let results: Vec<_> = (0..16)
            .map(|ply| {
                a.update(&rules, Color::White, Some(Score::Cp(5)), ply)
                    .map(|r| r.0)
            })
            .collect();
        assert_eq!(results.iter().position(Option::is_some), Some(13));
    }
}
