//! Test support, hidden from the docs: the random legal games the tests of
//! this crate and of the trainer write and read back. Not part of the API.

use crate::games::{self, Ending, Entry, Filter, GameRecord};
use crate::marlin::Wdl;
use crate::tools::{copy, CopyOptions, CopySummary, DataFileError, DataFormat};
use fianchetto_board::{Bitboards, Board, Setup};
use fianchetto_movegen::MoveGen;
use std::path::{Path, PathBuf};

/// A scratch folder of the test `name`'s own, made if need be: tests run in
/// parallel, and some check that nothing is left beside their output, so
/// they must not share one.
pub fn scratch_dir(name: &str) -> std::io::Result<PathBuf> {
    let dir = std::env::temp_dir().join(format!("fianchetto-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// A random legal game of up to `plies` plies from `start`, its moves and
/// made-up scores from white's point of view (some of them mates, as
/// self-play writes them) drawn from `next`, its result and ending picked
/// by `seed`.
pub fn random_game(
    start: Bitboards,
    chess960: bool,
    seed: u64,
    plies: usize,
    next: &mut dyn FnMut() -> u64,
) -> GameRecord {
    let mut board = start;
    let mut game = GameRecord::new(&board, chess960);
    for _ in 0..plies {
        let moves = board.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[(next() % moves.len() as u64) as usize];
        let score = match next() % 20 {
            0 => 31_990,
            1 => -31_995,
            _ => (next() % 1201) as i16 - 600,
        };
        game.entries.push(Entry { mv, score });
        board.play_unchecked(mv);
    }
    game.result = [Wdl::BlackWin, Wdl::Draw, Wdl::WhiteWin][(seed % 3) as usize];
    game.ending = Ending::ALL[(seed % 10) as usize];
    game
}

/// Four games of 60 to 80 plies, the last from a Chess960 start; game
/// `seed` draws its moves and scores from `rng(seed)`.
pub fn played<R: FnMut() -> u64>(mut rng: impl FnMut(u64) -> R) -> Vec<GameRecord> {
    let mut games: Vec<GameRecord> = (0..3)
        .map(|i| {
            let seed = 21 + i;
            let plies = 60 + 10 * i as usize;
            random_game(Bitboards::startpos(), false, seed, plies, &mut rng(seed))
        })
        .collect();
    let start = Bitboards::from_setup(&Setup::chess960(618).expect("position 618 exists"))
        .expect("a Chess960 start is legal");
    games.push(random_game(start, true, 24, 70, &mut rng(24)));
    games
}

/// Writes `games` as the games file (header included) `name` in `dir`; its
/// path.
pub fn write_games(dir: &Path, name: &str, games: &[GameRecord]) -> std::io::Result<PathBuf> {
    let mut bytes = games::header().to_vec();
    for g in games {
        g.write_to(&mut bytes).map_err(std::io::Error::other)?;
    }
    let path = dir.join(name);
    std::fs::write(&path, bytes)?;
    Ok(path)
}

/// Options that copy to `to` with `filter`, overwriting the output.
pub fn options(to: DataFormat, filter: Filter) -> CopyOptions {
    CopyOptions {
        to,
        filter,
        force: true,
        ..CopyOptions::default()
    }
}

/// Copies the one file `input` to `output` in format `to`, keeping what
/// `filter` keeps, overwriting the output.
pub fn convert(
    input: &Path,
    output: &Path,
    to: DataFormat,
    filter: Filter,
) -> Result<CopySummary, DataFileError> {
    copy(&[input.to_path_buf()], output, &options(to, filter))
}
