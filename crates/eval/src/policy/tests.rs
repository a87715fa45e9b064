use super::*;
use crate::nnue::Simd;
use fianchetto_board::{Bitboards, Board, Move};
use fianchetto_movegen::MoveGen;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// A network of `hidden` neurons with random weights spread over the whole
/// range the format allows.
fn random_net(hidden: usize, seed: u64) -> PolicyNet {
    let arch = PolicyArch::new(hidden).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let weights: Vec<f32> = (0..arch.weight_count())
        .map(|i| {
            let u = (rng.next_u64() >> 11) as f32 / (1u64 << 53) as f32 * 2.0 - 1.0;
            // Feature weights small enough to leave the clip sometimes,
            // embeddings up to the clip.
            if i < (INPUTS + 1) * hidden {
                u * 0.6
            } else {
                u * PolicyQuant::EMBEDDING_CLIP
            }
        })
        .collect();
    PolicyNet::quantize(arch, &weights).unwrap()
}

/// Positions reached by random legal moves from the start.
fn random_positions(seed: u64, count: usize) -> Vec<Bitboards> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut b = Bitboards::startpos();
        for _ in 0..(rng.next_u64() % 80) {
            let moves = b.legal_moves();
            if moves.is_empty() {
                break;
            }
            b.play_unchecked(moves[(rng.next_u64() % moves.len() as u64) as usize]);
        }
        if !b.legal_moves().is_empty() {
            out.push(b);
        }
    }
    out
}

/// The logits computed the plain way, independently of the inference code:
/// features found square by square with the board's own attack test, sums
/// in `i64`, no kernels.
fn reference(net: &PolicyNet, board: &Bitboards, moves: &[Move]) -> Vec<f32> {
    let h = net.arch().hidden;
    let w = net.weights();
    let qa = net.arch().quant.qa as i64;
    let mut acc: Vec<i64> = w[INPUTS * h..(INPUTS + 1) * h]
        .iter()
        .map(|&x| x as i64)
        .collect();
    let flip = if board.turn() == fianchetto_board::Color::White {
        0
    } else {
        56
    };
    for sq in board.occupied() {
        let p = board.piece_at(sq).unwrap();
        let attacked = board.is_attacked(sq, !p.color) as usize;
        let defended = board.is_attacked(sq, p.color) as usize;
        let theirs = (p.color != board.turn()) as usize;
        let f = (attacked + 2 * defended) * 768
            + theirs * 384
            + p.role.index() * 64
            + (sq.index() ^ flip);
        assert_eq!(f, feature_index(board, p, sq));
        for (a, &x) in acc.iter_mut().zip(&w[f * h..(f + 1) * h]) {
            *a += x as i64;
        }
    }
    let hidden: Vec<i64> = acc.iter().map(|&a| a.clamp(0, qa)).collect();
    let from_at = (INPUTS + 1) * h;
    let to_at = from_at + FROM_ROWS * h;
    moves
        .iter()
        .map(|&m| {
            let (f, t) = move_rows(board, m);
            assert_eq!(f, m.from().index() ^ flip);
            assert_eq!(t >= 416, board.is_attacked(m.to(), !board.turn()));
            let sum: i64 = (0..h)
                .map(|i| hidden[i] * (w[from_at + f * h + i] as i64 + w[to_at + t * h + i] as i64))
                .sum();
            sum as f32 * net.logit_scale()
        })
        .collect()
}

#[test]
fn every_simd_version_gives_the_reference_logits() {
    for (hidden, seed) in [(16, 1), (32, 2), (128, 3), (48, 4), (256, 5)] {
        let net = random_net(hidden, seed);
        for board in random_positions(seed, 40) {
            let moves = board.legal_moves();
            let expect = reference(&net, &board, &moves);
            for simd in Simd::supported() {
                let mut got = vec![f32::NAN; moves.len()];
                net.logits_with(simd, &board, &moves, &mut got);
                assert_eq!(got, expect, "{simd}, hidden {hidden}, {}", board.fen());
            }
        }
    }
}

#[test]
fn the_hidden_layer_is_clipped_to_qa() {
    let net = random_net(64, 9);
    let mut h = vec![0i16; 64];
    let mut clipped = 0;
    for board in random_positions(9, 20) {
        net.hidden_layer(&board, &mut h);
        assert!(h.iter().all(|&x| (0..=255).contains(&x)));
        clipped += h.iter().filter(|&&x| x == 0 || x == 255).count();
    }
    // The weights are wide enough that the clip is exercised.
    assert!(clipped > 0);
}

#[test]
fn a_position_and_its_colour_flip_get_the_same_logits() {
    let net = random_net(32, 11);
    for board in random_positions(11, 30) {
        // Mirror vertically and swap the colours: the side to move's view
        // is the same position.
        let fen = board.fen();
        let fields: Vec<&str> = fen.split(' ').collect();
        let ranks: Vec<String> = fields[0]
            .split('/')
            .rev()
            .map(|r| {
                r.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        let turn = if fields[1] == "w" { "b" } else { "w" };
        let castling: String = if fields[2] == "-" {
            "-".into()
        } else {
            let mut c: Vec<char> = fields[2]
                .chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect();
            c.sort_by_key(|c| (c.is_ascii_lowercase(), *c));
            c.into_iter().collect()
        };
        let ep = if fields[3] == "-" {
            "-".to_string()
        } else {
            let b = fields[3].as_bytes();
            format!("{}{}", b[0] as char, if b[1] == b'3' { '6' } else { '3' })
        };
        let flipped = Bitboards::from_fen(&format!(
            "{} {turn} {castling} {ep} {} {}",
            ranks.join("/"),
            fields[4],
            fields[5]
        ))
        .unwrap();
        let (a, b) = (board.legal_moves(), flipped.legal_moves());
        let mut la: Vec<(usize, usize, u32)> = Vec::new();
        let mut lb: Vec<(usize, usize, u32)> = Vec::new();
        let mut out = vec![0.0; 256];
        net.logits(&board, &a, &mut out);
        la.extend(a.iter().zip(&out).map(|(&m, &l)| {
            let (f, t) = move_rows(&board, m);
            (f, t, l.to_bits())
        }));
        net.logits(&flipped, &b, &mut out);
        lb.extend(b.iter().zip(&out).map(|(&m, &l)| {
            let (f, t) = move_rows(&flipped, m);
            (f, t, l.to_bits())
        }));
        la.sort_unstable();
        lb.sort_unstable();
        assert_eq!(la, lb, "{fen}");
    }
}

#[test]
fn legal_moves_read_distinct_rows() {
    for board in random_positions(21, 200) {
        let mut rows: Vec<(usize, usize)> = board
            .legal_moves()
            .iter()
            .map(|&m| move_rows(&board, m))
            .collect();
        let n = rows.len();
        rows.sort_unstable();
        rows.dedup();
        assert_eq!(rows.len(), n, "{}", board.fen());
        assert!(rows.iter().all(|&(f, t)| f < FROM_ROWS && t < TO_ROWS));
    }
    // Promotions: four pieces, two files.
    let b = Bitboards::from_fen("3r3k/4P3/8/8/8/8/8/K7 w - - 0 1").unwrap();
    let mut rows: Vec<(usize, usize)> = b.legal_moves().iter().map(|&m| move_rows(&b, m)).collect();
    rows.sort_unstable();
    rows.dedup();
    assert_eq!(rows.len(), b.legal_moves().len());
}

#[test]
fn files_round_trip_and_every_flaw_is_named() {
    let net = random_net(32, 5);
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), format::policy_file_len(net.arch()));
    assert_eq!(PolicyNet::from_bytes(&bytes).unwrap(), net);

    let refused = |b: &[u8]| PolicyNet::from_bytes(b).unwrap_err();
    assert_eq!(refused(&bytes[..10]), PolicyError::TooShort(10));
    assert!(matches!(
        refused(&bytes[..bytes.len() - 2]),
        PolicyError::Length { .. }
    ));
    let mut b = bytes.clone();
    b[0] = b'X';
    assert_eq!(refused(&b), PolicyError::Magic);
    let mut b = bytes.clone();
    b[8] = 9;
    assert_eq!(refused(&b), PolicyError::Version(9));
    let mut b = bytes.clone();
    b[12] = 17;
    assert_eq!(refused(&b), PolicyError::Arch(PolicyArchError::Hidden(17)));
    let mut b = bytes.clone();
    b[16] = 0;
    assert!(matches!(
        refused(&b),
        PolicyError::Arch(PolicyArchError::Quant { qa: 0, .. })
    ));
    let mut b = bytes.clone();
    b[28] = 1;
    assert_eq!(refused(&b), PolicyError::Reserved(1));
    let mut b = bytes.clone();
    let last = b.len() - 1;
    b[last] ^= 0x40;
    assert!(matches!(refused(&b), PolicyError::Checksum { .. }));

    // A weight out of range, with a valid checksum: refused by range.
    let mut weights = net.weights().to_vec();
    weights[3] = 600;
    assert!(matches!(
        PolicyNet::new(*net.arch(), weights),
        Err(PolicyError::Range {
            part: "feature weights",
            index: 3,
            value: 600,
            ..
        })
    ));
    assert!(matches!(
        PolicyNet::quantize(*net.arch(), &[0.0; 5]),
        Err(PolicyError::Shape { got: 5, .. })
    ));
}

#[test]
fn a_file_is_refused_with_its_path() {
    let dir = std::env::temp_dir().join(format!("fianchetto-policy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let net = random_net(16, 8);
    let good = dir.join("good.policy");
    std::fs::write(&good, net.to_bytes()).unwrap();
    assert_eq!(PolicyNet::from_file(&good).unwrap(), net);

    let bad = dir.join("bad.policy");
    let mut bytes = net.to_bytes();
    bytes.push(0);
    std::fs::write(&bad, &bytes).unwrap();
    let e = PolicyNet::from_file(&bad).unwrap_err().to_string();
    assert!(e.contains("bad.policy") && e.contains("needs"), "{e}");

    let e = PolicyNet::from_file(dir.join("missing.policy"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("missing.policy"), "{e}");
    let e = PolicyNet::from_file(&dir).unwrap_err().to_string();
    assert!(e.contains("not a regular file"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}
