//! Self-play data generation: games of the PVS searcher against itself at a
//! soft node limit, written as [marlinformat](crate::marlin) records.
//!
//! Each game starts from the start position (or a position of an opening
//! book) plus 8 or 9 random legal plies. A verification search throws the
//! opening away when it is already decided (|score| > 1000) and draws
//! another. Then the searcher plays both sides; a game ends by the rules
//! (mate, stalemate, repetition, fifty moves, insufficient material) or by
//! adjudication: a win once the score stays beyond ±2500 for a few plies, a
//! draw once it stays near 0 for many plies after move 40.
//!
//! Not every position is written: positions in check, positions whose best
//! move is a capture or a promotion (the score then reflects a tactic the
//! network cannot see statically) and mate scores are skipped. Every
//! written position carries its search score and the game's result.
//!
//! **Deterministic**: game number `i` of seed `s` depends only on `s` and
//! `i` (the searcher is cleared before each game and stops at node counts,
//! never at a clock), and games are written in number order whatever the
//! number of threads. **Resumable**: a small sidecar file (`FILE.progress`)
//! records, after every game written, the seed, the next game number and the
//! length of the data; a run that finds it truncates the data to that length
//! (dropping a record half-written by a killed process) and carries on.
//!
//! ```
//! use fianchetto_eval::Material;
//! use fianchetto_tune::datagen::{play_game, DatagenConfig};
//!
//! let config = DatagenConfig { soft_nodes: 300, ..DatagenConfig::default() };
//! let mut searcher = config.searcher(Material::classic());
//! let game = play_game(&mut searcher, &config, &[], 7, 0, None);
//! assert!(game.plies > 0);
//! for record in &game.records {
//!     let position = record.unpack()?;
//!     assert_eq!(position.wdl, game.result);
//! }
//! # Ok::<(), fianchetto_tune::marlin::DataError>(())
//! ```

use crate::marlin::{record_count, DataError, PackedBoard, Wdl, RECORD_SIZE};
use fianchetto_board::{Bitboards, Board, Color, FenError, Setup};
use fianchetto_eval::Evaluator;
use fianchetto_movegen::{Game, MoveGen, Outcome};
use fianchetto_search::pvs::{Pvs, PvsConfig};
use fianchetto_search::{Bound, Limits, Search};
use indicatif::{ProgressBar, ProgressStyle};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The parameters of self-play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatagenConfig {
    /// A search ends after the iteration during which it passed this many nodes.
    pub soft_nodes: u64,
    /// A search never goes beyond this many nodes.
    pub hard_nodes: u64,
    /// The fewest random plies played from the opening position.
    pub min_random_plies: u32,
    /// The most random plies played from the opening position.
    pub max_random_plies: u32,
    /// An opening whose verification score is beyond this (centipawns) is
    /// thrown away.
    pub max_opening_score: i32,
    /// A side is adjudicated the winner once the score stays at or beyond
    /// this (centipawns, its point of view) …
    pub win_score: i32,
    /// … for this many plies in a row.
    pub win_plies: u32,
    /// A game is adjudicated drawn once the score stays within ± this …
    pub draw_score: i32,
    /// … for this many plies in a row …
    pub draw_plies: u32,
    /// … after this move number.
    pub draw_after_move: u32,
    /// A game still running after this many plies is drawn (the 75-move
    /// rule would end it anyway; this bounds the work).
    pub max_plies: u32,
    /// The searcher's hash table in MB.
    pub hash_mb: usize,
}

impl Default for DatagenConfig {
    fn default() -> DatagenConfig {
        DatagenConfig {
            soft_nodes: 5_000,
            hard_nodes: 100_000,
            min_random_plies: 8,
            max_random_plies: 9,
            max_opening_score: 1_000,
            win_score: 2_500,
            win_plies: 4,
            draw_score: 10,
            draw_plies: 12,
            draw_after_move: 40,
            max_plies: 600,
            hash_mb: 16,
        }
    }
}

impl DatagenConfig {
    /// The searcher self-play uses: PVS, one thread, this config's hash.
    pub fn searcher<E>(&self, eval: E) -> Pvs<E> {
        Pvs::with_config(
            eval,
            PvsConfig {
                threads: 1,
                hash_mb: self.hash_mb,
                ..PvsConfig::default()
            },
        )
    }

    fn limits(&self) -> Limits {
        Limits::nodes(self.hard_nodes)
    }
}

/// One self-play game: the records it wrote and how it went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The positions kept, each with its score and the game's result.
    pub records: Vec<PackedBoard>,
    /// The result.
    pub result: Wdl,
    /// Plies played after the random opening.
    pub plies: u32,
    /// Openings thrown away as unbalanced (or ended) before this one.
    pub rejected_openings: u32,
    /// Whether the game ended by adjudication rather than by the rules.
    pub adjudicated: bool,
}

/// A search at the soft node limit: stops after the first complete
/// iteration that passed `config.soft_nodes`, or at the hard limit.
fn soft_search<E: Evaluator<Bitboards> + Clone>(
    pvs: &mut Pvs<E>,
    game: &Game<Bitboards>,
    config: &DatagenConfig,
) -> fianchetto_search::SearchResult {
    let limits = config.limits();
    let stop = limits.stop.clone();
    let soft = config.soft_nodes;
    pvs.search(game, &limits, &mut |info| {
        if info.bound == Bound::Exact && info.nodes >= soft {
            stop.store(true, Ordering::Relaxed);
        }
    })
}

/// The random generator of game `index` of `seed` (SplitMix64 of both, so
/// that neighbouring seeds and indices give unrelated games).
fn game_rng(seed: u64, index: u64) -> Xoshiro256PlusPlus {
    let mut z = seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    Xoshiro256PlusPlus::seed_from_u64(z ^ (z >> 31))
}

/// A uniformly drawn number below `n` (`n` > 0).
fn below(rng: &mut Xoshiro256PlusPlus, n: usize) -> usize {
    ((rng.next_u64() as u128 * n as u128) >> 64) as usize
}

/// Draws an opening: a book position (or the start) plus random plies, kept
/// only when a verification search finds it balanced.
fn opening<E: Evaluator<Bitboards> + Clone>(
    pvs: &mut Pvs<E>,
    config: &DatagenConfig,
    book: &[Setup],
    rng: &mut Xoshiro256PlusPlus,
) -> (Game<Bitboards>, u32) {
    let mut rejected = 0;
    loop {
        let start = if book.is_empty() {
            Bitboards::startpos()
        } else {
            // Book positions were validated when the book was read.
            Bitboards::from_setup(&book[below(rng, book.len())])
                .unwrap_or_else(|_| Bitboards::startpos())
        };
        let mut game = Game::new(start);
        let span = config
            .max_random_plies
            .saturating_sub(config.min_random_plies) as usize
            + 1;
        let plies = config.min_random_plies as usize + below(rng, span);
        let mut ok = true;
        for _ in 0..plies {
            let moves = game.board().legal_moves();
            if moves.is_empty() {
                ok = false;
                break;
            }
            game.play_unchecked(moves[below(rng, moves.len())]);
        }
        if ok && game.outcome_with_claims().is_none() {
            pvs.clear();
            let verdict = soft_search(pvs, &game, config);
            if verdict.best_move.is_some()
                && verdict.score.value().abs() <= config.max_opening_score
            {
                return (game, rejected);
            }
        }
        rejected += 1;
    }
}

/// The opening of game `index` of `seed`: the position self-play starts
/// from (after the random plies, verified balanced). What `genfens` prints
/// for OpenBench workers.
pub fn opening_position<E: Evaluator<Bitboards> + Clone>(
    pvs: &mut Pvs<E>,
    config: &DatagenConfig,
    book: &[Setup],
    seed: u64,
    index: u64,
) -> Bitboards {
    let mut rng = game_rng(seed, index);
    let (game, _) = opening(pvs, config, book, &mut rng);
    game.board().clone()
}

/// Plays game `index` of `seed` with `pvs` and returns the positions worth
/// keeping. `stop` (when given) abandons the game between moves; the
/// returned record then has no positions.
pub fn play_game<E: Evaluator<Bitboards> + Clone>(
    pvs: &mut Pvs<E>,
    config: &DatagenConfig,
    book: &[Setup],
    seed: u64,
    index: u64,
    stop: Option<&AtomicBool>,
) -> GameRecord {
    let mut rng = game_rng(seed, index);
    let (mut game, rejected_openings) = opening(pvs, config, book, &mut rng);
    pvs.clear();
    // Positions with their white-relative scores; the result is known last.
    let mut kept: Vec<(PackedBoard, i16)> = Vec::new();
    let mut plies = 0;
    let mut win_run = WinRun::default();
    let mut draw_run = 0u32;
    let mut adjudicated = false;
    let winner: Option<Color> = loop {
        if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            return GameRecord {
                records: Vec::new(),
                result: Wdl::Draw,
                plies,
                rejected_openings,
                adjudicated: false,
            };
        }
        if let Some(outcome) = game.outcome_with_claims() {
            break match outcome {
                Outcome::Decisive { winner, .. } => Some(winner),
                Outcome::Draw(_) => None,
            };
        }
        if plies >= config.max_plies {
            adjudicated = true;
            break None;
        }
        let result = soft_search(pvs, &game, config);
        let Some(best) = result.best_move else {
            // No legal move: the rules above end such games first.
            break None;
        };
        let board = game.board();
        let stm = board.turn();
        let white_score = if stm == Color::White {
            result.score
        } else {
            -result.score
        };
        if !board.in_check() && best.is_quiet() && !result.score.is_decisive() {
            let cp = white_score
                .value()
                .clamp(i16::MIN as i32 + 1, i16::MAX as i32) as i16;
            kept.push((PackedBoard::pack(board, cp, Wdl::Draw), cp));
        }

        // Win adjudication: the score stays decisive for one side.
        if let Some(l) = win_run.update(white_score.value(), config.win_score, config.win_plies) {
            adjudicated = true;
            break Some(l);
        }
        // Draw adjudication: a long quiet stretch late in the game.
        if board.fullmove_number() >= config.draw_after_move
            && white_score.value().abs() <= config.draw_score
        {
            draw_run += 1;
            if draw_run >= config.draw_plies {
                adjudicated = true;
                break None;
            }
        } else {
            draw_run = 0;
        }

        game.play_unchecked(best);
        plies += 1;
    };
    let result = Wdl::from_winner(winner);
    let records = kept
        .into_iter()
        .map(|(mut p, _)| {
            p.wdl = result as u8;
            p
        })
        .collect();
    GameRecord {
        records,
        result,
        plies,
        rejected_openings,
        adjudicated,
    }
}

/// How much to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Until the file holds this many positions.
    Positions(u64),
    /// Until this many games have been written to the file.
    Games(u64),
}

/// What went wrong in a data generation run.
#[derive(Debug, thiserror::Error)]
pub enum DatagenError {
    /// Reading or writing the output (or its sidecar) failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// The existing output is not a marlinformat file.
    #[error(transparent)]
    Data(#[from] DataError),
    /// The sidecar progress file is not one this program wrote.
    #[error("{path}: not a datagen progress file ({why}); move it away to start afresh")]
    Sidecar {
        /// The sidecar.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// A line of the opening book is not a position.
    #[error("{path}:{line}: {source}")]
    Book {
        /// The book.
        path: PathBuf,
        /// The line number (1 = first).
        line: usize,
        /// Why it is not a position.
        source: FenError,
    },
    /// The opening book holds no position.
    #[error("{0}: the opening book holds no position")]
    EmptyBook(PathBuf),
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> DatagenError + '_ {
    move |source| DatagenError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Reads an opening book: one FEN or EPD position per line (EPD operations
/// after the fourth field are ignored; blank lines and `#` comments skipped).
pub fn read_book(path: &Path) -> Result<Vec<Setup>, DatagenError> {
    let text = std::fs::read_to_string(path).map_err(io_err(path))?;
    let mut book = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let fen = if fields.len() >= 6 && fields[4].parse::<u32>().is_ok() {
            fields[..6].join(" ")
        } else {
            fields[..fields.len().min(4)].join(" ")
        };
        let setup = Setup::from_fen(&fen).and_then(|s| {
            fianchetto_board::validate(&s)?;
            Ok(s)
        });
        book.push(setup.map_err(|source| DatagenError::Book {
            path: path.to_path_buf(),
            line: i + 1,
            source,
        })?);
    }
    if book.is_empty() {
        return Err(DatagenError::EmptyBook(path.to_path_buf()));
    }
    Ok(book)
}

/// The sidecar's content: where a run stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
struct Progress {
    seed: u64,
    next_game: u64,
    bytes: u64,
    games: u64,
}

const SIDECAR_MAGIC: &str = "fianchetto-datagen 1";

impl Progress {
    fn path(out: &Path) -> PathBuf {
        let mut name = out.as_os_str().to_owned();
        name.push(".progress");
        PathBuf::from(name)
    }

    fn read(path: &Path) -> Result<Option<Progress>, DatagenError> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(io_err(path)(e)),
        };
        let bad = |why: &str| DatagenError::Sidecar {
            path: path.to_path_buf(),
            why: why.to_string(),
        };
        let mut lines = text.lines();
        if lines.next() != Some(SIDECAR_MAGIC) {
            return Err(bad("first line is not the datagen header"));
        }
        let mut p = Progress::default();
        let mut seen = 0;
        for line in lines {
            let (key, value) = line
                .split_once(' ')
                .ok_or_else(|| bad("a line without a value"))?;
            let value: u64 = value
                .parse()
                .map_err(|_| bad("a value that is not a number"))?;
            match key {
                "seed" => p.seed = value,
                "next_game" => p.next_game = value,
                "bytes" => p.bytes = value,
                "games" => p.games = value,
                _ => return Err(bad("an unknown key")),
            }
            seen += 1;
        }
        if seen != 4 {
            return Err(bad("missing keys"));
        }
        Ok(Some(p))
    }

    /// Writes the sidecar atomically (a temporary file renamed over it).
    fn write(&self, path: &Path) -> Result<(), DatagenError> {
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        std::fs::write(
            &tmp,
            format!(
                "{SIDECAR_MAGIC}\nseed {}\nnext_game {}\nbytes {}\ngames {}\n",
                self.seed, self.next_game, self.bytes, self.games
            ),
        )
        .map_err(io_err(&tmp))?;
        std::fs::rename(&tmp, path).map_err(io_err(path))
    }
}

/// A data generation run's parameters besides the search config.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The output file (created, or resumed / appended to).
    pub out: PathBuf,
    /// When to stop.
    pub target: Target,
    /// Worker threads.
    pub threads: usize,
    /// The seed: game `i` of seed `s` is always the same game.
    pub seed: u64,
    /// Openings (empty: the start position).
    pub book: Vec<Setup>,
    /// Draw a progress bar on standard error.
    pub progress: bool,
}

/// What a run did.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Summary {
    /// Games written by this run.
    pub games: u64,
    /// Positions written by this run.
    pub positions: u64,
    /// Positions in the file now.
    pub total_positions: u64,
    /// Games ended by adjudication.
    pub adjudicated: u64,
    /// Openings thrown away as unbalanced.
    pub rejected_openings: u64,
    /// Results of the games written: black wins, draws, white wins.
    pub results: [u64; 3],
    /// Seconds the run took.
    pub seconds: f64,
}

/// Generates data into `opts.out` until the target is reached or `stop` is
/// raised (Ctrl-C), with `opts.threads` searchers built from `eval`.
///
/// Games in flight when `stop` is raised are dropped; every game already
/// written stays, and so does the sidecar that lets the next run resume.
pub fn run<E: Evaluator<Bitboards> + Clone + Send>(
    config: &DatagenConfig,
    eval: E,
    opts: &RunOptions,
    stop: &AtomicBool,
) -> Result<Summary, DatagenError> {
    let started = Instant::now();
    let sidecar = Progress::path(&opts.out);
    let previous = Progress::read(&sidecar)?;
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&opts.out)
        .map_err(io_err(&opts.out))?;
    let len = file.metadata().map_err(io_err(&opts.out))?.len();
    let mut progress = match previous {
        // Resume: drop whatever a killed run wrote after its last whole game.
        Some(p) if p.bytes <= len => {
            if p.bytes < len {
                file.set_len(p.bytes).map_err(io_err(&opts.out))?;
            }
            if p.seed == opts.seed {
                p
            } else {
                // Appending under another seed starts at its first game.
                Progress {
                    seed: opts.seed,
                    next_game: 0,
                    ..p
                }
            }
        }
        Some(_) => {
            return Err(DatagenError::Sidecar {
                path: sidecar,
                why: format!("it records more bytes than {} holds", opts.out.display()),
            })
        }
        // A file without a sidecar (another tool's data): append to it,
        // provided it is whole records.
        None => {
            record_count(&opts.out)?;
            Progress {
                seed: opts.seed,
                next_game: 0,
                bytes: len,
                games: 0,
            }
        }
    };
    progress.write(&sidecar)?;

    let positions_now = |p: &Progress| p.bytes / RECORD_SIZE as u64;
    let done = |p: &Progress| match opts.target {
        Target::Positions(n) => positions_now(p) >= n,
        Target::Games(n) => p.games >= n,
    };
    let mut summary = Summary {
        total_positions: positions_now(&progress),
        ..Summary::default()
    };
    if done(&progress) {
        return Ok(summary);
    }

    let bar = if opts.progress {
        let (len, pos, unit) = match opts.target {
            Target::Positions(n) => (n, positions_now(&progress), "positions"),
            Target::Games(n) => (n, progress.games, "games"),
        };
        let bar = ProgressBar::new(len).with_position(pos);
        bar.set_style(
            ProgressStyle::with_template(&format!(
                "{{bar:40}} {{human_pos}}/{{human_len}} {unit} {{per_sec}} ETA {{eta}} {{msg}}"
            ))
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.reset_eta();
        bar
    } else {
        ProgressBar::hidden()
    };

    let next = AtomicU64::new(progress.next_game);
    let quit = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(u64, GameRecord)>();
    let outcome = std::thread::scope(|s| -> Result<(), DatagenError> {
        for _ in 0..opts.threads.max(1) {
            let tx = tx.clone();
            let eval = eval.clone();
            let (next, quit) = (&next, &quit);
            s.spawn(move || {
                let mut pvs = config.searcher(eval);
                while !quit.load(Ordering::Relaxed) {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let game =
                        play_game(&mut pvs, config, &opts.book, opts.seed, index, Some(quit));
                    if quit.load(Ordering::Relaxed) || tx.send((index, game)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut pending: BTreeMap<u64, GameRecord> = BTreeMap::new();
        let mut buffer = Vec::new();
        let result = (|| {
            loop {
                // Wake up now and then to pass a Ctrl-C on to the workers.
                let (index, game) = match rx.recv_timeout(Duration::from_millis(100)) {
                    Ok(got) => got,
                    Err(mpsc::RecvTimeoutError::Timeout) if !stop.load(Ordering::Relaxed) => {
                        continue
                    }
                    Err(_) => return Ok(()),
                };
                pending.insert(index, game);
                // Write every game that is next in order.
                while let Some(game) = pending.remove(&progress.next_game) {
                    buffer.clear();
                    for r in &game.records {
                        buffer.extend_from_slice(&r.to_bytes());
                    }
                    file.write_all(&buffer).map_err(io_err(&opts.out))?;
                    file.flush().map_err(io_err(&opts.out))?;
                    progress.next_game += 1;
                    progress.games += 1;
                    progress.bytes += buffer.len() as u64;
                    progress.write(&sidecar)?;
                    summary.games += 1;
                    summary.positions += game.records.len() as u64;
                    summary.adjudicated += game.adjudicated as u64;
                    summary.rejected_openings += game.rejected_openings as u64;
                    summary.results[game.result as usize] += 1;
                    summary.total_positions = positions_now(&progress);
                    bar.set_position(match opts.target {
                        Target::Positions(_) => positions_now(&progress),
                        Target::Games(_) => progress.games,
                    });
                    bar.set_message(format!(
                        "| {} games, +{} -{} ={}",
                        summary.games,
                        summary.results[Wdl::WhiteWin as usize],
                        summary.results[Wdl::BlackWin as usize],
                        summary.results[Wdl::Draw as usize]
                    ));
                    if done(&progress) {
                        return Ok(());
                    }
                }
                if stop.load(Ordering::Relaxed) {
                    return Ok(());
                }
            }
        })();
        quit.store(true, Ordering::Relaxed);
        // Let the workers finish their current search and exit.
        drop(rx);
        result
    });
    bar.finish_and_clear();
    outcome?;
    summary.seconds = started.elapsed().as_secs_f64();
    Ok(summary)
}

/// A one-line description of a finished run.
impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let per_s = |n: u64| n as f64 / self.seconds.max(1e-9);
        write!(
            f,
            "{} games, {} positions ({} in the file) in {:.1} s: {:.1} positions/s, {:.2} games/s; \
             white +{} black +{} draws {}; {} adjudicated; {} openings rejected",
            self.games,
            self.positions,
            self.total_positions,
            self.seconds,
            per_s(self.positions),
            per_s(self.games),
            self.results[Wdl::WhiteWin as usize],
            self.results[Wdl::BlackWin as usize],
            self.results[Wdl::Draw as usize],
            self.adjudicated,
            self.rejected_openings
        )
    }
}

/// Win adjudication shared by self-play and matches: counts the plies in a
/// row in which the score (white's point of view) stays decisive for the
/// same side.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct WinRun {
    leader: Option<Color>,
    plies: u32,
}

impl WinRun {
    /// Records one ply's score; returns the winner once the score has been
    /// at least `win_score` for the same side `win_plies` plies in a row.
    pub(crate) fn update(
        &mut self,
        white_score: i32,
        win_score: i32,
        win_plies: u32,
    ) -> Option<Color> {
        let leader = if white_score >= win_score {
            Some(Color::White)
        } else if white_score <= -win_score {
            Some(Color::Black)
        } else {
            None
        };
        self.plies = match leader {
            Some(l) if self.leader == Some(l) => self.plies + 1,
            Some(_) => 1,
            None => 0,
        };
        self.leader = leader;
        leader.filter(|_| self.plies >= win_plies)
    }
}
