//! `data stats` of visits files: what positions with root visit
//! distributions a set of files holds.

use super::byte_bar;
use super::stats::{results_line, share};
use crate::marlin::Wdl;
use crate::visits::{VisitReader, VisitRecord, VisitsCut, VisitsError};
use std::fmt;
use std::path::PathBuf;

/// The fewest, the most and the sum of a count over records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Spread {
    /// The fewest (0 when nothing was counted).
    pub min: u64,
    /// The most.
    pub max: u64,
    /// All together.
    pub sum: u64,
}

impl Spread {
    fn add(&mut self, n: u64, first: bool) {
        self.min = if first { n } else { self.min.min(n) };
        self.max = self.max.max(n);
        self.sum += n;
    }

    fn line(&self, count: u64) -> String {
        format!(
            "{:.1} on average, {} to {}",
            self.sum as f64 / count.max(1) as f64,
            self.min,
            self.max
        )
    }
}

/// What visits files hold.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct VisitStats {
    /// Files read.
    pub files: u64,
    /// Records (positions).
    pub records: u64,
    /// Games (runs of records with the same game number).
    pub games: u64,
    /// Root moves listed per record.
    pub moves: Spread,
    /// Visits per record (all its moves together).
    pub visits: Spread,
    /// How often the most visited move had this share of the record's
    /// visits: below 25 %, 25–50 %, 50–75 %, 75 % and more.
    pub top_share: [u64; 4],
    /// Position results (each position counts its game's result): black
    /// wins, draws, white wins.
    pub position_results: [u64; 3],
    /// Game results, by each game's first record.
    pub game_results: [u64; 3],
    /// The files that ended inside a record (counted up to it).
    pub cut_short: Vec<VisitsCut>,
}

impl VisitStats {
    fn add(&mut self, record: &VisitRecord, new_game: bool) {
        let result = record.result().unwrap_or(Wdl::Draw) as usize;
        let first = self.records == 0;
        self.records += 1;
        if new_game {
            self.games += 1;
            self.game_results[result] += 1;
        }
        self.position_results[result] += 1;
        let total = record.total_visits();
        self.moves.add(record.moves.len() as u64, first);
        self.visits.add(total, first);
        let top = record.most_visited().map_or(0, |m| m.visits as u64);
        let quarter = (4 * top / total.max(1)).min(3) as usize;
        self.top_share[quarter] += 1;
    }
}

/// Reads every record of the visits files `inputs` (each checked: framing,
/// checksum, every move legal and listed once) and counts what they hold.
/// A file that ends inside a record counts its whole records and is listed
/// in [`VisitStats::cut_short`].
///
/// # Errors
///
/// A file that is not a visits file, or a damaged record (named by file,
/// record and byte).
pub fn visit_stats(inputs: &[PathBuf], progress: bool) -> Result<VisitStats, VisitsError> {
    let mut readers = Vec::new();
    for path in inputs {
        readers.push(VisitReader::open(path)?.ending_at_cut());
    }
    let bar = byte_bar(readers.iter().map(VisitReader::len).sum(), progress);
    let mut stats = VisitStats::default();
    let mut record = VisitRecord::default();
    let mut done = 0;
    for mut reader in readers {
        stats.files += 1;
        let mut last_game = None;
        while let Some(at) = reader.read_into(&mut record)? {
            record.board().map_err(|e| reader.error_at(at, e))?;
            stats.add(&record, last_game != Some(record.game));
            last_game = Some(record.game);
            if stats.records % 1024 == 0 {
                bar.set_position(done + reader.offset());
            }
        }
        done += reader.len();
        stats.cut_short.extend(reader.cut_short().cloned());
    }
    bar.finish_and_clear();
    Ok(stats)
}

impl fmt::Display for VisitStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "files: {} visits-format", self.files)?;
        writeln!(f, "games: {}", self.games)?;
        writeln!(
            f,
            "positions: {}; per game {:.1} on average",
            self.records,
            self.records as f64 / self.games.max(1) as f64
        )?;
        writeln!(
            f,
            "root moves per position: {}",
            self.moves.line(self.records)
        )?;
        writeln!(f, "visits per position: {}", self.visits.line(self.records))?;
        let t = &self.top_share;
        writeln!(
            f,
            "most visited move's share: <25% {:.1}%, 25-50% {:.1}%, 50-75% {:.1}%, >=75% {:.1}%",
            share(t[0], self.records),
            share(t[1], self.records),
            share(t[2], self.records),
            share(t[3], self.records)
        )?;
        writeln!(f, "results by game: {}", results_line(&self.game_results))?;
        writeln!(
            f,
            "results by position: {}",
            results_line(&self.position_results)
        )?;
        for cut in &self.cut_short {
            writeln!(f, "cut short: {cut}")?;
        }
        Ok(())
    }
}
