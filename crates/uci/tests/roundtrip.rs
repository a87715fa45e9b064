//! Every command and reply that the types can hold is written as a line that
//! reads back as the same value: `parse(write(x)) == x`, for random values.

use fianchetto_board::{Role, Square};
use fianchetto_uci::{
    BestMove, Bound, BoundedScore, Command, CurrLine, Go, Id, Info, OptionKind, Position,
    Registration, Reply, Score, Status, UciMove, UciOption, Wdl,
};
use proptest::collection::vec;
use proptest::option::of;
use proptest::prelude::*;
use std::time::Duration;

fn square() -> impl Strategy<Value = Square> {
    (0u8..64).prop_map(|i| Square::new(i).expect("0..64 is a square"))
}

fn uci_move() -> impl Strategy<Value = UciMove> {
    let promotion = prop_oneof![
        Just(None),
        Just(Some(Role::Knight)),
        Just(Some(Role::Bishop)),
        Just(Some(Role::Rook)),
        Just(Some(Role::Queen)),
    ];
    (square(), square(), promotion).prop_map(|(from, to, promotion)| UciMove::Normal {
        from,
        to,
        promotion,
    })
}

fn moves() -> impl Strategy<Value = Vec<UciMove>> {
    vec(uci_move(), 0..6)
}

/// Names and free text: words of letters, digits and punctuation, single
/// spaces between them (the wire keeps no other spacing), and none of the
/// keywords that end a name.
fn text(keywords: &'static [&'static str]) -> impl Strategy<Value = String> {
    vec("[A-Za-z0-9_./<>-]{1,8}", 1..4).prop_filter_map("a keyword", move |words| {
        (!words.iter().any(|w| keywords.contains(&w.as_str()))).then(|| words.join(" "))
    })
}

fn ms() -> impl Strategy<Value = Option<Duration>> {
    of((0u64..10_000_000).prop_map(Duration::from_millis))
}

fn go() -> impl Strategy<Value = Go> {
    (
        (moves(), any::<bool>(), ms(), ms(), ms(), ms()),
        (
            of(any::<u32>()),
            of(any::<u32>()),
            of(any::<u64>()),
            of(any::<u32>()),
        ),
        (ms(), any::<bool>(), of(1u32..10)),
    )
        .prop_map(
            |(
                (searchmoves, ponder, wtime, btime, winc, binc),
                (movestogo, depth, nodes, mate),
                (movetime, infinite, perft),
            )| Go {
                searchmoves,
                ponder,
                wtime,
                btime,
                winc,
                binc,
                movestogo,
                depth,
                nodes,
                mate,
                movetime,
                infinite,
                perft,
            },
        )
}

fn command() -> impl Strategy<Value = Command> {
    // A FEN's fields never read `moves`; the engine judges the rest.
    let fen = of(text(&["moves"]));
    prop_oneof![
        Just(Command::Uci),
        any::<bool>().prop_map(Command::Debug),
        Just(Command::IsReady),
        (text(&["value"]), of(text(&[])))
            .prop_map(|(name, value)| Command::SetOption { name, value }),
        Just(Command::Register(Registration::Later)),
        (of(text(&["code", "later"])), of(text(&["name"])))
            .prop_filter("not later", |(n, c)| n.is_some() || c.is_some())
            .prop_map(|(name, code)| Command::Register(Registration::Now { name, code })),
        Just(Command::UciNewGame),
        (fen, moves()).prop_map(|(fen, moves)| Command::Position(Position { fen, moves })),
        go().prop_map(Command::Go),
        Just(Command::Stop),
        Just(Command::PonderHit),
        Just(Command::Quit),
        Just(Command::Display),
        Just(Command::Eval),
    ]
}

fn score() -> impl Strategy<Value = BoundedScore> {
    let value = prop_oneof![
        any::<i32>().prop_map(Score::Cp),
        any::<i32>().prop_map(Score::Mate)
    ];
    let bound = prop_oneof![Just(Bound::Exact), Just(Bound::Lower), Just(Bound::Upper)];
    (value, bound).prop_map(|(score, bound)| BoundedScore { score, bound })
}

fn info() -> impl Strategy<Value = Info> {
    (
        (
            of(any::<u32>()),
            of(any::<u32>()),
            of(any::<u32>()),
            of(score()),
        ),
        (
            of((any::<u32>(), any::<u32>(), any::<u32>())),
            of(any::<u64>()),
            of(any::<u64>()),
            of(any::<u32>()),
        ),
        (of(any::<u64>()), of(any::<u64>()), of(any::<u32>()), ms()),
        (of(uci_move()), of(any::<u32>()), moves(), moves()),
        (of((of(any::<u32>()), moves())), of(text(&[]))),
    )
        .prop_map(
            |(
                (depth, seldepth, multipv, score),
                (wdl, nodes, nps, hashfull),
                (tbhits, sbhits, cpuload, time),
                (currmove, currmovenumber, pv, refutation),
                (currline, string),
            )| Info {
                depth,
                seldepth,
                multipv,
                score,
                wdl: wdl.map(|(win, draw, loss)| Wdl { win, draw, loss }),
                nodes,
                nps,
                hashfull,
                tbhits,
                sbhits,
                cpuload,
                time,
                currmove,
                currmovenumber,
                pv,
                refutation,
                currline: currline.map(|(cpu, moves)| CurrLine { cpu, moves }),
                string,
            },
        )
}

fn option() -> impl Strategy<Value = UciOption> {
    const KEYS: &[&str] = fianchetto_uci::OPTION_KEYWORDS;
    let kind = prop_oneof![
        any::<bool>().prop_map(|default| OptionKind::Check { default }),
        (any::<i64>(), any::<i64>(), any::<i64>())
            .prop_map(|(default, min, max)| OptionKind::Spin { default, min, max }),
        (text(KEYS), vec(text(KEYS), 0..4))
            .prop_map(|(default, vars)| OptionKind::Combo { default, vars }),
        Just(OptionKind::Button),
        prop_oneof![Just(String::new()), text(KEYS)]
            .prop_filter("<empty> is the empty string", |d| d != "<empty>")
            .prop_map(|default| OptionKind::String { default }),
    ];
    (text(&["type"]), kind).prop_map(|(name, kind)| UciOption { name, kind })
}

fn status() -> impl Strategy<Value = Status> {
    prop_oneof![
        Just(Status::Checking),
        Just(Status::Ok),
        Just(Status::Error)
    ]
}

fn reply() -> impl Strategy<Value = Reply> {
    prop_oneof![
        text(&[]).prop_map(|n| Reply::Id(Id::Name(n))),
        text(&[]).prop_map(|a| Reply::Id(Id::Author(a))),
        Just(Reply::UciOk),
        Just(Reply::ReadyOk),
        (prop_oneof![uci_move(), Just(UciMove::Null)], of(uci_move()))
            .prop_map(|(mv, ponder)| Reply::BestMove(BestMove { mv, ponder })),
        status().prop_map(Reply::CopyProtection),
        status().prop_map(Reply::Registration),
        info().prop_map(|i| Reply::Info(Box::new(i))),
        option().prop_map(Reply::Option),
    ]
}

proptest! {
    #[test]
    fn commands_round_trip(cmd in command()) {
        let line = cmd.to_string();
        prop_assert_eq!(line.parse::<Command>(), Ok(cmd), "{}", line);
    }

    #[test]
    fn replies_round_trip(reply in reply()) {
        let line = reply.to_string();
        prop_assert_eq!(line.parse::<Reply>(), Ok(reply), "{}", line);
    }

    #[test]
    fn no_line_panics(line in "[ -~]{0,80}") {
        let _ = line.parse::<Command>();
        let _ = line.parse::<Reply>();
    }
}
