//! Round trips over random legal games (random tags, comments, NAGs and
//! variations) and readings of random text.

use super::*;

/// Picks values from a proptest-chosen list, cycling.
struct Chooser {
    choices: Vec<u32>,
    next: usize,
}

impl Chooser {
    fn pick(&mut self, n: usize) -> usize {
        if n == 0 || self.choices.is_empty() {
            return 0;
        }
        // Mixing in the position keeps a short list from repeating itself.
        let c = self.choices[self.next % self.choices.len()]
            ^ (self.next as u32).wrapping_mul(0x9e37_79b9);
        self.next += 1;
        c as usize % n
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.pick(100) < percent
    }
}

const STARTS: &[&str] = &[
    START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 3 57",
];

/// Tag values with the characters a writer must escape, and others.
const VALUES: &[&str] = &[
    "?",
    "Casual game",
    "He said \"hi\"",
    "back\\slash",
    "Ünïcödé ♞",
    "[bracket]",
    "semi;colon {brace}",
    "",
];

/// Comment characters: spaces (doubled too), and every PGN delimiter.
const COMMENT_CHARS: &[char] = &[
    'a', 'b', 'z', ' ', ' ', ' ', '%', '[', ']', '{', '}', ';', '(', ')', '"', '\\', 'é', '$', '1',
    '.', '-', 'E', '*',
];

fn comment(ch: &mut Chooser) -> String {
    let len = ch.pick(40);
    let text: String = (0..len)
        .map(|_| COMMENT_CHARS[ch.pick(COMMENT_CHARS.len())])
        .collect();
    text.trim().to_string()
}

fn notes(ch: &mut Chooser, board_before: &Bitboards, depth: u32) -> Annotations {
    let mut notes = Annotations::default();
    for _ in 0..3 {
        if !ch.chance(15) {
            break;
        }
        notes.nags.push(ch.pick(256) as u8);
    }
    if ch.chance(15) {
        notes.commands = commands(ch);
    }
    for _ in 0..2 {
        if ch.chance(20) {
            notes.comments.push(comment(ch));
        }
    }
    for _ in 0..2 {
        if depth < 3 && ch.chance(12) {
            notes
                .variations
                .push(variation(ch, board_before, depth + 1));
        }
    }
    notes
}

/// Random comment commands: clocks to the millisecond, evaluations in
/// centipawns or mates, with or without a depth, arrows and squares.
fn commands(ch: &mut Chooser) -> Commands {
    let square = |ch: &mut Chooser| fianchetto_board::Square::from_index_wrapping(ch.pick(64));
    let color = |ch: &mut Chooser| {
        [
            MarkColor::Red,
            MarkColor::Green,
            MarkColor::Yellow,
            MarkColor::Blue,
        ][ch.pick(4)]
    };
    let mut c = Commands::default();
    if ch.chance(50) {
        let ms = ch.pick(10_000_000) as u64 * if ch.chance(50) { 1000 } else { 1 };
        c.clock = Some(std::time::Duration::from_millis(ms));
    }
    if ch.chance(20) {
        c.elapsed = Some(std::time::Duration::from_millis(ch.pick(100_000) as u64));
    }
    if ch.chance(50) {
        let eval = if ch.chance(80) {
            Eval::centipawns(ch.pick(4001) as i32 - 2000)
        } else {
            Eval::mate(ch.pick(41) as i32 - 20)
        };
        c.eval = Some(if ch.chance(50) {
            eval.with_depth(ch.pick(60) as u32)
        } else {
            eval
        });
    }
    for _ in 0..ch.pick(3) {
        let (color, from, to) = (color(ch), square(ch), square(ch));
        c.arrows.push(Arrow { color, from, to });
    }
    for _ in 0..ch.pick(3) {
        let (color, square) = (color(ch), square(ch));
        c.squares.push(SquareMark { color, square });
    }
    c
}

/// A random move of `board`, now and then a null move (never in check).
fn random_move(ch: &mut Chooser, board: &Bitboards) -> Option<fianchetto_board::Move> {
    let legal = board.legal_moves();
    if legal.is_empty() {
        return None;
    }
    if !board.in_check() && ch.chance(3) {
        return Some(fianchetto_board::Move::NULL);
    }
    Some(legal[ch.pick(legal.len())])
}

/// Plays `mv` (perhaps a null move) on `board`.
fn play(board: &mut Bitboards, mv: fianchetto_board::Move) {
    if mv.is_null() {
        board.play_null();
    } else {
        board.play_unchecked(mv);
    }
}

fn variation(ch: &mut Chooser, start: &Bitboards, depth: u32) -> Variation {
    let mut v = Variation::default();
    if ch.chance(10) {
        v.comments.push(comment(ch));
    }
    if ch.chance(5) {
        v.commands = commands(ch);
    }
    let mut board = start.clone();
    for _ in 0..1 + ch.pick(6) {
        let Some(mv) = random_move(ch, &board) else {
            break;
        };
        let notes = notes(ch, &board, depth);
        v.moves.push(AnnotatedMove { mv, notes });
        play(&mut board, mv);
    }
    v
}

fn random_game(ch: &mut Chooser) -> G {
    let fen = STARTS[ch.pick(STARTS.len())];
    let start = Bitboards::from_fen(fen).unwrap_or_else(|e| panic!("{e}"));
    let mut tags = Tags::new();
    let result = [
        GameResult::WhiteWins,
        GameResult::BlackWins,
        GameResult::Draw,
        GameResult::Unknown,
    ][ch.pick(4)];
    for name in SEVEN_TAG_ROSTER {
        let value = if name == "Result" {
            result.as_str()
        } else {
            VALUES[ch.pick(VALUES.len())]
        };
        tags.set(name, value);
    }
    if fen != START_FEN {
        tags.set("SetUp", "1");
        tags.set("FEN", start.fen());
    }
    for name in ["Annotator", "ECO", "TimeControl", "Extra_Tag1"] {
        if ch.chance(30) {
            tags.set(name, VALUES[ch.pick(VALUES.len())]);
        }
    }
    let mut game = Game::new(start);
    let mut all_notes = Vec::new();
    let mut comments = Vec::new();
    if ch.chance(10) {
        comments.push(comment(ch));
    }
    for _ in 0..ch.pick(90) {
        let Some(mv) = random_move(ch, game.board()) else {
            break;
        };
        all_notes.push(notes(ch, game.board(), 0));
        if mv.is_null() {
            game.play_null().unwrap_or_else(|e| panic!("{e}"));
        } else {
            game.play_unchecked(mv);
        }
    }
    PgnGame {
        tags,
        game,
        comments,
        commands: Commands::default(),
        notes: all_notes,
        result: Some(result),
        warnings: Vec::new(),
    }
}

/// Pieces of PGN that move game boundaries and comments about.
const FRAGMENTS: [&str; 16] = [
    "[Event \"x\"]\n",
    "\n",
    "\n\n",
    "1. e4 ",
    "e5 ",
    "2. Nf3 ",
    "{c} ",
    "{over\n\nlines} ",
    "{open ",
    "} ",
    "; rest\n",
    "(1. d4 {v} d5) ",
    "Ke7 ",
    "* ",
    "1-0\n",
    "% escape\n",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Passing over comments never changes which games are read, their
    /// plies, or their errors and error lines.
    #[test]
    fn comments_passed_over_or_read_give_the_same_games(
        picks in prop::collection::vec(0..FRAGMENTS.len(), 0..60)
    ) {
        let text: String = picks.iter().map(|&i| FRAGMENTS[i]).collect();
        let (built, replayed) = both_readings(&text);
        prop_assert_eq!(replayed, built, "{:?}", text);
    }

    /// The main-line walk agrees with the game it walks, and every
    /// variation's SAN names its moves from the position it starts from.
    #[test]
    fn walks_agree_with_the_game(choices in prop::collection::vec(any::<u32>(), 1..400)) {
        let mut ch = Chooser { choices, next: 0 };
        let game = random_game(&mut ch);
        let sans = game.san_moves().unwrap_or_else(|e| panic!("{e}"));
        prop_assert_eq!(game.main_line().len(), sans.len());
        let mut stack: Vec<(Bitboards, &Variation)> = Vec::new();
        for (step, san) in game.main_line().zip(&sans) {
            prop_assert_eq!(&step.san().unwrap_or_else(|e| panic!("{e}")), san);
            for v in step.variations() {
                stack.push((step.before.clone(), v));
            }
        }
        while let Some((start, v)) = stack.pop() {
            let line = v.walk(&start).unwrap_or_else(|e| panic!("{e}"));
            prop_assert_eq!(line.len(), v.moves.len());
            for m in &line {
                if m.mv.is_null() {
                    prop_assert_eq!(m.san.as_str(), "--");
                } else {
                    prop_assert_eq!(fianchetto_movegen::parse_san(&m.before, &m.san), Ok(m.mv));
                }
                for sub in &m.notes.variations {
                    stack.push((m.before.clone(), sub));
                }
            }
        }
    }

    #[test]
    fn write_then_read_gives_the_same_game(choices in prop::collection::vec(any::<u32>(), 1..400)) {
        let mut ch = Chooser { choices, next: 0 };
        let game = random_game(&mut ch);
        let text = game.to_pgn().unwrap_or_else(|e| panic!("{e}"));
        let back = one(&text);
        prop_assert_eq!(&back.tags, &game.tags, "{}", text);
        prop_assert_eq!(back.game.start(), game.game.start());
        prop_assert_eq!(back.game.moves(), game.game.moves(), "{}", text);
        prop_assert_eq!(&back.comments, &game.comments, "{}", text);
        prop_assert_eq!(&back.notes, &game.notes, "{}", text);
        prop_assert_eq!(back.result, game.result);
        // Writing again gives the same text.
        prop_assert_eq!(back.to_pgn().unwrap_or_default(), text.clone());
        // Movetext lines stay within the width, except where a word that
        // must not start a line (a comment word starting with `%` or `[`)
        // or a `;` comment had to stay on it.
        for line in text.lines().filter(|l| !l.starts_with('[')) {
            prop_assert!(
                line.chars().count() <= LINE_WIDTH || line.contains(['%', '[', ';']),
                "{:?}", line
            );
        }
        // The lean replay agrees with the builder, variations checked or not.
        for check in [false, true] {
            let mut reader = Reader::new(text.as_bytes());
            let replayed = reader.read_game(&mut Replay::<Bitboards>::new().check_variations(check));
            match replayed {
                Ok(Some(r)) => {
                    prop_assert_eq!(r.plies as usize, game.game.moves().len());
                    prop_assert_eq!(&r.board, game.game.board());
                }
                other => prop_assert!(false, "{:?}", other),
            }
        }
    }

    #[test]
    fn several_games_in_one_stream(choices in prop::collection::vec(any::<u32>(), 1..400)) {
        let mut ch = Chooser { choices, next: 0 };
        let list: Vec<G> = (0..3).map(|_| random_game(&mut ch)).collect();
        let mut writer = Writer::new(Vec::new());
        for g in &list {
            writer.write_game(g).unwrap_or_else(|e| panic!("{e}"));
        }
        let bytes = writer.into_inner();
        let back: Vec<G> = Reader::from_buf_read(BufReader::with_capacity(7, &bytes[..]))
            .games::<Bitboards>()
            .map(|g| g.unwrap_or_else(|e| panic!("{e}")))
            .collect();
        prop_assert_eq!(back.len(), 3);
        for (a, b) in back.iter().zip(&list) {
            prop_assert_eq!(a.game.moves(), b.game.moves());
            prop_assert_eq!(&a.notes, &b.notes);
            prop_assert_eq!(&a.tags, &b.tags);
        }
    }

    /// Whatever the bytes, reading never panics, and every game it accepts
    /// writes and reads back to the same moves.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(
        prop::sample::select(b"1234567890.eNBRQKOxabcdfgh+#=-/ \n\r\t{}();$!?*[]\"\\%".to_vec()), 0..300)) {
        for game in Reader::new(&bytes[..]).games::<Bitboards>().flatten() {
            let text = game.to_pgn().unwrap_or_else(|e| panic!("{e}"));
            let back = one(&text);
            prop_assert_eq!(back.game.moves(), game.game.moves());
        }
    }
}
