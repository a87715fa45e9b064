//! `readPgn`: every game of a PGN text as plain JavaScript objects.

use crate::js::{error, strings, Obj};
use fianchetto_board::{Bitboards, Board as _, CastlingMode};
use fianchetto_movegen::pgn::{PgnGame, Reader};
use fianchetto_movegen::{to_san, to_uci};
use wasm_bindgen::prelude::*;

/// Reads every game of a PGN text: for each, `{ tags, startFen, moves (SAN),
/// uci, fen (the final position), result, comments }`, `comments[i]` being
/// the comments after move `i`. Variations are read and checked but left
/// out. The first malformed game throws an `Error` naming the game, line
/// and token, as the library's reader does.
#[wasm_bindgen(js_name = readPgn, unchecked_return_type = "PgnGameData[]")]
pub fn read_pgn(text: &str) -> Result<js_sys::Array, JsError> {
    let games = js_sys::Array::new();
    for game in Reader::new(text.as_bytes()).games::<Bitboards>() {
        games.push(&game_object(&game.map_err(error)?)?);
    }
    Ok(games)
}

fn game_object(game: &PgnGame<Bitboards>) -> Result<JsValue, JsError> {
    let tags = game
        .tags
        .iter()
        .fold(Obj::new(), |o, (k, v)| o.set(k, v))
        .into_js();
    let main = &game.game;
    let mut san = Vec::with_capacity(main.moves().len());
    let mut uci = Vec::with_capacity(main.moves().len());
    for (&m, before) in main.moves().iter().zip(main.positions()) {
        san.push(to_san(before, m).map_err(error)?);
        uci.push(to_uci(before, m, CastlingMode::Standard));
    }
    let comments = js_sys::Array::new();
    for i in 0..main.moves().len() {
        let notes = game.annotations(i).map(|a| a.comments.as_slice());
        comments.push(&strings(notes.unwrap_or_default()));
    }
    Ok(Obj::new()
        .set("tags", tags)
        .set("startFen", main.start().fen())
        .set("moves", strings(san))
        .set("uci", strings(uci))
        .set("fen", main.board().fen())
        .set(
            "result",
            game.result.map_or(JsValue::NULL, |r| r.as_str().into()),
        )
        .set("comments", comments)
        .into_js())
}
