//! `data stats`: what a set of data files holds.

use super::{byte_bar, CutShort, DataFileError, DataFormat, GameSource};
use crate::games::{Ending, Filter, FilterCounts, GameRecord, Skip, NO_SCORE};
use crate::marlin::Wdl;
use crate::score::MATE_BOUND;
use std::fmt;
use std::path::PathBuf;

/// The upper ends (exclusive) of the score histogram's bins, in
/// centipawns of |score|; a last bin holds mate scores.
pub const SCORE_BINS: [i32; 9] = [25, 50, 100, 200, 400, 800, 1600, 3200, MATE_BOUND as i32];

/// What data files hold.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Stats {
    /// Files read in the games format.
    pub games_files: u64,
    /// Files read in marlinformat.
    pub marlin_files: u64,
    /// Games (for marlinformat: runs of records one move apart).
    pub games: u64,
    /// Positions (entries), scored or not.
    pub positions: u64,
    /// Positions without a score (marked by `dedup`).
    pub unscored: u64,
    /// Game results: black wins, draws, white wins.
    pub game_results: [u64; 3],
    /// Position results (each position counts its game's result).
    pub position_results: [u64; 3],
    /// Games by ending, indexed by [`Ending`] as `usize`.
    pub endings: [u64; Ending::ALL.len()],
    /// Games from a Chess960 start.
    pub chess960: u64,
    /// The fewest and most positions in a game.
    pub plies: Option<(u64, u64)>,
    /// Scored positions by |score|: one bin per [`SCORE_BINS`] entry, the
    /// last for mate scores.
    pub scores: [u64; SCORE_BINS.len() + 1],
    /// The filter whose counts follow.
    pub filter: Filter,
    /// What `filter` keeps and skips.
    pub counts: FilterCounts,
    /// The games files that ended inside a game (counted up to it).
    pub cut_short: Vec<CutShort>,
}

impl Stats {
    fn add_game(
        &mut self,
        game: &GameRecord,
        filter: &Filter,
    ) -> Result<(), crate::games::GameError> {
        let mut counts = FilterCounts::default();
        let mut scores = [0u64; SCORE_BINS.len() + 1];
        game.replay(|index, board, entry| {
            if let Some(reason) = filter.skip(index, board, entry) {
                counts.skipped[reason as usize] += 1;
            } else {
                counts.kept += 1;
            }
            if entry.score != NO_SCORE {
                let s = (entry.score as i32).abs();
                let bin = SCORE_BINS
                    .iter()
                    .position(|&top| s < top)
                    .unwrap_or(SCORE_BINS.len());
                scores[bin] += 1;
            }
        })?;
        let n = game.entries.len() as u64;
        self.games += 1;
        self.positions += n;
        self.unscored += counts.skipped[Skip::NoScore as usize];
        self.game_results[game.result as usize] += 1;
        self.position_results[game.result as usize] += n;
        self.endings[game.ending as usize] += 1;
        self.chess960 += game.chess960 as u64;
        self.plies = Some(self.plies.map_or((n, n), |(lo, hi)| (lo.min(n), hi.max(n))));
        for (a, b) in self.scores.iter_mut().zip(scores) {
            *a += b;
        }
        self.counts.add(&counts);
        Ok(())
    }
}

/// Reads every game of `inputs` (either format, checked move by move) and
/// counts what they hold; `filter` says which positions count as kept. A
/// games file that ends inside a game (cut short, or still being written)
/// counts its whole games and is listed in [`Stats::cut_short`].
pub fn stats(inputs: &[PathBuf], filter: &Filter, progress: bool) -> Result<Stats, DataFileError> {
    let mut sources = Vec::new();
    for path in inputs {
        sources.push(GameSource::open(path)?);
    }
    let total = sources.iter().map(|s| s.progress().1).sum();
    let bar = byte_bar(total, progress);
    let mut stats = Stats {
        filter: *filter,
        ..Stats::default()
    };
    let mut game = GameRecord::default();
    let mut done = 0;
    for mut source in sources {
        match source.format() {
            DataFormat::Games => stats.games_files += 1,
            DataFormat::Marlin => stats.marlin_files += 1,
        }
        while let Some(at) = source.next_game(&mut game)? {
            stats
                .add_game(&game, filter)
                .map_err(|e| source.error_at(at, e))?;
            if stats.games % 1024 == 0 {
                bar.set_position(done + source.progress().0);
            }
        }
        done += source.progress().1;
        stats.cut_short.extend(source.cut_short().cloned());
    }
    bar.finish_and_clear();
    Ok(stats)
}

/// `part` as a percentage of `whole` (0 when `whole` is 0).
pub(super) fn share(part: u64, whole: u64) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}

/// Results counted by [`Wdl`], as shares: `white …%, draw …%, black …%`.
pub(super) fn results_line(r: &[u64; 3]) -> String {
    let all = r.iter().sum();
    format!(
        "white {:.1}%, draw {:.1}%, black {:.1}%",
        share(r[Wdl::WhiteWin as usize], all),
        share(r[Wdl::Draw as usize], all),
        share(r[Wdl::BlackWin as usize], all)
    )
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let games_word = if self.marlin_files > 0 && self.games_files == 0 {
            "games (runs of consecutive marlinformat records)"
        } else {
            "games"
        };
        writeln!(
            f,
            "files: {} games-format, {} marlinformat",
            self.games_files, self.marlin_files
        )?;
        writeln!(f, "{games_word}: {}", self.games)?;
        let (lo, hi) = self.plies.unwrap_or((0, 0));
        writeln!(
            f,
            "positions: {} ({} without a score); per game {:.1} on average, {lo} to {hi}",
            self.positions,
            self.unscored,
            self.positions as f64 / self.games.max(1) as f64
        )?;
        writeln!(f, "results by game: {}", results_line(&self.game_results))?;
        writeln!(
            f,
            "results by position: {}",
            results_line(&self.position_results)
        )?;
        if self.games_files > 0 {
            let endings: Vec<String> = Ending::ALL
                .iter()
                .filter(|&&e| self.endings[e as usize] > 0)
                .map(|&e| format!("{} {}", e.name(), self.endings[e as usize]))
                .collect();
            writeln!(f, "endings: {}", endings.join(", "))?;
            writeln!(
                f,
                "Chess960 starts: {} ({:.1}%)",
                self.chess960,
                share(self.chess960, self.games)
            )?;
        }
        let scored: u64 = self.scores.iter().sum();
        writeln!(f, "|score| of scored positions (white's view, centipawns):")?;
        let mut low = 0;
        for (i, &n) in self.scores.iter().enumerate() {
            let label = match SCORE_BINS.get(i) {
                Some(&top) if top == MATE_BOUND as i32 => format!("{low}+"),
                Some(&top) => format!("{low}-{}", top - 1),
                None => "mate".to_string(),
            };
            writeln!(f, "  {label:>10} {n:>12} {:5.1}%", share(n, scored))?;
            low = SCORE_BINS.get(i).copied().unwrap_or(0);
        }
        writeln!(
            f,
            "filter {}: keeps {} ({:.1}%)",
            self.filter,
            self.counts.kept,
            share(self.counts.kept, self.counts.total())
        )?;
        for reason in Skip::ALL {
            let n = self.counts.skipped[reason as usize];
            if n > 0 {
                writeln!(
                    f,
                    "  skips {:<20} {n:>12} {:5.1}%",
                    reason.name(),
                    share(n, self.counts.total())
                )?;
            }
        }
        for cut in &self.cut_short {
            writeln!(f, "cut short: {cut}")?;
        }
        Ok(())
    }
}
