//! PGN (Portable Game Notation): reading and writing chess games.
//!
//! - [`Reader`] streams games from any [`std::io::Read`] or
//!   [`std::io::BufRead`] in constant memory and reports each to a
//!   [`Visitor`], which sees tags, SAN moves, NAGs, comments, variations and
//!   the result, and can skip variations or whole games. A malformed game is
//!   a [`PgnError`] naming the game number, line and token; reading goes on
//!   with the next game.
//! - [`GameBuilder`] is the visitor that makes [`PgnGame`]s: the tags, the
//!   main line as a [`Game`](crate::Game) resolved move by move against its
//!   positions, comments, NAGs and variations ([`Reader::games`] iterates
//!   over them). [`PgnGame::main_line`] walks the main line (positions,
//!   move, SAN and annotations of each move) and [`Variation::walk`] a
//!   variation. [`Replay`] only plays the main line, for speed.
//! - [`Writer`] and [`PgnGame::to_pgn`] write export format: the Seven Tag
//!   Roster in order, then the other tags, then movetext with move numbers,
//!   NAGs, comments and variations, broken at 80 columns.
//!
//! The submodules each do one job: `lines` (numbered lines in bounded
//! memory), `lexer` (tokens), `reader` (the game grammar and
//! resynchronisation), `visitor`, `tags`, `game` (the game model and its
//! builder), `walk` (the main line and variations move by move), `replay` and
//! `writer`.
//!
//! ```
//! use fianchetto_board::{Bitboards, Board};
//! use fianchetto_movegen::pgn::{GameResult, Reader};
//! use fianchetto_movegen::MoveGen;
//!
//! let pgn = r#"[Event "Paris Opera"]
//! [Site "Paris FRA"]
//! [Date "1858.??.??"]
//! [Round "?"]
//! [White "Paul Morphy"]
//! [Black "Duke Karl / Count Isouard"]
//! [Result "1-0"]
//!
//! 1. e4 e5 2. Nf3 d6 3. d4 Bg4 $6 {This is a weak move already.} 4. dxe5 Bxf3
//! 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5
//! 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7
//! 16. Qb8+ Nxb8 17. Rd8# 1-0
//! "#;
//! let mut games = Reader::new(pgn.as_bytes()).games::<Bitboards>();
//! let game = games.next().ok_or("no game")??;
//! assert_eq!(game.tags.get("White"), Some("Paul Morphy"));
//! assert_eq!(game.game.moves().len(), 33);
//! assert!(game.game.board().is_checkmate());
//! assert_eq!(game.notes[5].nags, [6]);
//! assert_eq!(game.notes[5].comments, ["This is a weak move already."]);
//! assert_eq!(game.result, Some(GameResult::WhiteWins));
//!
//! // Written back in export format, and read again to the same game.
//! let text = game.to_pgn()?;
//! assert!(text.contains("3. d4 Bg4 $6 { This is a weak move already. } 4. dxe5 Bxf3"));
//! let again: fianchetto_movegen::pgn::PgnGame<Bitboards> = text.parse()?;
//! assert_eq!(again.game.moves(), game.game.moves());
//! assert_eq!(again.tags, game.tags);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod commands;
mod error;
mod game;
mod lexer;
mod lines;
mod reader;
mod replay;
mod start;
mod tags;
mod visitor;
mod walk;
mod writer;

pub use commands::{Arrow, Commands, Eval, EvalScore, MarkColor, SquareMark};
pub use error::{PgnError, PgnErrorKind, PgnWarning, PgnWarningKind, ReadError};
pub use game::{AnnotatedMove, Annotations, GameBuilder, PgnGame, Variation};
pub use reader::{parse_game, Games, Reader};
pub use replay::{Replay, Replayed};
pub use start::read_move;
pub use tags::{Tags, SEVEN_TAG_ROSTER};
pub use visitor::{Flow, GameResult, ParseResultError, Visit, Visitor};
pub use walk::{MainLine, MainLineMove, VariationMove};
pub use writer::{WriteError, Writer, LINE_WIDTH};
