//! Opening positions for a match, from an EPD file (one position a line)
//! or a PGN file (each game's main line: its start and its moves, which the
//! engines are sent as they were played).

use fianchetto_board::{Bitboards, Board};
use fianchetto_movegen::pgn::{PgnGame, Reader};
use fianchetto_movegen::{epd, Game};
use std::path::{Path, PathBuf};

/// Why the openings could not be read.
#[derive(Debug, thiserror::Error)]
pub enum OpeningsError {
    /// The file could not be read.
    #[error("cannot read openings {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A record of an EPD file is not a position.
    #[error("openings {path}: {source}")]
    Epd {
        /// The file.
        path: PathBuf,
        /// What is wrong, and on which line.
        source: Box<epd::EpdError>,
    },
    /// A game of a PGN file could not be read.
    #[error("openings {path}: game {game}: {message}")]
    Pgn {
        /// The file.
        path: PathBuf,
        /// The game's number, from 1.
        game: u64,
        /// What is wrong.
        message: String,
    },
    /// The file holds no opening at all.
    #[error("openings {0}: no positions in the file")]
    Empty(PathBuf),
    /// An opening in which the game is already over.
    #[error("openings {path}: opening {index} is already over ({fen})")]
    Over {
        /// The file.
        path: PathBuf,
        /// Its number, from 1.
        index: usize,
        /// Its final position.
        fen: String,
    },
}

/// Reads the openings of `path`: PGN when its name ends in `.pgn`, EPD
/// (or plain FEN lines) otherwise. Every opening must leave a game to play.
pub fn read_openings(path: &Path) -> Result<Vec<Game<Bitboards>>, OpeningsError> {
    let is_pgn = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
    let openings = if is_pgn {
        read_pgn(path)?
    } else {
        let text = std::fs::read_to_string(path).map_err(|source| OpeningsError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        epd::read(&text)
            .map(|record| {
                let record = record.map_err(|source| OpeningsError::Epd {
                    path: path.to_path_buf(),
                    source: Box::new(source),
                })?;
                Ok(Game::new(record.board))
            })
            .collect::<Result<Vec<_>, _>>()?
    };
    if openings.is_empty() {
        return Err(OpeningsError::Empty(path.to_path_buf()));
    }
    for (i, game) in openings.iter().enumerate() {
        if game.outcome_with_claims().is_some() {
            return Err(OpeningsError::Over {
                path: path.to_path_buf(),
                index: i + 1,
                fen: game.board().fen(),
            });
        }
    }
    Ok(openings)
}

fn read_pgn(path: &Path) -> Result<Vec<Game<Bitboards>>, OpeningsError> {
    // The file opened here rather than by `Reader::open`, whose error names
    // the path too: `OpeningsError::Io` names it once.
    let file = std::fs::File::open(path).map_err(|source| OpeningsError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let reader = Reader::new(file);
    let mut openings = Vec::new();
    for (i, game) in reader.games::<Bitboards>().enumerate() {
        let game: PgnGame<Bitboards> = game.map_err(|e| OpeningsError::Pgn {
            path: path.to_path_buf(),
            game: i as u64 + 1,
            message: e.to_string(),
        })?;
        openings.push(game.game);
    }
    Ok(openings)
}

/// The standard start position, for matches without an openings file.
pub fn start_position() -> Game<Bitboards> {
    Game::new(Bitboards::startpos())
}
