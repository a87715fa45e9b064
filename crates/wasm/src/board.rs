//! `Board`: a game for JavaScript — a position with its history, legal
//! moves, moves in SAN or UCI, the rules, perft and pictures.

use crate::js::{error, move_strings, split_moves, Obj, Options};
use fianchetto_board::svg::{parse_move_squares, Arrow, BoardSvg, SquareMark};
use fianchetto_board::{diagram, Bitboards, Board as _, CastlingMode, Color, Move, Square};
use fianchetto_movegen::pgn::{parse_game, read_move, PgnGame};
use fianchetto_movegen::{
    divide, perft, san_list, to_san, to_uci, Game, MoveGen, Outcome, UciMove,
};
use js_sys::Array;
use wasm_bindgen::prelude::*;

/// The deepest perft `Board.perft` and `Board.divide` run: 10 plies from the
/// start position is 69 352 859 712 648 leaves, far beyond a page's patience.
const MAX_PERFT_DEPTH: u32 = 10;

/// A chess game: a start position, the moves played from it, and the
/// position they lead to. Moves are written in UCI (`e2e4`, `e7e8q`) or SAN
/// (`e4`, `Nf3`, `O-O`, `exd8=Q+`); methods that take a move take either.
#[wasm_bindgen]
#[derive(Clone)]
pub struct Board {
    game: Game<Bitboards>,
}

#[wasm_bindgen]
impl Board {
    /// The game starting from `fen` (the standard start position when
    /// omitted); a malformed or impossible FEN throws an `Error` naming
    /// what is wrong.
    #[wasm_bindgen(constructor)]
    pub fn new(fen: Option<String>) -> Result<Board, JsError> {
        let game = match fen {
            Some(fen) => Game::from_fen(&fen).map_err(error)?,
            None => Game::new(Bitboards::startpos()),
        };
        Ok(Board { game })
    }

    /// The main line of the first game of a PGN text, as a `Board` (its
    /// start position is the `FEN` tag's, if any). A malformed game throws.
    #[wasm_bindgen(js_name = fromPgn)]
    pub fn from_pgn(pgn: &str) -> Result<Board, JsError> {
        let game: PgnGame<Bitboards> = parse_game(pgn).map_err(error)?;
        Ok(Board { game: game.game })
    }

    /// The current position in FEN.
    pub fn fen(&self) -> String {
        self.game.board().fen()
    }

    /// The start position in FEN.
    #[wasm_bindgen(js_name = startFen)]
    pub fn start_fen(&self) -> String {
        self.game.start().fen()
    }

    /// The side to move: `"w"` or `"b"`.
    pub fn turn(&self) -> String {
        self.game.board().turn().char().to_string()
    }

    /// The legal moves in UCI notation.
    #[wasm_bindgen(js_name = legalMoves, unchecked_return_type = "string[]")]
    pub fn legal_moves(&self) -> Array {
        let board = self.game.board();
        let legal = board.legal_moves();
        // One string for the whole list (see `split_moves`); a UCI move is
        // at most 5 characters.
        let mut joined = String::with_capacity(legal.len() * 6);
        for (i, &m) in legal.iter().enumerate() {
            if i > 0 {
                joined.push(' ');
            }
            // Writing to a String never fails.
            let _ = UciMove::from_move(m, board.castling(), CastlingMode::Standard)
                .write_to(&mut joined);
        }
        split_moves(&joined)
    }

    /// The legal moves in SAN, in the order of `legalMoves()`.
    #[wasm_bindgen(js_name = legalMovesSan, unchecked_return_type = "string[]")]
    pub fn legal_moves_san(&self) -> Array {
        let mut joined = String::new();
        san_list(self.game.board(), &mut joined);
        split_moves(&joined)
    }

    /// Whether `move` (SAN or UCI) is legal here.
    #[wasm_bindgen(js_name = isLegal)]
    pub fn is_legal(&self, r#move: &str) -> bool {
        self.parse(r#move).is_ok()
    }

    /// Plays `move` (SAN or UCI) and returns it in UCI; an illegal or
    /// malformed move throws and changes nothing.
    pub fn push(&mut self, r#move: &str) -> Result<String, JsError> {
        let mv = self.parse(r#move)?;
        let uci = self.uci(mv);
        self.game.play(mv).map_err(error)?;
        Ok(uci)
    }

    /// Takes back the last move and returns it in UCI (`undefined` at the
    /// start of the game).
    pub fn undo(&mut self) -> Option<String> {
        let mv = self.game.undo()?;
        Some(self.uci_in(self.game.board(), mv))
    }

    /// `move` (SAN or UCI) in SAN, with its check or mate suffix.
    pub fn san(&self, r#move: &str) -> Result<String, JsError> {
        let mv = self.parse(r#move)?;
        to_san(self.game.board(), mv).map_err(error)
    }

    /// `move` (SAN or UCI) in UCI.
    #[wasm_bindgen(js_name = toUci)]
    pub fn to_uci_text(&self, r#move: &str) -> Result<String, JsError> {
        self.parse(r#move).map(|m| self.uci(m))
    }

    /// The moves played since the start position, in UCI.
    #[wasm_bindgen(unchecked_return_type = "string[]")]
    pub fn history(&self) -> Array {
        let positions = self.game.positions();
        move_strings(
            self.game
                .moves()
                .iter()
                .zip(positions)
                .map(|(&m, b)| self.uci_in(b, m)),
        )
    }

    /// The moves played since the start position, in SAN.
    #[wasm_bindgen(js_name = historySan, unchecked_return_type = "string[]")]
    pub fn history_san(&self) -> Result<Array, JsError> {
        let positions = self.game.positions();
        let mut out = Vec::with_capacity(self.game.moves().len());
        for (&m, b) in self.game.moves().iter().zip(positions) {
            out.push(to_san(b, m).map_err(error)?);
        }
        Ok(move_strings(out))
    }

    /// The piece on `square` (`"e4"`) as its FEN letter (`"P"` white,
    /// `"p"` black), or `undefined` on an empty square.
    #[wasm_bindgen(js_name = pieceAt)]
    pub fn piece_at(&self, square: &str) -> Result<Option<String>, JsError> {
        let sq: Square = square.parse().map_err(error)?;
        Ok(self.game.board().piece_at(sq).map(|p| p.char().to_string()))
    }

    /// Whether the side to move is in check.
    #[wasm_bindgen(js_name = inCheck)]
    pub fn in_check(&self) -> bool {
        self.game.board().in_check()
    }

    /// Whether the side to move is checkmated.
    #[wasm_bindgen(js_name = isCheckmate)]
    pub fn is_checkmate(&self) -> bool {
        self.game.board().is_checkmate()
    }

    /// Whether the side to move is stalemated.
    #[wasm_bindgen(js_name = isStalemate)]
    pub fn is_stalemate(&self) -> bool {
        self.game.board().is_stalemate()
    }

    /// How the game ended, or `undefined` while it goes on: checkmate,
    /// stalemate, insufficient material, the seventy-five-move rule or
    /// fivefold repetition end it; with `claims`, a claimable draw (the
    /// fifty-move rule, threefold repetition) ends it too.
    #[wasm_bindgen(unchecked_return_type = "Outcome | undefined")]
    pub fn outcome(&self, claims: Option<bool>) -> JsValue {
        let outcome = if claims.unwrap_or(false) {
            self.game.outcome_with_claims()
        } else {
            self.game.outcome()
        };
        match outcome {
            None => JsValue::UNDEFINED,
            Some(o) => {
                let (winner, how) = match o {
                    Outcome::Decisive { winner, how } => {
                        (JsValue::from_str(&winner.char().to_string()), how)
                    }
                    Outcome::Draw(how) => (JsValue::NULL, how),
                };
                Obj::new()
                    .set("winner", winner)
                    .set("termination", how.to_string())
                    .set("result", o.result())
                    .set("text", o.to_string())
                    .into_js()
            }
        }
    }

    /// The number of leaf nodes `depth` plies deep (bulk-counting perft;
    /// depth at most 10).
    pub fn perft(&self, depth: u32) -> Result<f64, JsError> {
        check_perft_depth(depth)?;
        Ok(perft(self.game.board(), depth) as f64)
    }

    /// Perft split by root move: `{ "e2e4": 9771, … }` (depth 1 to 10).
    #[wasm_bindgen(unchecked_return_type = "Record<string, number>")]
    pub fn divide(&self, depth: u32) -> Result<JsValue, JsError> {
        check_perft_depth(depth)?;
        if depth == 0 {
            return Err(error("divide needs a depth of at least 1"));
        }
        let board = self.game.board();
        Ok(divide(board, depth)
            .into_iter()
            .fold(Obj::new(), |o, (m, n)| o.set(&self.uci(m), n as f64))
            .into_js())
    }

    /// The position as an SVG picture (`fianchetto_board::svg`): options
    /// `{ flip, size, coordinates, lastMove, arrows, squares }`; `lastMove`
    /// (a UCI move, or `true` for the last move played, the default) marks
    /// its squares, `arrows` (`["e2e4", "Gg1f3"]`) and `squares`
    /// (`["d4", "Re5"]`) take an optional colour letter first.
    pub fn svg(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SvgOptions | undefined")] options: JsValue,
    ) -> Result<String, JsError> {
        let o = Options::new("options", &options)?;
        let mut svg = BoardSvg::from_board(self.game.board());
        if o.bool("flip")?.unwrap_or(false) {
            svg = svg.orientation(Color::Black);
        }
        if let Some(size) = o.int("size", 16, 10_000)? {
            svg = svg.size(Some(size as u32));
        }
        if let Some(on) = o.bool("coordinates")? {
            svg = svg.coordinates(on);
        }
        let last = match o.value("lastMove")? {
            None => self.last_move_squares(),
            Some(v) => match (v.as_bool(), v.as_string()) {
                (Some(true), _) => self.last_move_squares(),
                (Some(false), _) => None,
                (None, Some(text)) => Some(parse_move_squares(&text).ok_or_else(|| {
                    error(format_args!("options.lastMove: not a move: {text:?}"))
                })?),
                _ => return Err(error("options.lastMove must be a UCI move or true/false")),
            },
        };
        if let Some((from, to)) = last {
            svg = svg.last_move_squares(from, to);
        }
        for text in o.strings("squares")?.unwrap_or_default() {
            let mark: SquareMark = text
                .parse()
                .map_err(|e| error(format_args!("options.squares: {e}")))?;
            svg = svg.mark(mark);
        }
        for text in o.strings("arrows")?.unwrap_or_default() {
            let arrow: Arrow = text
                .parse()
                .map_err(|e| error(format_args!("options.arrows: {e}")))?;
            svg = svg.arrow(arrow);
        }
        Ok(svg.to_svg())
    }

    /// The game in PGN export format, with `tags` (`{ White: "…", … }`)
    /// over the Seven Tag Roster's defaults; the result is the game's
    /// outcome if it is over.
    pub fn pgn(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Record<string, string> | undefined")] tags: JsValue,
    ) -> Result<String, JsError> {
        let tags = Options::new("tags", &tags)?.entries()?;
        let mut game = PgnGame::new(self.game.clone());
        for (name, value) in tags {
            game.tags.set(name, value);
        }
        game.to_pgn().map_err(error)
    }

    /// A copy of this game, played on independently.
    #[wasm_bindgen(js_name = clone)]
    pub fn copy(&self) -> Board {
        self.clone()
    }

    /// The position as text, one rank a line (the terminal's diagram).
    #[wasm_bindgen(js_name = toString)]
    pub fn to_text(&self) -> String {
        diagram(&self.game.board().to_setup())
    }
}

impl Board {
    /// The game (for the engine and PGN).
    pub(crate) fn game(&self) -> &Game<Bitboards> {
        &self.game
    }

    /// `text` as a legal move here: UCI when it has UCI's shape, else SAN
    /// (as a PGN's movetext is read).
    fn parse(&self, text: &str) -> Result<Move, JsError> {
        read_move(self.game.board(), text).map_err(error)
    }

    fn uci(&self, mv: Move) -> String {
        self.uci_in(self.game.board(), mv)
    }

    fn uci_in(&self, board: &Bitboards, mv: Move) -> String {
        to_uci(board, mv, CastlingMode::Standard)
    }

    fn last_move_squares(&self) -> Option<(Square, Square)> {
        let positions = self.game.positions();
        let (&mv, before) = self
            .game
            .moves()
            .last()
            .zip(positions.iter().rev().nth(1))?;
        parse_move_squares(&self.uci_in(before, mv))
    }
}

fn check_perft_depth(depth: u32) -> Result<(), JsError> {
    if depth > MAX_PERFT_DEPTH {
        return Err(error(format_args!(
            "perft depth {depth} is beyond the limit of {MAX_PERFT_DEPTH}"
        )));
    }
    Ok(())
}
