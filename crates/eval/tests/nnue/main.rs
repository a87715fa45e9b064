//! NNUE inference: the incremental accumulators (mirroring, king buckets
//! through the refresh cache, output buckets) and the SIMD kernels against
//! a plain reference computed from scratch, on every backend.
//!
//! Move sequences are scripted once on `Bitboards` (random legal games with
//! search-like probes: push, evaluate, pop; null moves included) and then
//! replayed on each backend, so that all three follow the same tree and
//! must produce the same scores.

use fianchetto_board::{
    Bitboards, Board, Board0x88, Color, Mailbox, Move, MoveKind, Role, Setup, Square,
};
use fianchetto_eval::nnue::{
    Arch, KingBuckets, NetError, Network, Nnue, Simd, HEADER_SIZE, INPUTS, MAX_OUTPUT_WEIGHT,
};
use fianchetto_eval::{Evaluator, Score};
use fianchetto_movegen::{parse_uci, MoveGen};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::HashSet;
use std::sync::Arc;

// ---- Networks -------------------------------------------------------------

/// A uniform value in `-range..=range`.
fn uniform(rng: &mut Xoshiro256PlusPlus, range: i32) -> i16 {
    let value = (rng.next_u64() % (2 * range as u64 + 1)) as i32 - range;
    value as i16
}

/// A random network of `arch` whose accumulators often leave `0..=QA` on
/// both sides, so that SCReLU clips in both directions.
fn random_arch_net(arch: Arch, seed: u64) -> Network {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let ft_weights = (0..arch.ft_weight_count())
        .map(|_| uniform(&mut rng, 80))
        .collect();
    let ft_bias = (0..arch.hidden).map(|_| uniform(&mut rng, 100)).collect();
    let out_weights = (0..arch.out_weight_count())
        .map(|_| uniform(&mut rng, output_range(arch)))
        .collect();
    let out_bias = (0..arch.output_buckets.count)
        .map(|_| uniform(&mut rng, 20_000) as i32 * 4)
        .collect();
    Network::new(arch, ft_weights, ft_bias, out_weights, out_bias)
        .expect("random weights are in range")
}

/// The largest output weight of the random nets of `arch`: the bound on
/// one weight, or less where a bucket of weights all that large could add
/// up past what the output layer's i32 sum holds.
fn output_range(arch: Arch) -> i32 {
    let per_weight = arch.quant.max_output_weight_total() / (2 * arch.hidden as i64);
    i32::from(MAX_OUTPUT_WEIGHT).min(per_weight as i32)
}

/// A random plain network (768 → `hidden`)×2 → 1.
fn random_net(hidden: usize, seed: u64) -> Network {
    random_arch_net(Arch::plain(hidden), seed)
}

/// A random bucketed network: nine mirrored king buckets (so that king
/// moves change buckets often) and eight output buckets.
fn bucketed_net(hidden: usize, seed: u64) -> Network {
    let arch = Arch::plain(hidden)
        .with_king_buckets(KingBuckets::MIRRORED_9)
        .with_output_buckets(8);
    random_arch_net(arch, seed)
}

/// A network at the edge of what is accepted: feature weights and biases
/// as large as the i16 accumulator allows, output weights at the limit
/// (one weight's, or for wide layers the bucket's total's); only the kernel
/// versions are compared on it.
fn extreme_net(arch: Arch, seed: u64) -> Network {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let ft_weights = (0..arch.ft_weight_count())
        .map(|_| uniform(&mut rng, 1000))
        .collect();
    let ft_bias = (0..arch.hidden).map(|_| uniform(&mut rng, 767)).collect();
    let max = output_range(arch);
    let out_weights = (0..arch.out_weight_count())
        .map(|i| {
            if i % 3 == 0 {
                max as i16
            } else {
                uniform(&mut rng, max)
            }
        })
        .collect();
    // The largest bias accepted (one that alone scores 30 999 centipawns).
    let out_bias = vec![arch.quant.max_output_bias() as i32; arch.output_buckets.count];
    Network::new(arch, ft_weights, ft_bias, out_weights, out_bias)
        .expect("weights at the limits are accepted")
}

/// The network from scratch, written as plainly as possible from the
/// definition (not through the crate's views): accumulators in i32
/// (white's perspective, black's) and the score in i64.
fn reference<B: Board>(net: &Network, board: &B) -> (Vec<i16>, Vec<i16>, Score) {
    let arch = net.arch();
    let h = net.hidden();
    let acc = |perspective: Color| -> Vec<i16> {
        // The board as `perspective` sees it: its own side at the bottom,
        // mirrored left to right when its king is on files e-h.
        let own = |sq: Square| match perspective {
            Color::White => sq,
            Color::Black => sq.flip_vertical(),
        };
        let king = own(board.king(perspective));
        let mirrored = arch.king_buckets.mirror && king.file().index() >= 4;
        let seen = |sq: Square| {
            let sq = own(sq);
            if mirrored {
                sq.flip_horizontal()
            } else {
                sq
            }
        };
        let bucket = usize::from(arch.king_buckets.map[seen(board.king(perspective)).index()]);
        let mut sums: Vec<i32> = net.ft_bias().iter().map(|&b| b.into()).collect();
        for sq in board.occupied() {
            let Some(piece) = board.piece_at(sq) else {
                panic!("occupied square {sq} is empty")
            };
            let side = usize::from(piece.color != perspective);
            let f = bucket * INPUTS + side * 384 + piece.role.index() * 64 + seen(sq).index();
            for (s, &w) in sums.iter_mut().zip(&net.ft_weights()[f * h..(f + 1) * h]) {
                *s += i32::from(w);
            }
        }
        sums.into_iter()
            .map(|s| i16::try_from(s).expect("accumulator fits i16"))
            .collect()
    };
    let (white, black) = (acc(Color::White), acc(Color::Black));
    let (us, them) = match board.turn() {
        Color::White => (&white, &black),
        Color::Black => (&black, &white),
    };
    let n = arch.output_buckets.count;
    let pieces = board.occupied().count() as usize;
    let bucket = ((pieces - 2) / 32_usize.div_ceil(n)).min(n - 1);
    let q = arch.quant;
    let screlu = |x: i16| i64::from(x.clamp(0, q.qa as i16)).pow(2);
    let sum: i64 = us
        .iter()
        .chain(them)
        .zip(&net.out_weights()[bucket * 2 * h..(bucket + 1) * 2 * h])
        .map(|(&x, &w)| screlu(x) * i64::from(w))
        .sum();
    let cp = (sum / i64::from(q.qa) + i64::from(net.out_bias()[bucket])) * i64::from(q.scale)
        / i64::from(q.qa * q.qb);
    (white, black, Score::cp(cp as i32))
}

// ---- Scripts: move trees a search might walk ------------------------------

#[derive(Clone, Copy, Debug)]
enum Op {
    Push(Move),
    Pop,
    Eval,
}

/// Positions that force every kind of move: castling both ways for both
/// colours, en passant for both, every promotion with and without capture.
const SPECIAL_FENS: &[&str] = &[
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 3",
    "1r2k3/P6P/8/8/8/8/p6p/4K1N1 w - - 0 1",
    "1r2k3/P6P/8/8/8/8/p6p/4K1N1 b - - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

/// Where the random games start: the special positions and ordinary ones.
fn start_fens() -> Vec<&'static str> {
    let mut fens = SPECIAL_FENS.to_vec();
    fens.extend([
        fianchetto_board::START_FEN,
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8",
        "2r3k1/5pp1/p3p2p/1p1nP3/3P4/P4N1P/1P3PP1/2R3K1 b - - 0 30",
    ]);
    fens
}

fn pick(rng: &mut Xoshiro256PlusPlus, moves: &[Move]) -> Move {
    moves[(rng.next_u64() % moves.len() as u64) as usize]
}

/// A random move, one time in three among the ones that are not plain
/// quiet moves (captures, castling, en passant, promotions) when there are
/// any, so that random games meet them often.
fn pick_eventful(rng: &mut Xoshiro256PlusPlus, moves: &[Move]) -> Move {
    let eventful: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|mv| !matches!(mv.kind(), MoveKind::Quiet | MoveKind::DoublePush))
        .collect();
    if !eventful.is_empty() && rng.next_u64() % 3 == 0 {
        pick(rng, &eventful)
    } else {
        pick(rng, moves)
    }
}

fn played(board: &Bitboards, mv: Move) -> Bitboards {
    let mut next = board.clone();
    if mv.is_null() {
        next.play_null();
    } else {
        next.play_unchecked(mv);
    }
    next
}

/// A random game from `fen` as a search would walk it: at each ply a few
/// probes (push, maybe evaluate, maybe one more ply, pop), then the game
/// move (a null move one time in ten when not in check), evaluating only
/// some of the time so that several pending updates pile up.
fn random_script(fen: &str, rng: &mut Xoshiro256PlusPlus, plies: usize) -> Vec<Op> {
    let Ok(mut board) = Bitboards::from_fen(fen) else {
        panic!("bad test FEN {fen}")
    };
    let mut ops = vec![Op::Eval];
    for _ in 0..plies {
        let moves = board.legal_moves();
        if moves.is_empty() {
            break;
        }
        for _ in 0..rng.next_u64() % 4 {
            let mv = pick(rng, &moves);
            ops.push(Op::Push(mv));
            if rng.next_u64() % 2 == 0 {
                ops.push(Op::Eval);
            }
            let child = played(&board, mv);
            let replies = child.legal_moves();
            if !replies.is_empty() && rng.next_u64() % 2 == 0 {
                ops.extend([Op::Push(pick(rng, &replies)), Op::Eval, Op::Pop]);
            }
            ops.push(Op::Pop);
        }
        if rng.next_u64() % 3 == 0 {
            ops.push(Op::Eval);
        }
        let mv = if !board.in_check() && rng.next_u64() % 10 == 0 {
            Move::NULL
        } else {
            pick_eventful(rng, &moves)
        };
        ops.push(Op::Push(mv));
        board = played(&board, mv);
        if rng.next_u64() % 2 == 0 {
            ops.push(Op::Eval);
        }
    }
    ops.push(Op::Eval);
    ops
}

/// Every legal move of `fen`, each pushed, evaluated and popped.
fn every_move_script(fen: &str) -> Vec<Op> {
    let Ok(board) = Bitboards::from_fen(fen) else {
        panic!("bad test FEN {fen}")
    };
    let mut ops = vec![Op::Eval];
    for mv in board.legal_moves() {
        ops.extend([Op::Push(mv), Op::Eval, Op::Pop, Op::Eval]);
    }
    ops
}

/// Replays `ops` from `fen` with `nnue` on backend `B`, checking every
/// evaluation (accumulators and score) against the reference. Returns the
/// scores, to compare backends.
fn replay<B: MoveGen>(nnue: &mut Nnue, fen: &str, ops: &[Op]) -> Vec<Score> {
    let net = nnue.network().clone();
    let Ok(root) = B::from_fen(fen) else {
        panic!("bad test FEN {fen}")
    };
    Evaluator::<B>::reset(nnue, &root);
    let mut line = vec![root];
    let mut scores = Vec::new();
    for op in ops {
        let Some(top) = line.last().cloned() else {
            panic!("script pops the root")
        };
        match *op {
            Op::Push(mv) => {
                let mut next = top.clone();
                if mv.is_null() {
                    next.play_null();
                } else {
                    next.play_unchecked(mv);
                }
                nnue.push(&top, mv, &next);
                line.push(next);
            }
            Op::Pop => {
                nnue.pop();
                line.pop();
            }
            Op::Eval => {
                let (white, black, score) = reference(&net, &top);
                let (w, b) = nnue.accumulators(&top);
                assert!(
                    w == white.as_slice() && b == black.as_slice(),
                    "{}: accumulators differ from a refresh at {} (line from {fen})",
                    B::NAME,
                    top.fen()
                );
                let got = nnue.evaluate(&top);
                assert_eq!(got, score, "{}: score at {}", B::NAME, top.fen());
                scores.push(got);
            }
        }
    }
    scores
}

/// Replays on all three backends with the kernels `simd`; they must agree
/// with the reference and with each other.
fn replay_everywhere(net: &Arc<Network>, simd: Simd, fen: &str, ops: &[Op]) {
    let fresh = || match Nnue::new(net.clone()).with_simd_version(simd) {
        Some(nnue) => nnue,
        None => panic!("{simd} is not supported here"),
    };
    let bb = replay::<Bitboards>(&mut fresh(), fen, ops);
    let x88 = replay::<Board0x88>(&mut fresh(), fen, ops);
    let mailbox = replay::<Mailbox>(&mut fresh(), fen, ops);
    assert_eq!(bb, x88, "bitboards and 0x88 disagree from {fen}");
    assert_eq!(bb, mailbox, "bitboards and mailbox disagree from {fen}");
}

/// How many pushes of a script change a perspective's king bucket, and how
/// many its mirroring, under `buckets`.
fn view_changes(buckets: &KingBuckets, fen: &str, ops: &[Op]) -> (usize, usize) {
    let Ok(root) = Bitboards::from_fen(fen) else {
        panic!("bad test FEN {fen}")
    };
    let mut line = vec![root];
    let (mut bucket, mut mirror) = (0, 0);
    for op in ops {
        match *op {
            Op::Push(mv) => {
                let Some(top) = line.last() else { break };
                let next = played(top, mv);
                for p in Color::ALL {
                    let was = buckets.view(p.index(), top.king(p).index());
                    let is = buckets.view(p.index(), next.king(p).index());
                    bucket += usize::from(was.base != is.base);
                    mirror += usize::from((was.xor ^ is.xor) & 7 != 0);
                }
                line.push(next);
            }
            Op::Pop => {
                line.pop();
            }
            Op::Eval => {}
        }
    }
    (bucket, mirror)
}

/// The kinds of move a script plays, with the mover's colour.
fn kinds(fen: &str, ops: &[Op]) -> HashSet<(Color, Option<MoveKind>)> {
    let Ok(root) = Bitboards::from_fen(fen) else {
        panic!("bad test FEN {fen}")
    };
    let mut line = vec![root];
    let mut seen = HashSet::new();
    for op in ops {
        match *op {
            Op::Push(mv) => {
                let Some(top) = line.last() else { break };
                let kind = (!mv.is_null()).then(|| mv.kind());
                seen.insert((top.turn(), kind));
                line.push(played(top, mv));
            }
            Op::Pop => {
                line.pop();
            }
            Op::Eval => {}
        }
    }
    seen
}

// ---- Incremental equals refresh --------------------------------------------

#[test]
fn every_move_of_special_positions_matches_a_refresh_on_every_backend() {
    let mut seen = HashSet::new();
    for net in [random_net(32, 1), bucketed_net(32, 1)] {
        let net = Arc::new(net);
        for fen in SPECIAL_FENS {
            let ops = every_move_script(fen);
            seen.extend(kinds(fen, &ops));
            replay_everywhere(&net, Simd::detect(), fen, &ops);
        }
    }
    for color in Color::ALL {
        for kind in [
            MoveKind::KingCastle,
            MoveKind::QueenCastle,
            MoveKind::EnPassant,
            MoveKind::Capture,
            MoveKind::PromoteKnight,
            MoveKind::PromoteBishop,
            MoveKind::PromoteRook,
            MoveKind::PromoteQueen,
            MoveKind::CapturePromoteKnight,
            MoveKind::CapturePromoteBishop,
            MoveKind::CapturePromoteRook,
            MoveKind::CapturePromoteQueen,
        ] {
            assert!(
                seen.contains(&(color, Some(kind))),
                "no {kind:?} for {color}"
            );
        }
    }
}

#[test]
fn random_games_with_probes_match_a_refresh_on_every_backend() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x05ee_da11);
    let mut seen = HashSet::new();
    let (mut buckets, mut mirrors) = (0, 0);
    for net in [random_net(64, 2), bucketed_net(64, 2)] {
        let net = Arc::new(net);
        for fen in start_fens() {
            for _ in 0..3 {
                let ops = random_script(fen, &mut rng, 120);
                seen.extend(kinds(fen, &ops));
                let (b, m) = view_changes(&net.arch().king_buckets, fen, &ops);
                buckets += b;
                mirrors += m;
                replay_everywhere(&net, Simd::detect(), fen, &ops);
            }
        }
    }
    // The bucketed net met many king moves across buckets and files.
    assert!(
        buckets > 100 && mirrors > 100,
        "{buckets} bucket changes, {mirrors} mirror changes"
    );
    for color in Color::ALL {
        for kind in [
            None, // a null move
            Some(MoveKind::KingCastle),
            Some(MoveKind::QueenCastle),
            Some(MoveKind::EnPassant),
            Some(MoveKind::Capture),
            Some(MoveKind::PromoteKnight),
            Some(MoveKind::PromoteBishop),
            Some(MoveKind::PromoteRook),
            Some(MoveKind::PromoteQueen),
        ] {
            assert!(seen.contains(&(color, kind)), "no {kind:?} for {color}");
        }
    }
}

#[test]
fn every_kernel_version_follows_the_same_trees() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    for simd in Simd::supported() {
        let net = Arc::new(bucketed_net(64, 3));
        for fen in start_fens() {
            let ops = random_script(fen, &mut rng, 60);
            replay_everywhere(&net, simd, fen, &ops);
        }
    }
}

#[test]
fn the_hidden_sizes_compiled_as_constants_match_a_refresh() {
    // 256 and 1024 neurons run copies of the code with the size a
    // constant; every other size runs the general one.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(21);
    for net in [random_net(256, 21), bucketed_net(1024, 22)] {
        let net = Arc::new(net);
        for simd in Simd::supported() {
            for fen in start_fens().into_iter().take(4) {
                let ops = random_script(fen, &mut rng, 60);
                replay_everywhere(&net, simd, fen, &ops);
            }
        }
    }
}

#[test]
fn scripted_lines_with_castling_en_passant_promotions_and_null_moves() {
    let nets = [Arc::new(random_net(16, 4)), Arc::new(bucketed_net(16, 4))];
    let lines: &[(&str, &[&str])] = &[
        (SPECIAL_FENS[0], &["e1g1", "e8c8", "0000", "h7h5", "a2a3"]),
        (SPECIAL_FENS[2], &["e8g8", "e1c1", "0000", "d1d8", "f8d8"]),
        (SPECIAL_FENS[2], &["e8c8", "0000", "h8h1", "e1e2", "h1a1"]),
        (SPECIAL_FENS[3], &["e5f6", "g7f6", "0000", "d8d6"]),
        (SPECIAL_FENS[4], &["e4d3", "c2d3", "0000", "0000", "f8b4"]),
        (
            SPECIAL_FENS[5],
            &["a7b8n", "a2a1n", "h7h8b", "h2g1q", "e1e2", "g1g2"],
        ),
    ];
    for (fen, moves) in lines {
        let Ok(mut board) = Bitboards::from_fen(fen) else {
            panic!("bad test FEN {fen}")
        };
        let mut ops = vec![Op::Eval];
        for uci in moves.iter() {
            let mv = if *uci == "0000" {
                Move::NULL
            } else {
                match parse_uci(&board, uci) {
                    Ok(mv) => mv,
                    Err(e) => panic!("{uci} in {}: {e}", board.fen()),
                }
            };
            board = played(&board, mv);
            ops.extend([Op::Push(mv), Op::Eval]);
        }
        // Back to the root, checking each ply on the way down.
        for _ in moves.iter() {
            ops.extend([Op::Pop, Op::Eval]);
        }
        for net in &nets {
            replay_everywhere(net, Simd::detect(), fen, &ops);
        }
    }
}

#[test]
fn lines_deeper_than_the_stack_stay_correct() {
    // 300 plies of knight shuffles and null moves, evaluated on the way up
    // and all the way back down.
    let fen = fianchetto_board::START_FEN;
    let Ok(mut board) = Bitboards::from_fen(fen) else {
        panic!("bad start FEN")
    };
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let mut ops = vec![Op::Eval];
    for ply in 0..300 {
        let mv = if ply % 7 == 6 {
            Move::NULL
        } else {
            let uci = if board.turn() == Color::White {
                shuffle[if board
                    .pieces(Color::White, Role::Knight)
                    .contains(fianchetto_board::Square::G1)
                {
                    0
                } else {
                    2
                }]
            } else {
                shuffle[if board
                    .pieces(Color::Black, Role::Knight)
                    .contains(fianchetto_board::Square::G8)
                {
                    1
                } else {
                    3
                }]
            };
            match parse_uci(&board, uci) {
                Ok(mv) => mv,
                Err(e) => panic!("{uci}: {e}"),
            }
        };
        board = played(&board, mv);
        ops.push(Op::Push(mv));
        if ply % 3 == 0 || ply > 250 {
            ops.push(Op::Eval);
        }
    }
    for _ in 0..300 {
        ops.extend([Op::Pop, Op::Eval]);
    }
    for net in [random_net(16, 5), bucketed_net(16, 5)] {
        replay_everywhere(&Arc::new(net), Simd::detect(), fen, &ops);
    }
}

#[test]
fn a_caller_that_never_resets_or_pushes_still_gets_right_answers() {
    let net = Arc::new(bucketed_net(32, 6));
    let mut nnue = Nnue::new(net.clone());
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
    for fen in start_fens() {
        let Ok(mut board) = Bitboards::from_fen(fen) else {
            panic!("bad test FEN {fen}")
        };
        for _ in 0..20 {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            // A push from a position the stack does not hold (it holds the
            // previous one), extra pops, one-off evaluations in between:
            // none of it may corrupt what comes next.
            let mv = pick(&mut rng, &moves);
            let next = played(&board, mv);
            nnue.push(&board, mv, &next);
            assert_eq!(nnue.evaluate(&next), reference(&net, &next).2);
            assert_eq!(nnue.evaluate(&board), reference(&net, &board).2);
            nnue.pop();
            nnue.pop();
            assert_eq!(nnue.evaluate(&board), reference(&net, &board).2);
            board = next;
        }
    }
}

// ---- AVX2 against the portable code -----------------------------------------

/// Random positions from random games.
fn positions(seed: u64, per_fen: usize) -> Vec<Bitboards> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::new();
    for fen in start_fens() {
        let Ok(mut board) = Bitboards::from_fen(fen) else {
            panic!("bad test FEN {fen}")
        };
        for _ in 0..per_fen {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            board = played(&board, pick(&mut rng, &moves));
            out.push(board.clone());
        }
    }
    out
}

#[test]
fn every_kernel_version_agrees_with_the_portable_one_bit_for_bit() {
    for simd in Simd::ALL {
        if !simd.is_supported() {
            eprintln!("note: this CPU or build has no {simd}; that version was not compared");
        }
    }
    let boards = positions(9, 80);
    let bucketed = Arch::plain(1024)
        .with_king_buckets(KingBuckets::MIRRORED_9)
        .with_output_buckets(8);
    let nets = [
        random_net(256, 10),
        bucketed_net(128, 11),
        extreme_net(Arch::plain(64), 12),
        extreme_net(bucketed, 13),
    ];
    for simd in Simd::supported().filter(|&s| s != Simd::Scalar) {
        for (i, net) in nets.iter().enumerate() {
            let net = Arc::new(net.clone());
            let Some(mut fast) = Nnue::new(net.clone()).with_simd_version(simd) else {
                panic!("{simd} was reported as supported")
            };
            let mut slow = Nnue::new(net.clone()).with_simd(false);
            assert_eq!((fast.simd(), slow.simd()), (simd, Simd::Scalar));
            let mut prev: Option<&Bitboards> = None;
            for board in &boards {
                // Incrementally where the boards follow each other, else fresh.
                if let Some(before) = prev {
                    fast.push(before, Move::NULL, board);
                    slow.push(before, Move::NULL, board);
                }
                let (fw, fb) = fast.accumulators(board);
                let (fw, fb) = (fw.to_vec(), fb.to_vec());
                let (sw, sb) = slow.accumulators(board);
                assert!(
                    fw == sw && fb == sb,
                    "{simd}, net {i}: accumulators at {}",
                    board.fen()
                );
                assert_eq!(
                    fast.evaluate(board),
                    slow.evaluate(board),
                    "{simd}, net {i}: score at {}",
                    board.fen()
                );
                prev = Some(board);
            }
        }
    }
}

// ---- Symmetry ----------------------------------------------------------------

fn check_flip<B: MoveGen>(net: &Arc<Network>, boards: &[Bitboards]) {
    let mut nnue = Nnue::new(net.clone());
    for b in boards {
        let setup: Setup = b.to_setup();
        let (Ok(board), Ok(flipped)) =
            (B::from_setup(&setup), B::from_setup(&setup.color_flipped()))
        else {
            panic!("flip of a legal position is legal: {}", b.fen())
        };
        assert_eq!(
            nnue.evaluate(&board),
            nnue.evaluate(&flipped),
            "{}: colour flip of {}",
            B::NAME,
            board.fen()
        );
    }
}

#[test]
fn colour_flipped_positions_score_the_same_for_the_side_to_move() {
    let boards = positions(15, 60);
    for net in [random_net(64, 14), bucketed_net(64, 14)] {
        let net = Arc::new(net);
        check_flip::<Bitboards>(&net, &boards);
        check_flip::<Board0x88>(&net, &boards);
        check_flip::<Mailbox>(&net, &boards);
    }
}

// Malformed networks and network files.
mod malformed;
