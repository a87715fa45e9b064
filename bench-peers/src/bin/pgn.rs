//! PGN reading with fianchetto-movegen against pgn-reader + shakmaty, the
//! fastest Rust PGN reader, on the same file and the same work: every game
//! read, every SAN move resolved and played, variations too (each from the
//! position before the move it replaces) unless `--skip-variations`. Both
//! read the file through their own buffering, in this process, in turn; the
//! best of `--runs` by the thread's CPU time counts.
//!
//! `cargo run --release --bin pgn -- FILE [--runs N] [--skip-variations]`

use fianchetto_bench_peers::{runs, thread_cpu_time};
use std::fs::File;
use std::ops::ControlFlow;
use std::process::ExitCode;

/// Games and main-line plies read, and games with an error.
#[derive(Debug, Default)]
struct Counts {
    games: u64,
    plies: u64,
    errors: u64,
}

fn fianchetto(path: &str, variations: bool) -> std::io::Result<Counts> {
    use fianchetto_board::Bitboards;
    use fianchetto_movegen::pgn::{ReadError, Reader, Replay};
    let mut reader = Reader::new(File::open(path)?);
    let mut replay = Replay::<Bitboards>::new().check_variations(variations);
    let mut counts = Counts::default();
    loop {
        match reader.read_game(&mut replay) {
            Ok(Some(game)) => counts.plies += u64::from(game.plies),
            Ok(None) => break,
            Err(ReadError::Game(_)) => counts.errors += 1,
            Err(e) => return Err(std::io::Error::other(e.to_string())),
        }
    }
    counts.games = reader.games_read();
    Ok(counts)
}

/// The pgn-reader visitor: a stack of lines, each with its position and the
/// position before its last move (where a variation starts).
struct Peer {
    variations: bool,
    lines: Vec<PeerLine>,
    plies: u64,
    error: bool,
}

struct PeerLine {
    before: shakmaty_pgn::Chess,
    now: shakmaty_pgn::Chess,
}

impl pgn_reader::Visitor for Peer {
    type Tags = ();
    type Movetext = ();
    type Output = (u64, bool);

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _: ()) -> ControlFlow<Self::Output, Self::Movetext> {
        let start = shakmaty_pgn::Chess::default();
        self.lines.clear();
        self.lines.push(PeerLine {
            before: start.clone(),
            now: start,
        });
        self.plies = 0;
        self.error = false;
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _: &mut ()) -> ControlFlow<Self::Output, pgn_reader::Skip> {
        if !self.variations {
            return ControlFlow::Continue(pgn_reader::Skip(true));
        }
        let Some(parent) = self.lines.last() else {
            return ControlFlow::Continue(pgn_reader::Skip(true));
        };
        let start = parent.before.clone();
        self.lines.push(PeerLine {
            before: start.clone(),
            now: start,
        });
        ControlFlow::Continue(pgn_reader::Skip(false))
    }

    fn end_variation(&mut self, _: &mut ()) -> ControlFlow<Self::Output> {
        if self.variations && self.lines.len() > 1 {
            self.lines.pop();
        }
        ControlFlow::Continue(())
    }

    fn san(&mut self, _: &mut (), san: pgn_reader::SanPlus) -> ControlFlow<Self::Output> {
        use shakmaty_pgn::Position;
        let main = self.lines.len() == 1;
        let Some(line) = self.lines.last_mut() else {
            return ControlFlow::Continue(());
        };
        match san.san.to_move(&line.now) {
            Ok(mv) => {
                let mut next = line.now.clone();
                next.play_unchecked(mv);
                line.before = std::mem::replace(&mut line.now, next);
                if main {
                    self.plies += 1;
                }
            }
            Err(_) => self.error = true,
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _: ()) -> Self::Output {
        (self.plies, self.error)
    }
}

fn pgn_reader(path: &str, variations: bool) -> std::io::Result<Counts> {
    let mut reader = pgn_reader::Reader::new(File::open(path)?);
    let mut peer = Peer {
        variations,
        lines: Vec::new(),
        plies: 0,
        error: false,
    };
    let mut counts = Counts::default();
    while let Some((plies, error)) = reader.read_game(&mut peer)? {
        counts.games += 1;
        counts.plies += plies;
        counts.errors += u64::from(error);
    }
    Ok(counts)
}

type Read = fn(&str, bool) -> std::io::Result<Counts>;

const READERS: [(&str, Read); 2] = [
    ("fianchetto", fianchetto),
    ("pgn-reader + shakmaty", pgn_reader),
];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let variations = !args.iter().any(|a| a == "--skip-variations");
    let runs = runs(&args, 5);
    let Some(path) = args
        .iter()
        .enumerate()
        .find(|&(i, a)| !a.starts_with("--") && (i == 0 || args[i - 1] != "--runs"))
        .map(|(_, a)| a.as_str())
    else {
        eprintln!("usage: pgn FILE [--runs N] [--skip-variations]");
        return ExitCode::FAILURE;
    };
    let megabytes = match std::fs::metadata(path) {
        Ok(m) => m.len() as f64 / 1e6,
        Err(e) => {
            eprintln!("cannot read {path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let what = if variations {
        "main lines and variations"
    } else {
        "main lines"
    };
    println!("{path}: {megabytes:.1} MB, {what} played, thread CPU time, best of {runs}");
    let mut best = [f64::INFINITY; READERS.len()];
    let mut counts: [Counts; READERS.len()] = Default::default();
    for _ in 0..runs {
        for (i, &(name, read)) in READERS.iter().enumerate() {
            let start = thread_cpu_time();
            let found = match read(path, variations) {
                Ok(found) => found,
                Err(e) => {
                    eprintln!("{name} cannot read {path}: {e}");
                    return ExitCode::FAILURE;
                }
            };
            best[i] = best[i].min((thread_cpu_time() - start).as_secs_f64());
            counts[i] = found;
        }
    }
    println!("| reader | games | plies | errors | CPU time | MB/s |");
    println!("|---|---:|---:|---:|---:|---:|");
    for (i, (name, _)) in READERS.iter().enumerate() {
        let c = &counts[i];
        println!(
            "| {name} | {} | {} | {} | {:.0} ms | {:.0} |",
            c.games,
            c.plies,
            c.errors,
            best[i] * 1e3,
            megabytes / best[i]
        );
    }
    println!("fianchetto / pgn-reader: {:.2}", best[1] / best[0]);
    ExitCode::SUCCESS
}
