//! Each term alone on hand-made positions, the BuhoChess numbers checked by
//! hand against the thesis, and endgame knowledge. Every check is generic
//! over the board backend: a new backend is one line per `#[test]`.

use fianchetto_board::{Bitboards, Board, Board0x88, Mailbox};
use fianchetto_eval::{
    BuhoChess, Classical, Evaluator, Material, MaterialValues, Params, Preset, Score, Tapered, Term,
};

fn board<B: Board>(fen: &str) -> B {
    match B::from_fen(fen) {
        Ok(b) => b,
        Err(e) => panic!("bad test FEN {fen}: {e}"),
    }
}

/// White's and black's `[mg, eg]` for `term` with only the weights `set`
/// (applied to an all-zero set).
fn only<B: Board>(fen: &str, term: Term, set: impl FnOnce(&mut Params)) -> (Tapered, Tapered) {
    let mut p = Params::zero();
    set(&mut p);
    let b = board::<B>(fen);
    let br = Classical::with_params(p).breakdown(&b);
    (br.white(term), br.black(term))
}

fn pawn_terms<B: Board>() {
    // d4 has no neighbour: isolated; a2/b2 support each other.
    let (w, b) = only::<B>(
        "4k3/8/8/8/3P4/8/PP6/4K3 w - - 0 1",
        Term::PawnStructure,
        |p| p.pawn_isolated = [-10, -20],
    );
    assert_eq!((w, b), ([-10, -20], [0, 0]));
    // c3 has an own pawn in front of it: one doubled pawn (c4 is not).
    let (w, _) = only::<B>(
        "4k3/8/8/8/2P5/2P5/8/4K3 w - - 0 1",
        Term::PawnStructure,
        |p| p.pawn_doubled = [-7, -9],
    );
    assert_eq!(w, [-7, -9]);
    // d3 is behind its only neighbour c4, and e5 guards its stop square d4:
    // backward and exposed. c4 is not backward; black's e5 is isolated.
    let fen = "4k3/8/8/4p3/2P5/3P4/8/4K3 w - - 0 1";
    let (w, b) = only::<B>(fen, Term::PawnStructure, |p| {
        p.pawn_backward = [-8, -8];
        p.pawn_backward_exposed = [-3, -5];
    });
    assert_eq!((w, b), ([-11, -13], [0, 0]));
    // Chain: c4 is defended by d3 (one link, on rank 4); no phalanx.
    let (w, _) = only::<B>(fen, Term::PawnStructure, |p| {
        p.pawn_chain = [5, 6];
        p.pawn_phalanx = [100, 100];
        p.pawn_connected[3] = [1, 2];
    });
    assert_eq!(w, [5 + 1, 6 + 2]);
    // Phalanx: d4 and e4 side by side, both connected on rank 4.
    let (w, _) = only::<B>(
        "4k3/8/8/8/3PP3/8/8/4K3 w - - 0 1",
        Term::PawnStructure,
        |p| {
            p.pawn_phalanx = [3, 4];
            p.pawn_connected[3] = [1, 1];
        },
    );
    assert_eq!(w, [2 * (3 + 1), 2 * (4 + 1)]);
}

fn passed_pawns<B: Board>() {
    // A passed pawn on the 6th (relative rank index 5), path free.
    let fen = "4k3/8/3P4/8/8/8/8/4K3 w - - 0 1";
    let (w, b) = only::<B>(fen, Term::PassedPawns, |p| {
        p.passed_rank[5] = [7, 11];
        p.passed_free[5] = [1, 2];
    });
    assert_eq!((w, b), ([8, 13], [0, 0]));
    // King distances to the stop square d7, times (5 - 2): black's king on
    // e8 is 1 away, white's on e1 is 6 (capped to 5).
    let (w, _) = only::<B>(fen, Term::PassedPawns, |p| {
        p.passed_king_enemy = 4;
        p.passed_king_own = -1;
    });
    assert_eq!(w, [0, 3 * (4 - 5)]);
    // An enemy pawn on e7, diagonally ahead, stops it being passed (and d6
    // stops e7 in turn).
    let (w, b) = only::<B>(
        "4k3/4p3/3P4/8/8/8/8/4K3 w - - 0 1",
        Term::PassedPawns,
        |p| p.passed_rank = [[50, 50]; 8],
    );
    assert_eq!((w, b), ([0, 0], [0, 0]));
    // A blocked passer loses the free-path bonus only.
    let (w, _) = only::<B>("3k4/8/3P4/8/8/8/8/4K3 w - - 0 1", Term::PassedPawns, |p| {
        p.passed_rank[5] = [7, 11];
        p.passed_free[5] = [1, 2];
    });
    assert_eq!(w, [7, 11]);
    let (w, _) = only::<B>(
        "4k3/3n4/3P4/8/8/8/8/4K3 w - - 0 1",
        Term::PassedPawns,
        |p| {
            p.passed_rank[5] = [7, 11];
            p.passed_free[5] = [1, 2];
        },
    );
    assert_eq!(w, [7, 11]);
}

fn pieces<B: Board>() {
    // Bishops on both colours (c1 dark, f1 light) make a pair; c1 and e3
    // (both dark) do not.
    let pair = |p: &mut Params| p.bishop_pair = [30, 50];
    assert_eq!(
        only::<B>("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", Term::Pieces, pair).0,
        [30, 50]
    );
    assert_eq!(
        only::<B>("4k3/8/8/8/8/4B3/8/2B1K3 w - - 0 1", Term::Pieces, pair).0,
        [0, 0]
    );
    // h1 on an open file, a1 behind its own a2 pawn.
    let files = |p: &mut Params| {
        p.rook_open = [20, 10];
        p.rook_semi_open = [5, 3];
    };
    assert_eq!(
        only::<B>("4k3/8/8/8/8/8/P7/R3K2R w - - 0 1", Term::Pieces, files).0,
        [20, 10]
    );
    // With a black pawn on h7 the h-file is only semi-open for white.
    assert_eq!(
        only::<B>("4k3/7p/8/8/8/8/P7/R3K2R w - - 0 1", Term::Pieces, files).0,
        [5, 3]
    );
    // Seventh rank.
    assert_eq!(
        only::<B>("4k3/R7/8/8/8/8/8/4K3 w - - 0 1", Term::Pieces, |p| p
            .rook_seventh =
            [9, 19])
        .0,
        [9, 19]
    );
    // A knight on e5, defended by d4, that no black pawn can chase: outpost.
    let outpost = |p: &mut Params| p.knight_outpost = [20, 10];
    assert_eq!(
        only::<B>("4k3/8/8/4N3/3P4/8/8/4K3 w - - 0 1", Term::Pieces, outpost).0,
        [20, 10]
    );
    assert_eq!(
        only::<B>("4k3/5p2/8/4N3/3P4/8/8/4K3 w - - 0 1", Term::Pieces, outpost).0,
        [0, 0]
    );
}

fn mobility<B: Board>() {
    // A knight in the corner reaches b3 and c2; a black pawn on d3 guards
    // c2, leaving one safe square. (The h7 pawn keeps it from being a dead
    // draw, which is scored 0 without terms.)
    let set = |p: &mut Params| {
        for (i, v) in p.mobility_knight.iter_mut().enumerate() {
            *v = [i as i32, 10 * i as i32];
        }
    };
    assert_eq!(
        only::<B>("4k3/7p/8/8/8/8/8/N3K3 w - - 0 1", Term::Mobility, set).0,
        [2, 20]
    );
    assert_eq!(
        only::<B>("4k3/7p/8/8/8/3p4/8/N3K3 w - - 0 1", Term::Mobility, set).0,
        [1, 10]
    );
}

fn king_safety<B: Board>() {
    // Classical shield: g1 king behind f2 g2 h2 (rank index 1) against f2
    // g3 h4 (1, 2, 3).
    let set = |p: &mut Params| {
        p.king_shield = [
            [-30, 0],
            [0, 0],
            [-8, 0],
            [-18, 0],
            [0, 0],
            [0, 0],
            [0, 0],
            [0, 0],
        ]
    };
    assert_eq!(
        only::<B>("6k1/8/8/8/8/8/5PPP/6K1 w - - 0 1", Term::KingSafety, set).0,
        [0, 0]
    );
    assert_eq!(
        only::<B>("6k1/8/8/8/7P/6P1/5P2/6K1 w - - 0 1", Term::KingSafety, set).0,
        [-26, 0]
    );
    // Without the g-pawn: -30 for the missing one, and the g-file is open.
    let (w, _) = only::<B>("6k1/8/8/8/8/8/5P1P/6K1 w - - 0 1", Term::KingSafety, |p| {
        set(p);
        p.king_open_file = [-20, 0];
    });
    assert_eq!(w, [-50, 0]);
    // Attackers on the king zone: a queen and a knight (2 attackers).
    let (w, _) = only::<B>(
        "6k1/8/8/8/8/5n2/5PPq/6K1 w - - 0 1",
        Term::KingSafety,
        |p| {
            p.king_attack_weight = [0, 20, 20, 40, 80, 0];
            p.king_attack_scale = [0, 0, 50, 75, 88, 94, 97, 99];
        },
    );
    assert_eq!(w, [-(100 * 50 / 100), 0]);
}

/// BuhoChess, every number worked out by hand from the thesis' weights.
fn buhochess_numbers<B: Board>() {
    let mut e = BuhoChess::default();

    // Start position, each side:
    //   material 8·100 + 2·300 + 2·310 + 2·500 + 900 = 3920
    //   tables: d2/e2 pawns -40·2, knights b1/g1 -30·2, bishops c1/f1 -20·2,
    //     rooks a1/h1 -6·2, queen d1 -8, king e1 0 (endgame table: 30)
    //     = -200 (eg -170)
    //   pieces: bishop pair +25, two bishops on the first rank -30 = -5
    //   control: protected pieces: the 8 pawns and b1 c1 d1 f1 g1 = 13·10;
    //     attacked squares: all of ranks 2 and 3 and b1–g1 = 22·5 = 110
    //   king: rights kept (no castling term), no slider lines, d/e/f not open.
    let b = board::<B>(fianchetto_board::START_FEN);
    let br = e.breakdown(&b);
    for color in [br.white(Term::Material), br.black(Term::Material)] {
        assert_eq!(color, [3920, 3920]);
    }
    assert_eq!(br.white(Term::PieceSquare), [-200, -170]);
    assert_eq!(br.white(Term::Pieces), [-5, -5]);
    assert_eq!(br.white(Term::Control), [240, 240]);
    assert_eq!(br.white(Term::KingSafety), [0, 0]);
    assert_eq!(br.score, 0);

    // 1. e4, black to move. White changes: pawn table e4 +8 instead of
    // e2's -40 (-152, eg -122); centre pawn +40; protected: e4 is not, so
    // 7 pawns + 5 pieces = 120; attacked: the 22 plus d5 f5 (pawn), c4 b5
    // a6 (Bf1), g4 h5 (Qd1) = 29·5 = 145.
    // White mg = 3920 - 152 - 5 + 40 + 120 + 145 = 4068; black 3920 - 200 -
    // 5 + 130 + 110 = 3955. Middlegame (both > 1300): 113 for white, -113
    // for black to move.
    let b = board::<B>("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    let br = e.breakdown(&b);
    assert_eq!(br.white(Term::PieceSquare), [-152, -122]);
    assert_eq!(br.white(Term::Control), [40 + 120 + 145; 2]);
    assert_eq!(br.total()[0], 113);
    assert_eq!(e.evaluate(&b), Score::cp(-113));

    // K+P v K: both sides under 1300 cp, so the endgame weights apply.
    // White: pawn 100, d4 table 8, king e1 endgame table 30, centre pawn
    // +40, passed +20, isolated -20, attacked c5 e5 d1 f1 d2 e2 f2 = 7·5.
    //   = 213.
    // Black: king e6 endgame table 50, attacked 8 squares around it = 40.
    //   = 90.   213 - 90 = 123 for white to move.
    let b = board::<B>("8/8/4k3/8/3P4/8/8/4K3 w - - 0 1");
    let br = e.breakdown(&b);
    assert_eq!(br.phase, 0);
    assert_eq!(br.white(Term::PawnStructure), [-20, -20]);
    assert_eq!(br.white(Term::PassedPawns), [20, 20]);
    assert_eq!(e.evaluate(&b), Score::cp(123));

    // Castled kings. White (2 rooks + 3 pawns = 1300, not under 1300, so
    // middlegame): king g1 castled +50, g3 moved one square -10; f2 and h2
    // home; black pawns on f, g and h files, none on white's 3rd/4th rank.
    // Rooks a1 and f1 on one rank with nothing between: +40; a1 on the
    // open a-file +15. Black king g8 castled +50, shield intact, no white
    // slider on a line to g8.
    let b = board::<B>("6k1/5ppp/8/8/8/6P1/5P1P/R4RK1 w - - 0 1");
    let br = e.breakdown(&b);
    assert_eq!(br.phase, 24);
    assert_eq!(br.white(Term::KingSafety), [40, 0]);
    assert_eq!(br.black(Term::KingSafety), [50, 0]);
    assert_eq!(br.white(Term::Pieces), [55, 55]);

    // Lost castling (-60), a rook lined up with the king through a pawn
    // (-8) and an uncastled king with the d- and f-files open (-22·2):
    // white king e1 without rights; black rook e8 behind the e7 pawn.
    let b = board::<B>("1k2r3/pp2p2p/8/8/8/8/PP2P2P/4K3 w - - 0 1");
    let br = e.breakdown(&b);
    assert_eq!(br.white(Term::KingSafety), [-60 - 8 - 44, 0]);
}

fn material<B: Board>() {
    // White: a knight and a bishop for a rook.
    let b = board::<B>("r3k3/8/8/8/8/8/8/1NB1K3 w - - 0 1");
    assert_eq!(Material::classic().evaluate(&b), Score::cp(100));
    assert_eq!(Material::greenblatt().evaluate(&b), Score::cp(175));
    assert_eq!(
        Material::new(MaterialValues::BUHOCHESS).evaluate(&b),
        Score::cp(110)
    );
    assert_eq!(Material::classic().breakdown(&b).score, 100);
}

fn endgames<B: Board>() {
    let mut c = Classical::default();
    // KBN v K is a win…
    let win = c.evaluate(&board::<B>("8/8/8/4k3/8/8/8/KBN5 w - - 0 1"));
    assert!(win > Score::cp(900), "KBN v K: {win}");
    // …and the lone king is worse off next to a corner of the bishop's
    // colour than near a wrong one, the kings equally far apart: a light
    // bishop (f1) mates in a8 or h1, a dark one (f2) in a1 or h8.
    for (right, wrong) in [
        ("8/1k6/8/8/3K4/8/8/5BN1", "8/8/8/8/3K4/8/8/1k3BN1"),
        ("8/8/8/3K4/8/8/1k3B2/6N1", "1k6/8/8/3K4/8/8/5B2/6N1"),
    ] {
        let right = c.evaluate(&board::<B>(&format!("{right} w - - 0 1")));
        let wrong = c.evaluate(&board::<B>(&format!("{wrong} w - - 0 1")));
        assert!(right > wrong, "right corner {right}, wrong {wrong}");
    }
    // KB v K and KN v K: no mating material, 0 for every preset.
    for fen in [
        "8/8/8/4k3/8/8/8/KB6 w - - 0 1",
        "8/8/8/4k3/8/8/8/KN6 b - - 0 1",
    ] {
        for p in Preset::ALL {
            assert_eq!(
                p.evaluator().evaluate(&board::<B>(fen)),
                Score::DRAW,
                "{p} on {fen}"
            );
        }
    }
    // Two knights cannot force mate; a rook against a bishop is drawish.
    assert_eq!(
        c.evaluate(&board::<B>("8/8/8/4k3/8/8/8/KNN5 w - - 0 1")),
        Score::DRAW
    );
    let rb = c.evaluate(&board::<B>("8/8/8/4k3/8/2b5/8/KR6 w - - 0 1"));
    assert!(rb > Score::ZERO && rb < Score::cp(60), "KR v KB: {rb}");
    // Opposite-coloured bishops scale a two-pawn edge down (by a tuned
    // factor: 64/128 by hand, 44/128 after Texel).
    let ocb = c.breakdown(&board::<B>("4k3/4b3/8/3P4/2P5/8/8/4KB2 w - - 0 1"));
    let same = c.breakdown(&board::<B>("4k3/3b4/8/3P4/2P5/8/8/4KB2 w - - 0 1"));
    let scale = Params::classical().scale_opposite_bishops;
    assert!(scale > 0 && scale < 128, "{scale}");
    assert_eq!((ocb.scale, same.scale), (scale, 128));
    // KQ v K: the mop-up term pushes the lone king to the edge.
    let centre = c.evaluate(&board::<B>("8/8/8/4k3/8/8/8/KQ6 w - - 0 1"));
    let edge = c.evaluate(&board::<B>("7k/8/8/8/8/8/8/KQ6 w - - 0 1"));
    assert!(edge > centre);
}

fn presets<B: Board>() {
    for p in Preset::ALL {
        assert_eq!(p.name().parse::<Preset>(), Ok(p));
        assert_eq!(p.name().to_uppercase().parse::<Preset>(), Ok(p));
        assert_eq!(p.to_string(), p.name());
    }
    assert!("nnue".parse::<Preset>().is_err());
    // The start position is level (Classical: the tempo bonus only).
    let b = B::startpos();
    assert_eq!(Preset::Material.evaluator().evaluate(&b), Score::ZERO);
    assert_eq!(Preset::BuhoChess.evaluator().evaluate(&b), Score::ZERO);
    assert_eq!(
        Preset::Classical.evaluator().evaluate(&b),
        Score::cp(Params::classical().tempo[0])
    );
    // Classical knows a healthy extra pawn from a weak one.
    let mut c = Classical::default();
    let up = c.evaluate(&board::<B>("4k3/ppp5/8/8/8/8/PPPP4/4K3 w - - 0 1"));
    assert!(up > Score::cp(50), "{up}");
}

#[test]
fn pawn_terms_bitboards() {
    pawn_terms::<Bitboards>();
}
#[test]
fn passed_pawns_bitboards() {
    passed_pawns::<Bitboards>();
}
#[test]
fn pieces_bitboards() {
    pieces::<Bitboards>();
}
#[test]
fn mobility_bitboards() {
    mobility::<Bitboards>();
}
#[test]
fn king_safety_bitboards() {
    king_safety::<Bitboards>();
}
#[test]
fn buhochess_numbers_bitboards() {
    buhochess_numbers::<Bitboards>();
}
#[test]
fn material_bitboards() {
    material::<Bitboards>();
}
#[test]
fn endgames_bitboards() {
    endgames::<Bitboards>();
}
#[test]
fn presets_bitboards() {
    presets::<Bitboards>();
}
#[test]
fn pawn_terms_0x88() {
    pawn_terms::<Board0x88>();
}
#[test]
fn pawn_terms_mailbox() {
    pawn_terms::<Mailbox>();
}
#[test]
fn passed_pawns_0x88() {
    passed_pawns::<Board0x88>();
}
#[test]
fn passed_pawns_mailbox() {
    passed_pawns::<Mailbox>();
}
#[test]
fn pieces_0x88() {
    pieces::<Board0x88>();
}
#[test]
fn pieces_mailbox() {
    pieces::<Mailbox>();
}
#[test]
fn mobility_0x88() {
    mobility::<Board0x88>();
}
#[test]
fn mobility_mailbox() {
    mobility::<Mailbox>();
}
#[test]
fn king_safety_0x88() {
    king_safety::<Board0x88>();
}
#[test]
fn king_safety_mailbox() {
    king_safety::<Mailbox>();
}
#[test]
fn buhochess_numbers_0x88() {
    buhochess_numbers::<Board0x88>();
}
#[test]
fn buhochess_numbers_mailbox() {
    buhochess_numbers::<Mailbox>();
}
#[test]
fn material_0x88() {
    material::<Board0x88>();
}
#[test]
fn material_mailbox() {
    material::<Mailbox>();
}
#[test]
fn endgames_0x88() {
    endgames::<Board0x88>();
}
#[test]
fn endgames_mailbox() {
    endgames::<Mailbox>();
}
#[test]
fn presets_0x88() {
    presets::<Board0x88>();
}
#[test]
fn presets_mailbox() {
    presets::<Mailbox>();
}
