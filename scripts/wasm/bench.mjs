// Benchmarks of the WebAssembly package in Node.js (not tests; docs/wasm.md
// has the figures):
//  - the engine's nodes per second, on fixed-depth searches, against the
//    native binary on the same searches (same node counts: the figures are
//    checked equal);
//  - perft and legal-move generation against chess.js on the same positions.
//
//   scripts/wasm/build.sh
//   npm install --prefix target/wasm-bench chess.js@1     (once; an ignored folder)
//   node scripts/wasm/bench.mjs [--native target/release/fianchetto] [--chessjs target/wasm-bench]
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const target = resolve(root, process.env.CARGO_TARGET_DIR || "target");
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const pkg = arg("--pkg", resolve(target, "wasm-pkg"));
const native = arg("--native", resolve(target, "release", "fianchetto"));
const chessjsDir = arg("--chessjs", resolve(target, "wasm-bench"));
const { Board, Engine } = await import(pathToFileURL(resolve(pkg, "node.js")).href);

// The same searches as browser_check.py --bench.
const SEARCHES = [
  ["r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", 16],
  ["r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 13],
  ["8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 22],
];
// The perft positions (start, Kiwipete, position 3 of the chessprogramming wiki).
const PERFT = [
  ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 5],
  ["r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4],
  ["8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5],
];

const ms = (f) => {
  const t = performance.now();
  const v = f();
  return [v, performance.now() - t];
};
const fmt = (n) => Math.round(n).toLocaleString("en-US");

console.log("## engine: PVS on the NNUE, 16 MB, one thread, fixed depth");
// Warm up: the network is parsed and the code compiled once.
new Engine().search(new Board(), { depth: 6 });
let wasmNodes = 0, wasmMs = 0, nativeNodes = 0, nativeMs = 0;
for (const [fen, depth] of SEARCHES) {
  const engine = new Engine();
  const [r, t] = ms(() => engine.search(new Board(fen), { depth }));
  wasmNodes += r.nodes;
  wasmMs += t;
  let line = `node    depth ${depth} ${r.bestmove} ${fmt(r.nodes)} nodes ${fmt(t)} ms ${fmt((r.nodes / t) * 1000)} nodes/s`;
  if (existsSync(native)) {
    const out = execFileSync(native, ["analyse", "--fen", fen, "--depth", String(depth), "--hash", "16"], { encoding: "utf8" });
    const m = /info string (\d+) nodes \d+ evals (\d+) nps in ([\d.]+) s/.exec(out);
    const best = /bestmove (\S+)/.exec(out)[1];
    const [nodes, secs] = [Number(m[1]), Number(m[3])];
    if (nodes !== r.nodes || best !== r.bestmove) throw new Error(`native ${best} ${nodes} nodes, wasm ${r.bestmove} ${r.nodes}`);
    nativeNodes += nodes;
    nativeMs += secs * 1000;
    line += `\nnative  depth ${depth} ${best} ${fmt(nodes)} nodes ${fmt(secs * 1000)} ms ${fmt(nodes / secs)} nodes/s`;
  }
  console.log(line);
}
const wasmNps = (wasmNodes / wasmMs) * 1000;
console.log(`node total: ${fmt(wasmNodes)} nodes, ${fmt(wasmNps)} nodes/s`);
if (nativeMs > 0) {
  const nativeNps = (nativeNodes / nativeMs) * 1000;
  console.log(`native total: ${fmt(nativeNodes)} nodes, ${fmt(nativeNps)} nodes/s; wasm/native ${((wasmNps / nativeNps) * 100).toFixed(0)} %`);
}

let Chess = null;
try {
  Chess = createRequire(resolve(chessjsDir, "package.json"))("chess.js").Chess;
} catch {
  console.log(`\n(no chess.js in ${chessjsDir}: npm install --prefix ${chessjsDir} chess.js@1)`);
}
console.log("\n## perft and legal moves against chess.js");
for (const [fen, depth] of PERFT) {
  const board = new Board(fen);
  board.perft(depth); // warm up
  let [n, t] = ms(() => board.perft(depth));
  for (let i = 0; i < 4; i++) t = Math.min(t, ms(() => board.perft(depth))[1]);
  let line = `perft ${depth} ${fen}: fianchetto ${fmt(n)} in ${fmt(t)} ms (${fmt((n / t) * 1000)} leaves/s)`;
  // Legal moves of the position, as strings (chess.js's moves() are SAN), over and over.
  const reps = 20000;
  const [, tm] = ms(() => { for (let i = 0; i < reps; i++) board.legalMoves(); });
  const [, tms] = ms(() => { for (let i = 0; i < reps; i++) board.legalMovesSan(); });
  let moves = `  legal moves: fianchetto ${fmt((reps / tm) * 1000)} UCI lists/s, ${fmt((reps / tms) * 1000)} SAN lists/s`;
  if (Chess) {
    const c = new Chess(fen);
    const [cn, ct] = ms(() => c.perft(depth));
    if (cn !== n) throw new Error(`chess.js counts ${cn}, fianchetto ${n}`);
    line += `; chess.js ${fmt(cn)} in ${fmt(ct)} ms: ${(ct / t).toFixed(0)}×`;
    const [, ctm] = ms(() => { for (let i = 0; i < reps; i++) c.moves(); });
    moves += `; chess.js ${fmt((reps / ctm) * 1000)} SAN lists/s: ${(ctm / tms).toFixed(1)}× (SAN), ${(ctm / tm).toFixed(1)}× (UCI)`;
  }
  console.log(line + "\n" + moves);
}
