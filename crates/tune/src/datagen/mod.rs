//! Self-play data generation: games of the PVS searcher against itself at a
//! soft node limit, written whole in the [games format](fianchetto_data::games) (or,
//! filtered, as [marlinformat](fianchetto_data::marlin) records).
//!
//! Each game starts from the start position, a Chess960 start (a share of
//! the games; both sides alike, or each its own arrangement: "double
//! Fischer random") or a position of an opening book, plus 8 or 9 random
//! legal plies. The game's first search doubles as the opening's check: an
//! opening already decided (|score| > 1000) is thrown away and another
//! drawn. Then the searcher plays both sides; a game ends by the rules
//! (mate, stalemate, repetition, fifty moves, insufficient material) or by
//! adjudication: a win once the score stays beyond ±2500 for a few plies, a
//! draw once it stays near 0 for many plies after move 40, or, with Syzygy
//! tables, the tables' result as soon as a capture reaches a position they
//! hold.
//!
//! In the games format every searched position is kept, with the move
//! played and its score: which are training positions is decided when the
//! data is read ([`Filter`]). In marlinformat the default filter is
//! applied as the game is written (no position in check, none whose best
//! move captures or promotes, no mate scores).
//!
//! **MCTS self-play** ([`run_with`] and an [`Mcts`](fianchetto_search::mcts::Mcts)
//! searcher, [`Format::Visits`]) plays the same openings, game loop and
//! adjudication with MCTS at a fixed playout budget instead of PVS, and
//! writes every searched position with its root visit distribution in the
//! [visits format](fianchetto_data::visits): the policy network's targets.
//! The move played is the search's own choice, its most visited root move
//! (or a win its solver proved); the variety between games comes from the random opening plies, as for
//! PVS. A position whose search gave no visits (a single legal move, a root
//! decided at once) is not written.
//!
//! **Deterministic**: game number `i` of seed `s` depends only on `s` and
//! `i` (the searcher is cleared before each game and stops at node counts,
//! never at a clock), and games are written in number order whatever the
//! number of threads. **Resumable**: a small sidecar file (`FILE.progress`)
//! records, after every game written, the seed, the next game number and the
//! length of the data; a run that finds it truncates the data to that length
//! (dropping a game half-written by a killed process) and carries on. A
//! games file without a sidecar loses only a half-written last game.
//!
//! ```
//! use fianchetto_eval::Material;
//! use fianchetto_tune::datagen::{play_game, DatagenConfig};
//! use fianchetto_data::games::Filter;
//!
//! let config = DatagenConfig { soft_nodes: 300, ..DatagenConfig::default() };
//! let mut searcher = config.searcher(Material::classic());
//! let played = play_game(&mut searcher, &config, &[], None, 7, 0, None);
//! assert!(!played.game.entries.is_empty());
//! for record in played.records(&Filter::default())? {
//!     assert_eq!(record.unpack()?.wdl, played.game.result);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use fianchetto_board::{Bitboards, Board, Color, FenError, Setup};
use fianchetto_data::games::{self, Filter, FilterCounts, GameError, GamesError};
use fianchetto_data::marlin::{record_count, DataError, Wdl, RECORD_SIZE};
use fianchetto_data::visits::{self, VisitError, VisitRecord, VisitsError};
use fianchetto_eval::Evaluator;
use fianchetto_search::pvs::{Pvs, PvsConfig};
use fianchetto_search::Limits;
use fianchetto_syzygy::Tablebase;
use fianchetto_uci::matches::{Adjudication, PlyOrigin};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

mod selfplay;

pub use selfplay::{opening_position, play_game, PlayedGame, SelfPlaySearch};

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
    /// Games (per thousand) that start from a Chess960 position instead of
    /// the start position or the book.
    pub chess960_permille: u32,
    /// Chess960 starts give each side its own arrangement (double Fischer
    /// random) instead of mirrored ones.
    pub dfrc: bool,
    /// An opening whose first search scores beyond this (centipawns) is
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
    /// The searcher's hash table in MB. Searches of a few thousand nodes
    /// fill a small fraction of a megabyte, and a table that stays in the
    /// CPU's caches is faster: at 1 000 nodes a 1 MB table gave 30 % more
    /// positions per CPU-second than 16 MB, at 5 000 nodes about 10 %.
    pub hash_mb: usize,
}

impl Default for DatagenConfig {
    fn default() -> DatagenConfig {
        DatagenConfig {
            soft_nodes: 5_000,
            hard_nodes: 100_000,
            min_random_plies: 8,
            max_random_plies: 9,
            chess960_permille: 0,
            dfrc: false,
            max_opening_score: 1_000,
            win_score: 2_500,
            win_plies: 4,
            draw_score: 10,
            draw_plies: 12,
            draw_after_move: 40,
            max_plies: 600,
            hash_mb: 1,
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

    /// The game loop's adjudication for a game from `opening`: this
    /// config's win and draw rules (the draw counted from move
    /// `draw_after_move` of the game) and its ply cap (counted from the
    /// opening). The score rules also judge a game's last move: a move that
    /// ends the game by the rules after a decisive or quiet stretch is
    /// recorded as adjudicated, as self-play data always was.
    pub fn adjudication(&self, opening: &Bitboards) -> Adjudication {
        // The opening's ply in the game, as its move number says.
        let ply = 2 * opening.fullmove_number().saturating_sub(1)
            + u32::from(opening.turn() == Color::Black);
        Adjudication {
            resign_score: self.win_score,
            resign_plies: self.win_plies,
            // The moves of move `draw_after_move` on: white's is ply 2n - 1.
            draw_from_ply: (2 * self.draw_after_move).saturating_sub(1),
            draw_score: self.draw_score,
            draw_plies: self.draw_plies,
            max_plies: self.max_plies.saturating_add(ply),
            ply_origin: PlyOrigin::GameStart,
            scores_first: true,
        }
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

/// The file format a run writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    /// Whole games, every position ([`fianchetto_data::games`]); filtered when read.
    #[default]
    Games,
    /// One 32-byte record per training position ([`fianchetto_data::marlin`]), the
    /// default [`Filter`] applied as it is written.
    Marlin,
    /// Every searched position with its root visits
    /// ([`fianchetto_data::visits`]): for a searcher that has them (MCTS).
    Visits,
}

impl Format {
    /// The format's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Format::Games => "games-format",
            Format::Marlin => "marlinformat",
            Format::Visits => "visits-format",
        }
    }
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
    /// The existing output is not a whole marlinformat file.
    #[error(transparent)]
    Data(#[from] DataError),
    /// The existing output is a damaged games file.
    #[error(transparent)]
    Games(#[from] GamesError),
    /// The existing output is a damaged visits file.
    #[error(transparent)]
    VisitsFile(#[from] VisitsError),
    /// A position's root visits could not be written.
    #[error("{path}: {source}")]
    Visits {
        /// The file.
        path: PathBuf,
        /// What is wrong with the record.
        source: VisitError,
    },
    /// The visits format asked of a searcher that gives no root visits.
    #[error("{0}: the visits format needs a searcher with root visits (MCTS); PVS writes games or marlinformat")]
    NoVisits(PathBuf),
    /// The existing output is of the other format.
    #[error("{path} holds {found} data but the run writes {wanted}; choose that format (--format, or --mcts for visits) or another --out")]
    FormatMismatch {
        /// The file.
        path: PathBuf,
        /// What it holds.
        found: &'static str,
        /// What the run writes.
        wanted: &'static str,
    },
    /// A game could not be written (more plies than the format holds:
    /// impossible with `max_plies` ≤ 65 535).
    #[error("{path}: {source}")]
    Game {
        /// The file.
        path: PathBuf,
        /// What is wrong with the game.
        source: GameError,
    },
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
    /// Positions in the file (absent from sidecars of marlinformat runs
    /// before the games format: then `bytes / 32`).
    positions: u64,
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
        let mut positions = None;
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
                "positions" => {
                    positions = Some(value);
                    continue;
                }
                _ => return Err(bad("an unknown key")),
            }
            seen += 1;
        }
        if seen != 4 {
            return Err(bad("missing keys"));
        }
        p.positions = positions.unwrap_or(p.bytes / RECORD_SIZE as u64);
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
                "{SIDECAR_MAGIC}\nseed {}\nnext_game {}\nbytes {}\ngames {}\npositions {}\n",
                self.seed, self.next_game, self.bytes, self.games, self.positions
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
    /// What it is written in.
    pub format: Format,
    /// When to stop.
    pub target: Target,
    /// Worker threads.
    pub threads: usize,
    /// The seed: game `i` of seed `s` is always the same game.
    pub seed: u64,
    /// Openings (empty: the start position).
    pub book: Vec<Setup>,
    /// Endgame tables that end a game as soon as it reaches a position they
    /// hold (with their exact result).
    pub tablebase: Option<Arc<Tablebase>>,
    /// Draw a progress bar on standard error.
    pub progress: bool,
}

/// What a run did.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Summary {
    /// Games written by this run.
    pub games: u64,
    /// Positions searched (plies played after the openings) by this run.
    pub plies: u64,
    /// Nodes searched by this run.
    pub nodes: u64,
    /// Positions written by this run (games format: every searched
    /// position; marlinformat: those the default filter keeps).
    pub positions: u64,
    /// Positions in the file now.
    pub total_positions: u64,
    /// Games ended by adjudication.
    pub adjudicated: u64,
    /// Openings thrown away as unbalanced.
    pub rejected_openings: u64,
    /// Games that started from a Chess960 position.
    pub chess960: u64,
    /// Results of the games written: black wins, draws, white wins.
    pub results: [u64; 3],
    /// Seconds the run took.
    pub seconds: f64,
}

/// Opens (or creates) the output and finds where the run stands: a sidecar
/// is trusted (and the file cut back to its length), a file without one is
/// checked and appended to.
fn open_output(
    opts: &RunOptions,
    sidecar: &Path,
) -> Result<(std::fs::File, Progress), DatagenError> {
    let out = &opts.out;
    let previous = Progress::read(sidecar)?;
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .map_err(io_err(out))?;
    let len = file.metadata().map_err(io_err(out))?.len();
    let found = if len == 0 {
        opts.format
    } else if games::GameReader::is_games_file(out).map_err(io_err(out))? {
        Format::Games
    } else if visits::VisitReader::is_visits_file(out).map_err(io_err(out))? {
        Format::Visits
    } else {
        Format::Marlin
    };
    if found != opts.format {
        return Err(DatagenError::FormatMismatch {
            path: out.clone(),
            found: found.name(),
            wanted: opts.format.name(),
        });
    }
    let progress = match previous {
        // Resume: drop whatever a killed run wrote after its last whole game.
        Some(p) if p.bytes <= len => {
            if p.bytes < len {
                file.set_len(p.bytes).map_err(io_err(out))?;
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
                path: sidecar.to_path_buf(),
                why: format!("it records more bytes than {} holds", out.display()),
            })
        }
        // A file without a sidecar (another tool's data, or a copy): append
        // to it, provided it is whole records or whole games.
        // A visits file's games are counted, so that the game numbers of
        // the games appended follow its last.
        None => {
            let (bytes, positions, games) = if len == 0 {
                (0, 0, 0)
            } else {
                match found {
                    Format::Games => {
                        let repair = games::repair_tail(out)?;
                        (repair.len, repair.positions, 0)
                    }
                    Format::Visits => {
                        let repair = visits::repair_tail(out)?;
                        let next = repair.last_game.map_or(0, |g| g as u64 + 1);
                        (repair.len, repair.records, next)
                    }
                    Format::Marlin => (len, record_count(out)?, 0),
                }
            };
            Progress {
                seed: opts.seed,
                next_game: 0,
                bytes,
                games,
                positions,
            }
        }
    };
    Ok((file, progress))
}

/// Generates data into `opts.out` until the target is reached or `stop` is
/// raised (Ctrl-C), with `opts.threads` PVS searchers built from `eval`.
///
/// Games in flight when `stop` is raised are dropped; every game already
/// written stays, and so does the sidecar that lets the next run resume.
pub fn run<E: Evaluator<Bitboards> + Clone + Send>(
    config: &DatagenConfig,
    eval: E,
    opts: &RunOptions,
    stop: &AtomicBool,
) -> Result<Summary, DatagenError> {
    run_with(config, opts, stop, || config.searcher(eval.clone()))
}

/// [`run`] with the searchers `searcher` makes, one per thread (made on
/// the calling thread): PVS as [`run`] makes it, or MCTS for
/// [`Format::Visits`] (see the [module documentation](self)).
pub fn run_with<S: SelfPlaySearch + Send>(
    config: &DatagenConfig,
    opts: &RunOptions,
    stop: &AtomicBool,
    mut searcher: impl FnMut() -> S,
) -> Result<Summary, DatagenError> {
    let started = Instant::now();
    let sidecar = Progress::path(&opts.out);
    let (mut file, mut progress) = open_output(opts, &sidecar)?;
    if progress.bytes == 0 {
        let header = match opts.format {
            Format::Games => &games::header()[..],
            Format::Visits => &visits::header()[..],
            Format::Marlin => &[],
        };
        file.write_all(header).map_err(io_err(&opts.out))?;
        progress.bytes = header.len() as u64;
    }
    progress.write(&sidecar)?;

    let done = |p: &Progress| match opts.target {
        Target::Positions(n) => p.positions >= n,
        Target::Games(n) => p.games >= n,
    };
    let mut summary = Summary {
        total_positions: progress.positions,
        ..Summary::default()
    };
    if done(&progress) {
        return Ok(summary);
    }

    let bar = if opts.progress {
        let (len, pos, unit) = match opts.target {
            Target::Positions(n) => (n, progress.positions, "positions"),
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
    let (tx, rx) = mpsc::channel::<(u64, PlayedGame)>();
    let outcome = std::thread::scope(|s| -> Result<(), DatagenError> {
        for _ in 0..opts.threads.max(1) {
            let tx = tx.clone();
            let mut searcher = searcher();
            let (next, quit) = (&next, &quit);
            s.spawn(move || {
                while !quit.load(Ordering::Relaxed) {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let game = play_game(
                        &mut searcher,
                        config,
                        &opts.book,
                        opts.tablebase.as_deref(),
                        opts.seed,
                        index,
                        Some(quit),
                    );
                    if quit.load(Ordering::Relaxed) || tx.send((index, game)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut pending: BTreeMap<u64, PlayedGame> = BTreeMap::new();
        let mut buffer = Vec::new();
        let mut records = Vec::new();
        // Writes a game, numbered `number`; returns its positions and bytes.
        let mut write = |played: &PlayedGame, number: u64| -> Result<(u64, u64), DatagenError> {
            buffer.clear();
            let positions = match opts.format {
                Format::Visits => write_visits(played, number as u32, &mut buffer, &opts.out)?,
                Format::Games => {
                    played
                        .game
                        .write_to(&mut buffer)
                        .map_err(|source| DatagenError::Game {
                            path: opts.out.clone(),
                            source,
                        })?;
                    played.game.entries.len() as u64
                }
                Format::Marlin => {
                    records.clear();
                    played
                        .game
                        .expand(
                            &Filter::default(),
                            &mut records,
                            &mut FilterCounts::default(),
                        )
                        .map_err(|source| DatagenError::Game {
                            path: opts.out.clone(),
                            source,
                        })?;
                    for r in &records {
                        buffer.extend_from_slice(&r.to_bytes());
                    }
                    records.len() as u64
                }
            };
            file.write_all(&buffer).map_err(io_err(&opts.out))?;
            file.flush().map_err(io_err(&opts.out))?;
            Ok((positions, buffer.len() as u64))
        };
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
                while let Some(played) = pending.remove(&progress.next_game) {
                    let (positions, bytes) = write(&played, progress.games)?;
                    progress.next_game += 1;
                    progress.games += 1;
                    progress.bytes += bytes;
                    progress.positions += positions;
                    progress.write(&sidecar)?;
                    summary.games += 1;
                    summary.plies += played.game.entries.len() as u64;
                    summary.nodes += played.nodes;
                    summary.positions += positions;
                    summary.adjudicated += played.adjudicated() as u64;
                    summary.rejected_openings += played.rejected_openings as u64;
                    summary.chess960 += played.game.chess960 as u64;
                    summary.results[played.game.result as usize] += 1;
                    summary.total_positions = progress.positions;
                    bar.set_position(match opts.target {
                        Target::Positions(_) => progress.positions,
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

/// Appends to `out` the visits records of `played`, numbered `number`:
/// each searched position with its score, the game's result and its root
/// visits, except those whose search gave none. Returns the records.
fn write_visits(
    played: &PlayedGame,
    number: u32,
    out: &mut Vec<u8>,
    path: &Path,
) -> Result<u64, DatagenError> {
    let game = &played.game;
    let none = !game.entries.is_empty() && played.visits.iter().all(Vec::is_empty);
    if none || played.visits.len() != game.entries.len() {
        return Err(DatagenError::NoVisits(path.to_path_buf()));
    }
    let mut records = 0;
    let mut failed = None;
    let mut record = VisitRecord::default();
    game.replay(|index, board, entry| {
        let visits = &played.visits[index];
        if failed.is_some() || visits.iter().all(|&(_, n)| n == 0) {
            return;
        }
        let written = VisitRecord::from_counts(
            board,
            number,
            entry.score,
            game.result,
            visits.iter().copied(),
        )
        .and_then(|r| {
            record = r;
            record.board()?;
            record.write_to(out)
        });
        match written {
            Ok(()) => records += 1,
            Err(e) => failed = Some(e),
        }
    })
    .map_err(|source| DatagenError::Game {
        path: path.to_path_buf(),
        source,
    })?;
    match failed {
        Some(source) => Err(DatagenError::Visits {
            path: path.to_path_buf(),
            source,
        }),
        None => Ok(records),
    }
}

/// A one-line description of a finished run.
impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let per_s = |n: u64| n as f64 / self.seconds.max(1e-9);
        write!(
            f,
            "{} games, {} plies searched ({} nodes), {} positions written ({} in the file) in {:.1} s: \
             {:.1} plies/s, {:.2} games/s, {:.0} nodes/s; white +{} black +{} draws {}; \
             {} adjudicated; {} from Chess960 starts; {} openings rejected",
            self.games,
            self.plies,
            self.nodes,
            self.positions,
            self.total_positions,
            self.seconds,
            per_s(self.plies),
            per_s(self.games),
            per_s(self.nodes),
            self.results[Wdl::WhiteWin as usize],
            self.results[Wdl::BlackWin as usize],
            self.results[Wdl::Draw as usize],
            self.adjudicated,
            self.chess960,
            self.rejected_openings
        )
    }
}
