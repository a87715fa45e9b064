//! MCTS self-play: what `run_with` writes in the visits format is the games
//! `play_game` plays with their root visits, the same on every run and
//! after a resume; PVS is refused for that format.

mod common;

use common::temp;
use fianchetto_board::Board;
use fianchetto_data::visits::{VisitReader, VisitRecord};
use fianchetto_eval::policy::embedded_policy;
use fianchetto_eval::Material;
use fianchetto_search::mcts::{Blend, HandPolicy, Mcts, MctsConfig, NetPolicy, ENGINE_NET_WEIGHT};
use fianchetto_tune::datagen::{
    self, play_game, DatagenConfig, DatagenError, Format, RunOptions, Summary,
};
use std::path::Path;
use std::sync::atomic::AtomicBool;

fn opts(out: &Path, games: u64, threads: usize) -> RunOptions {
    common::options(out, Format::Visits, games, threads, 5)
}

/// The engine's MCTS at 50 playouts a move, on material.
fn searcher() -> Mcts<Material, Blend<NetPolicy, HandPolicy>> {
    let net = embedded_policy().unwrap();
    Mcts::with_policy(
        Material::classic(),
        Blend::engine(net, ENGINE_NET_WEIGHT),
        MctsConfig::puct().iterations(50).memory_mb(1),
    )
}

fn generate(options: &RunOptions) -> Result<Summary, DatagenError> {
    datagen::run_with(
        &DatagenConfig::default(),
        options,
        &AtomicBool::new(false),
        searcher,
    )
}

fn read(path: &Path) -> Vec<VisitRecord> {
    VisitReader::open(path)
        .unwrap()
        .map(|r| r.unwrap().1)
        .collect()
}

#[test]
fn mcts_self_play_writes_the_root_visits_of_the_games_played() {
    let out = temp("two.visits");
    let summary = generate(&opts(&out, 2, 1)).unwrap();
    assert_eq!(summary.games, 2);
    let records = read(&out);
    assert_eq!(records.len() as u64, summary.positions);

    let mut mcts = searcher();
    let config = DatagenConfig::default();
    let (mut at, mut most) = (0, 0);
    for index in 0..2u32 {
        let played = play_game(&mut mcts, &config, &[], None, 5, index as u64, None);
        assert_eq!(played.visits.len(), played.game.entries.len());
        played
            .game
            .replay(|i, board, entry| {
                if played.visits[i].iter().all(|&(_, n)| n == 0) {
                    return;
                }
                let r = &records[at];
                at += 1;
                assert_eq!(r.game, index);
                assert_eq!(r.board().unwrap().fen(), board.fen());
                assert_eq!(r.position.unpack().unwrap().score, entry.score);
                assert_eq!(r.result(), Some(played.game.result));
                // The move played is listed, and mostly the most visited
                // (the solver plays a proven win whatever its visits).
                let top = r.most_visited().unwrap();
                let mine = r.moves.iter().find(|m| m.mv == entry.mv).unwrap();
                most += (mine.visits == top.visits) as usize;
                let counts: Vec<u64> = played.visits[i].iter().map(|&(_, n)| n).collect();
                let stored: Vec<u64> = r.moves.iter().map(|m| m.visits as u64).collect();
                assert_eq!(stored, counts);
            })
            .unwrap();
    }
    assert_eq!(at, records.len());
    assert!(most * 10 >= at * 9, "{most} of {at}");

    // The same bytes again, on two threads, and after a resume.
    let again = temp("again.visits");
    generate(&opts(&again, 2, 2)).unwrap();
    assert_eq!(std::fs::read(&again).unwrap(), std::fs::read(&out).unwrap());
    let resumed = temp("resumed.visits");
    generate(&opts(&resumed, 1, 1)).unwrap();
    generate(&opts(&resumed, 2, 1)).unwrap();
    assert_eq!(
        std::fs::read(&resumed).unwrap(),
        std::fs::read(&out).unwrap()
    );
}

#[test]
fn pvs_gives_no_visits_and_other_formats_are_not_appended_to() {
    let out = temp("pvs.visits");
    let config = DatagenConfig {
        soft_nodes: 200,
        hard_nodes: 4_000,
        ..DatagenConfig::default()
    };
    let err = datagen::run(
        &config,
        Material::classic(),
        &opts(&out, 1, 1),
        &AtomicBool::new(false),
    )
    .unwrap_err();
    assert!(matches!(err, DatagenError::NoVisits(_)), "{err}");

    let games = temp("one.games");
    let mut options = opts(&games, 1, 1);
    options.format = Format::Games;
    datagen::run(
        &config,
        Material::classic(),
        &options,
        &AtomicBool::new(false),
    )
    .unwrap();
    let err = generate(&opts(&games, 2, 1)).unwrap_err();
    assert!(
        matches!(
            err,
            DatagenError::FormatMismatch {
                found: "games-format",
                ..
            }
        ),
        "{err}"
    );
}
