//! Arbitrary bytes as a games file (`fianchetto-data`'s format) and as a
//! marlinformat file: the readers give records or errors naming the file,
//! never a panic; every game read replays, and the training positions
//! iterate to their end or an error.
#![no_main]

use fianchetto_data::games::{Filter, GameReader, GameRecord, TrainingPositions};
use fianchetto_data::marlin::RecordReader;
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;

fn scratch(name: &str) -> PathBuf {
    // Memory-backed where there is one: each input is written once.
    let base = if std::path::Path::new("/dev/shm").is_dir() {
        PathBuf::from("/dev/shm")
    } else {
        std::env::temp_dir()
    };
    base.join(format!("fianchetto-fuzz-{}-{name}", std::process::id()))
}

fuzz_target!(|data: &[u8]| {
    let path = scratch("games.fgames");
    if std::fs::write(&path, data).is_err() {
        return;
    }
    if let Ok(mut reader) = GameReader::open(&path) {
        let mut record = GameRecord::default();
        while let Ok(Some(_)) = reader.read_into(&mut record) {
            let _ = record.replay(|_, _, _| {});
        }
    }
    if let Ok(positions) = TrainingPositions::open(&path, Filter::default()) {
        for item in positions.take(10_000) {
            if item.is_err() {
                break;
            }
        }
    }
    if let Ok(records) = RecordReader::open(&path) {
        for item in records.take(10_000) {
            if item.is_err() {
                break;
            }
        }
    }
    let _ = std::fs::remove_file(&path);
});
