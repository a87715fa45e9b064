//! # fianchetto-wasm
//!
//! Fianchetto for JavaScript: the libraries and the engine compiled to
//! WebAssembly with [wasm-bindgen](https://docs.rs/wasm-bindgen), for the
//! browser (the engine in a Web Worker) and Node.js, from one npm package.
//!
//! - [`Board`]: a game from a FEN (the start position by default): legal
//!   moves, moves in SAN or UCI, push and undo, check, mate, every rule of
//!   [`Outcome`](fianchetto_movegen::Outcome), perft and divide, the SVG
//!   picture of [`fianchetto_board::svg`], PGN out and in.
//! - [`read_pgn`] (`readPgn` in JavaScript): every game of a PGN text.
//! - [`Engine`]: a search of a position (every algorithm of
//!   [`fianchetto_search::select`], every evaluation of
//!   [`fianchetto_eval::select`], the embedded NNUE or one loaded from
//!   bytes) to a depth, a node count or a time, with `info` reports.
//!
//! Bad input (a malformed FEN, SAN, UCI move or PGN, an illegal move, a
//! corrupt network, a limit out of range) is a JavaScript `Error` carrying
//! the library's message. Nothing is meant to panic; should something
//! panic all the same, the hook set when the module starts turns the panic
//! into a thrown `Error` naming it, rather than an opaque trap.
//!
//! The crate builds natively too (its tests run there); the JavaScript
//! package is made by `scripts/wasm/build.sh`.

#![warn(missing_docs)]

mod board;
mod engine;
mod gui;
mod js;
mod pgn;

pub use board::Board;
pub use engine::Engine;
pub use gui::{run_gui_job, GuiApp};
pub use pgn::read_pgn;

use wasm_bindgen::prelude::*;

/// Runs when the module is instantiated: panics become thrown JavaScript
/// `Error`s with the panic's message (on wasm32; natively, Rust's own
/// hook stays).
#[wasm_bindgen(start)]
fn start() {
    #[cfg(target_arch = "wasm32")]
    std::panic::set_hook(Box::new(|info| {
        wasm_bindgen::throw_str(&format!("fianchetto panicked: {info}"));
    }));
}

/// The package's version (the crate's).
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// The TypeScript shapes of the plain objects the bindings take and give
/// (wasm-bindgen writes the classes' and functions' types itself).
#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/** How a game ended. */
export interface Outcome {
  /** "w" or "b"; null for a draw. */
  winner: "w" | "b" | null;
  /** "checkmate", "stalemate", "insufficient material", "the fifty-move rule", ... */
  termination: string;
  /** "1-0", "0-1" or "1/2-1/2". */
  result: string;
  /** "White wins by checkmate", "Draw by stalemate", ... */
  text: string;
}
/** Options of Board.svg. */
export interface SvgOptions {
  flip?: boolean;
  /** Width and height in pixels (16 to 10000; 400 by default). */
  size?: number;
  coordinates?: boolean;
  /** A UCI move whose squares are marked, or true (the default) for the last move played. */
  lastMove?: string | boolean;
  /** Arrows: "e2e4", or with a colour letter first ("Gg1f3"; G, R, Y, B). */
  arrows?: string[];
  /** Highlighted squares: "d4", or with a colour letter first ("Re5"). */
  squares?: string[];
}
/** A game read by readPgn. */
export interface PgnGameData {
  tags: Record<string, string>;
  startFen: string;
  /** The main line in SAN. */
  moves: string[];
  /** The main line in UCI. */
  uci: string[];
  /** The final position. */
  fen: string;
  /** "1-0", "0-1", "1/2-1/2", "*", or null when the movetext has none. */
  result: string | null;
  /** The comments after each move. */
  comments: string[][];
}
/** Options of an Engine. */
export interface EngineOptions {
  /** "pvs" (default), "alphabeta", "scout", "minimax", "mcts". */
  algorithm?: string;
  /** "nnue" (default), "classical", "buhochess", "material". */
  evaluation?: string;
  /** Transposition table size in MB (1 to 256; 16 by default). */
  hash?: number;
}
/** Limits of a search; times in milliseconds. With none that bounds the search (mate alone does not), it takes 3 s. */
export interface Limits {
  depth?: number;
  nodes?: number;
  movetime?: number;
  wtime?: number;
  btime?: number;
  winc?: number;
  binc?: number;
  movestogo?: number;
  /** Stop once a mate in at most this many moves is found. */
  mate?: number;
  /** The number of best lines to search (1 to 64; 1 by default). */
  multipv?: number;
}
/** A score for the side to move: centipawns, or moves to mate (negative: being mated). */
export type Score = { cp: number } | { mate: number };
/** One iteration's report. */
export interface SearchInfo {
  /** The line it is about, from 1. */
  multipv: number;
  depth: number;
  seldepth: number;
  score: Score;
  bound: "exact" | "lower" | "upper";
  nodes: number;
  nps: number;
  hashfull: number;
  /** Milliseconds since the search started. */
  time: number;
  pv: string[];
  pvSan: string[];
}
/** What a search found. */
export interface SearchResult {
  /** The move to play (UCI); null when there is no legal move. */
  bestmove: string | null;
  ponder: string | null;
  score: Score;
  depth: number;
  seldepth: number;
  nodes: number;
  evals: number;
  nps: number;
  time: number;
  pv: string[];
  pvSan: string[];
  /** Each line's result, best first (the first is this result). */
  lines?: SearchResult[];
}
"#;
