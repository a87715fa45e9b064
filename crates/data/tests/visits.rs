//! The visits format: records round-trip, and damaged files are refused
//! with the file, the record and the byte named, never a panic.

use fianchetto_board::{Bitboards, Board, Move};
use fianchetto_data::marlin::{PackedBoard, Wdl};
use fianchetto_data::tools::{visit_stats, DataFileError, DataFormat};
use fianchetto_data::visits::{
    self, repair_tail, MoveVisits, VisitError, VisitReader, VisitRecord, VisitsError,
};
use fianchetto_movegen::MoveGen;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::path::PathBuf;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fianchetto-visits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The records of `games` random games of up to 40 plies, each position
/// listing its legal moves with random visits (some 0).
fn random_records(seed: u64, games: u32) -> Vec<VisitRecord> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::new();
    for game in 0..games {
        let mut board = Bitboards::startpos();
        let result = [Wdl::BlackWin, Wdl::Draw, Wdl::WhiteWin][game as usize % 3];
        for _ in 0..40 {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            let counts: Vec<(Move, u64)> = moves
                .iter()
                .enumerate()
                .map(|(i, &m)| (m, if i == 0 { 1 } else { rng.next_u64() % 50 }))
                .collect();
            let score = (rng.next_u64() % 601) as i16 - 300;
            out.push(VisitRecord::from_counts(&board, game, score, result, counts).unwrap());
            board.play_unchecked(moves[(rng.next_u64() % moves.len() as u64) as usize]);
        }
    }
    out
}

fn file_of(records: &[VisitRecord]) -> Vec<u8> {
    let mut bytes = visits::header().to_vec();
    for r in records {
        r.write_to(&mut bytes).unwrap();
    }
    bytes
}

fn read_all(path: &std::path::Path) -> Result<Vec<VisitRecord>, VisitsError> {
    let mut out = Vec::new();
    for r in VisitReader::open(path)? {
        let (at, record) = r?;
        assert_eq!(at.game, out.len() as u64);
        out.push(record);
    }
    Ok(out)
}

/// The error for the file `bytes` (written to `name`), which must fail.
fn error_of(name: &str, bytes: &[u8]) -> VisitsError {
    let path = temp(name);
    std::fs::write(&path, bytes).unwrap();
    match read_all(&path) {
        Ok(_) => panic!("{name}: read without error"),
        Err(e) => {
            assert!(e.to_string().contains(&path.display().to_string()), "{e}");
            e
        }
    }
}

/// Rewrites the checksum of the record at `start` of `len` bytes, so that
/// a deliberate change is seen by the check after the checksum's.
fn reseal(bytes: &mut [u8], start: usize, len: usize) {
    let mut hash: u32 = 0x811C_9DC5;
    for &b in &bytes[start..start + len - 4] {
        hash = (hash ^ b as u32).wrapping_mul(0x0100_0193);
    }
    bytes[start + len - 4..start + len].copy_from_slice(&hash.to_le_bytes());
}

#[test]
fn records_round_trip_through_a_file() {
    let records = random_records(1, 5);
    let path = temp("round-trip.visits");
    std::fs::write(&path, file_of(&records)).unwrap();
    let back = read_all(&path).unwrap();
    assert_eq!(back, records);
    for r in &back {
        let board = r.board().unwrap();
        assert_eq!(r.moves.len(), board.legal_moves().len());
    }
    assert!(VisitReader::is_visits_file(&path).unwrap());
    // Told apart from the other formats by content.
    assert!(matches!(
        DataFormat::detect(&path),
        Err(DataFileError::VisitsFile(_))
    ));
    let stats = visit_stats(std::slice::from_ref(&path), false).unwrap();
    assert_eq!(stats.records, records.len() as u64);
    assert_eq!(stats.games, 5);
    assert_eq!(stats.game_results, [2, 2, 1]);
    let listed: usize = records.iter().map(|r| r.moves.len()).sum();
    assert_eq!(stats.moves.sum, listed as u64);
    assert!(stats.moves.max >= 20);
    let total: u64 = records.iter().map(VisitRecord::total_visits).sum();
    assert_eq!(stats.visits.sum, total);
    let text = stats.to_string();
    assert!(text.contains("games: 5"), "{text}");
}

#[test]
fn large_counts_are_scaled_keeping_their_ratios() {
    let board = Bitboards::startpos();
    let moves = board.legal_moves();
    let counts = [(moves[0], 1_000_000), (moves[1], 500_000), (moves[2], 0)];
    let r = VisitRecord::from_counts(&board, 0, 0, Wdl::Draw, counts).unwrap();
    let visits: Vec<u16> = r.moves.iter().map(|m| m.visits).collect();
    assert_eq!(visits, [65_535, 32_768, 0]);
    assert_eq!(r.most_visited().map(|m| m.mv), Some(moves[0]));
    assert!(matches!(
        VisitRecord::from_counts(&board, 0, 0, Wdl::Draw, []),
        Err(VisitError::NoMoves)
    ));
    assert!(matches!(
        VisitRecord::from_counts(&board, 0, 0, Wdl::Draw, [(moves[0], 0)]),
        Err(VisitError::NoVisits)
    ));
}

#[test]
fn a_file_of_another_kind_or_version_is_refused() {
    let records = random_records(2, 1);
    let mut bytes = file_of(&records);
    bytes[0] = b'X';
    assert!(matches!(
        error_of("magic.visits", &bytes),
        VisitsError::NotVisits { .. }
    ));
    let mut bytes = file_of(&records);
    bytes[8] = 2;
    assert!(matches!(
        error_of("version.visits", &bytes),
        VisitsError::Version { version: 2, .. }
    ));
    assert!(matches!(
        error_of("short.visits", b"FIANVIS"),
        VisitsError::NotVisits { .. }
    ));
}

/// The records of a file with the second record's bytes changed by
/// `change` (resealed when `reseal_it`): the error for record 1.
fn damaged(name: &str, change: impl Fn(&mut [u8]), reseal_it: bool) -> VisitError {
    let records = random_records(3, 1);
    let mut bytes = file_of(&records[..3]);
    let start = visits::HEADER_SIZE + records[0].encoded_len();
    let len = records[1].encoded_len();
    change(&mut bytes[start..start + len]);
    if reseal_it {
        reseal(&mut bytes, start, len);
    }
    match error_of(name, &bytes) {
        VisitsError::Record {
            record: 1,
            offset,
            error,
            ..
        } => {
            assert_eq!(offset, start as u64);
            *error
        }
        other => panic!("{name}: {other}"),
    }
}

/// A stats run over the file, which must fail on record 1 (the moves'
/// legality is checked there, not by the reader's framing).
fn stats_error(name: &str, change: impl Fn(&mut VisitRecord)) -> VisitError {
    let mut records = random_records(4, 1);
    change(&mut records[1]);
    let path = temp(name);
    std::fs::write(&path, file_of(&records[..3])).unwrap();
    match visit_stats(std::slice::from_ref(&path), false) {
        Err(VisitsError::Record {
            record: 1, error, ..
        }) => *error,
        other => panic!("{name}: {other:?}"),
    }
}

#[test]
fn every_damage_is_named() {
    // A flipped bit: the checksum.
    let e = damaged("checksum.visits", |r| r[10] ^= 1, false);
    assert!(matches!(e, VisitError::Checksum { .. }), "{e}");
    // A result byte out of range.
    let e = damaged("result.visits", |r| r[4 + 30] = 7, true);
    assert!(matches!(e, VisitError::Position(_)), "{e}");
    // An undefined move kind.
    // Kind 6 is not defined.
    let e = damaged("kind.visits", |r| r[38] = (r[38] & 0x0F) | 0x60, true);
    assert!(matches!(e, VisitError::MoveKind { index: 0, .. }), "{e}");
    // No visits at all.
    let e = damaged(
        "no-visits.visits",
        |r| {
            let k = r[36] as usize;
            for i in 0..k {
                r[39 + 4 * i] = 0;
                r[40 + 4 * i] = 0;
            }
        },
        true,
    );
    assert!(matches!(e, VisitError::NoVisits), "{e}");
    // k = 0, the record's length made to match.
    let records = random_records(5, 1);
    let mut bytes = file_of(&records[..1]);
    let mut zero = Vec::new();
    records[1].write_to(&mut zero).unwrap();
    zero.truncate(37);
    zero[36] = 0;
    zero.extend_from_slice(&[0; 4]);
    reseal(&mut zero, 0, 41);
    bytes.extend_from_slice(&zero);
    match error_of("k0.visits", &bytes) {
        VisitsError::Record {
            record: 1, error, ..
        } => {
            assert!(matches!(*error, VisitError::NoMoves), "{error}")
        }
        other => panic!("{other}"),
    }
    // An illegal move and a duplicate, found when the position is checked.
    let e = stats_error("illegal.visits", |r| {
        r.moves[0].mv = Move::from_bits(63 << 6).unwrap_or(Move::NULL)
    });
    assert!(matches!(e, VisitError::IllegalMove { index: 0, .. }), "{e}");
    let e = stats_error("duplicate.visits", |r| {
        let first = r.moves[0];
        r.moves.push(MoveVisits {
            mv: first.mv,
            visits: 3,
        })
    });
    assert!(matches!(e, VisitError::Duplicate { first: 0, .. }), "{e}");
}

#[test]
fn a_file_cut_inside_a_record_reads_its_whole_records() {
    let records = random_records(6, 2);
    let bytes = file_of(&records);
    let whole: usize =
        visits::HEADER_SIZE + records[..5].iter().map(|r| r.encoded_len()).sum::<usize>();
    for cut in [whole + 1, whole + 20, whole + records[5].encoded_len() - 1] {
        let path = temp(&format!("cut-{cut}.visits"));
        std::fs::write(&path, &bytes[..cut]).unwrap();
        match read_all(&path) {
            Err(VisitsError::Truncated {
                record: 5,
                offset,
                available,
                ..
            }) => {
                assert_eq!(offset, whole as u64);
                assert_eq!(available, (cut - whole) as u64);
            }
            other => panic!("{other:?}"),
        }
        let mut reader = VisitReader::open(&path).unwrap().ending_at_cut();
        let mut record = VisitRecord::default();
        let mut n = 0;
        while reader.read_into(&mut record).unwrap().is_some() {
            n += 1;
        }
        assert_eq!(n, 5);
        let cut_at = reader.cut_short().unwrap();
        assert_eq!((cut_at.record, cut_at.offset), (5, whole as u64));
        assert!(cut_at.to_string().contains("record 5"), "{cut_at}");
        let stats = visit_stats(std::slice::from_ref(&path), false).unwrap();
        assert_eq!((stats.records, stats.cut_short.len()), (5, 1));
        let repair = repair_tail(&path).unwrap();
        assert_eq!((repair.records, repair.len), (5, whole as u64));
        assert_eq!(read_all(&path).unwrap(), records[..5]);
    }
}

#[test]
fn the_position_record_keeps_score_and_result() {
    let board = Bitboards::startpos();
    let mv = board.legal_moves()[3];
    let r = VisitRecord::from_counts(&board, 9, -42, Wdl::BlackWin, [(mv, 5)]).unwrap();
    assert_eq!(r.position, PackedBoard::pack(&board, -42, Wdl::BlackWin));
    let mut bytes = Vec::new();
    r.write_to(&mut bytes).unwrap();
    let (back, len) = VisitRecord::from_bytes(&bytes).unwrap();
    assert_eq!((back.game, len), (9, 45));
    let unpacked = back.position.unpack().unwrap();
    assert_eq!((unpacked.score, unpacked.wdl), (-42, Wdl::BlackWin));
    assert!(matches!(
        VisitRecord::from_bytes(&bytes[..44]),
        Err(VisitError::Short { needed: 45, .. })
    ));
}
