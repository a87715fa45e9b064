// The engine in WebAssembly: the same search as the native build, every
// algorithm and evaluation, reports, stop, and the slices the worker runs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { execFileSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import { fianchetto, pkgDir, releaseBinary, root } from "./package.mjs";

const { Board, Engine, searchInSlices } = fianchetto;

// The figure crates/wasm/src/engine.rs's native test checks too: PVS on the
// embedded NNUE, 16 MB, depth 11 after 1. e4 e5 2. Nf3.
const MOVES = ["e2e4", "e7e5", "g1f3"];
const DEPTH = 11;
const FIGURE = { bestmove: "b8c6", nodes: 27422 };

function afterMoves() {
  const b = new Board();
  for (const m of MOVES) b.push(m);
  return b;
}

test("a fixed-depth search gives the native build's best move and node count", () => {
  const r = new Engine().search(afterMoves(), { depth: DEPTH });
  assert.deepEqual({ bestmove: r.bestmove, nodes: r.nodes }, FIGURE);
  assert.equal(r.depth, DEPTH);
  assert.equal(r.pv[0], r.bestmove);
  assert.equal(r.pvSan[0], "Nc6");
});

test("the same search by the native binary, when it is built", { skip: !existsSync(releaseBinary) && "no target/release/fianchetto" }, () => {
  const out = execFileSync(releaseBinary, ["analyse", "--moves", ...MOVES, "--depth", String(DEPTH), "--hash", "16"], { encoding: "utf8" });
  const nodes = Number(/info string (\d+) nodes/.exec(out)[1]);
  const bestmove = /bestmove (\S+)/.exec(out)[1];
  const r = new Engine().search(afterMoves(), { depth: DEPTH });
  assert.deepEqual({ bestmove: r.bestmove, nodes: r.nodes }, { bestmove, nodes });
});

test("every algorithm and evaluation finds the mate in one", () => {
  // White mates with Qh5-f7.
  const fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
  for (const algorithm of Engine.algorithms()) {
    for (const evaluation of Engine.evaluations()) {
      const engine = new Engine({ algorithm, evaluation });
      const limits = algorithm === "mcts" ? { nodes: 3000 } : { depth: algorithm === "minimax" ? 2 : 3 };
      const r = engine.search(new Board(fen), limits);
      assert.equal(r.bestmove, "h5f7", `${algorithm} on ${evaluation}`);
      if (algorithm !== "mcts") assert.deepEqual(r.score, { mate: 1 }, `${algorithm} on ${evaluation}`);
    }
  }
});

test("no legal move: no best move", () => {
  const r = new Engine().search(new Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), { depth: 3 });
  assert.equal(r.bestmove, null);
});

test("reports come each iteration, deeper each time; true from onInfo stops", () => {
  const depths = [];
  new Engine().search(afterMoves(), { depth: 8 }, (info) => {
    depths.push(info.depth);
    assert.equal(typeof info.score.cp, "number");
    assert.ok(info.pv.length > 0 && info.pvSan.length === info.pv.length);
    // The SAN line is the UCI line, move by move.
    const line = afterMoves();
    for (const [k, m] of info.pv.entries()) assert.equal(line.san(m), info.pvSan[k]), line.push(m);
  });
  assert.deepEqual(depths, [1, 2, 3, 4, 5, 6, 7, 8]);
  let calls = 0;
  const r = new Engine().search(afterMoves(), { depth: 20 }, () => ++calls >= 3);
  assert.ok(r.depth < 20 && r.bestmove !== null, `stopped at depth ${r.depth}`);
});

test("an onInfo that throws ends the search with its error", () => {
  assert.throws(() => new Engine().search(afterMoves(), { depth: 6 }, () => { throw new RangeError("enough"); }),
    (e) => e instanceof RangeError && e.message === "enough");
});

test("node and time limits", () => {
  const r = new Engine().search(afterMoves(), { nodes: 5000 });
  assert.ok(r.nodes >= 5000 && r.nodes < 7000, `${r.nodes} nodes`);
  const t = new Engine().search(afterMoves(), { movetime: 200 });
  assert.ok(t.time >= 150 && t.time < 1000, `${t.time} ms`);
  assert.ok(t.bestmove);
});

test("the static evaluation and a loaded network", () => {
  const material = new Engine({ evaluation: "material" });
  assert.ok(material.evaluate(new Board("4k3/8/8/8/8/8/8/QQQQK3 w - - 0 1")).cp > 3000);
  assert.deepEqual(material.evaluate(new Board()), { cp: 0 });
  // The shipped network file, loaded from bytes, is the embedded one.
  const embedded = new Engine();
  const loaded = new Engine();
  loaded.loadNetwork(readFileSync(resolve(root, "crates/eval/nets/default.nnue")));
  const b = afterMoves();
  assert.deepEqual(loaded.evaluate(b), embedded.evaluate(b));
  const r = loaded.search(afterMoves(), { depth: DEPTH });
  assert.deepEqual({ bestmove: r.bestmove, nodes: r.nodes }, FIGURE);
  // Another network evaluates otherwise.
  const other = new Engine();
  other.loadNetwork(readFileSync(resolve(root, "crates/eval/nets/s7-h256-w0.nnue")));
  assert.notDeepEqual(other.evaluate(b), embedded.evaluate(b));
});

test("slices: the worker's search stops between iterations and counts every slice", async () => {
  const engine = new Engine();
  const infos = [];
  let slices = 0;
  const r = await searchInSlices(engine, afterMoves(), { depth: 30 }, "pvs", {
    onInfo: (i) => infos.push(i),
    shouldStop: () => ++slices >= 5,
    pause: () => Promise.resolve(),
  });
  assert.equal(r.depth, 5, "stopped after the fifth slice");
  assert.deepEqual(infos.map((i) => i.depth), [1, 2, 3, 4, 5]);
  assert.ok(infos.every((i, k) => k === 0 || i.nodes > infos[k - 1].nodes));
  assert.equal(r.nodes, infos.at(-1).nodes, "nodes add up over the slices");

  const whole = await searchInSlices(new Engine(), afterMoves(), { depth: 9 }, "pvs", {
    shouldStop: () => false,
    pause: () => Promise.resolve(),
  });
  assert.equal(whole.depth, 9);
  const mcts = new Engine({ algorithm: "mcts" });
  const m = await searchInSlices(mcts, afterMoves(), { movetime: 500 }, "mcts", {
    shouldStop: () => false,
    pause: () => Promise.resolve(),
  });
  assert.ok(m.bestmove && m.time >= 450, `mcts ${m.bestmove} in ${m.time} ms`);
});

test("the build is chosen at load: SIMD where the host has it, unless FIANCHETTO_WASM_SIMD says", async () => {
  const { hasSimd, wasmFile } = await import(new URL("load.js", pathToFileURL(pkgDir + "/")).href);
  const forced = process.env.FIANCHETTO_WASM_SIMD;
  const expected = forced === undefined || forced === "" ? hasSimd() : forced !== "0";
  assert.equal(fianchetto.simd, expected);
  assert.equal(wasmFile(true), "fianchetto_wasm_simd_bg.wasm");
  assert.equal(wasmFile(false), "fianchetto_wasm_bg.wasm");
  // The two files are different builds of the same code.
  const scalar = readFileSync(resolve(pkgDir, wasmFile(false)));
  const vector = readFileSync(resolve(pkgDir, wasmFile(true)));
  assert.notDeepEqual(scalar, vector);
  assert.ok(WebAssembly.validate(scalar) && WebAssembly.validate(vector));
});

test("a mate limit stops the search once the mate is found", () => {
  const fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
  const r = new Engine().search(new Board(fen), { mate: 1 });
  assert.equal(r.bestmove, "h5f7");
  assert.deepEqual(r.score, { mate: 1 });
  assert.ok(r.time < 2000, `${r.time} ms`);
});

test("slices: an infinite analysis stops within about one time cap of being asked", async () => {
  const start = performance.now();
  const depths = [];
  const r = await searchInSlices(new Engine(), afterMoves(), { infinite: true }, "pvs", {
    onInfo: (i) => depths.push(i.depth),
    shouldStop: () => performance.now() - start > 2500,
    pause: () => Promise.resolve(),
  });
  const time = performance.now() - start;
  assert.ok(r.bestmove && r.depth >= 10, `${r.bestmove} at depth ${r.depth}`);
  assert.ok(depths.every((d, k) => k === 0 || d === depths[k - 1] + 1), depths.join(","));
  // Asked at 2.5 s; the slice running then ends within its cap (0.5 s,
  // doubled for each try at the same depth: a few seconds at most here).
  assert.ok(time < 2500 + 4500, `stopped after ${time.toFixed(0)} ms`);
});

test("multipv: the best lines, best first, each reported as its own line", async () => {
  const infos = [];
  const r = new Engine().search(afterMoves(), { depth: 7, multipv: 3 }, (i) => infos.push(i));
  assert.equal(r.lines.length, 3);
  assert.equal(r.lines[0].bestmove, r.bestmove);
  const moves = r.lines.map((l) => l.bestmove);
  assert.equal(new Set(moves).size, 3, moves.join(" "));
  const cp = r.lines.map((l) => l.score.cp);
  assert.ok(cp[0] >= cp[1] && cp[1] >= cp[2], cp.join(" "));
  assert.deepEqual([...new Set(infos.map((i) => i.multipv))], [1, 2, 3]);
  // One line is one plain search: the figure again.
  const one = new Engine().search(afterMoves(), { depth: DEPTH, multipv: 1 });
  assert.deepEqual({ bestmove: one.bestmove, nodes: one.nodes, lines: one.lines.length }, { ...FIGURE, lines: 1 });
  // More lines than moves: as many lines as moves.
  const two = new Engine().search(new Board("7k/8/8/8/8/8/8/K7 w - - 0 1"), { depth: 2, multipv: 10 });
  assert.equal(two.lines.length, 3);
  // In slices, each line's iterations are reported once each.
  const sliced = [];
  await searchInSlices(new Engine(), afterMoves(), { depth: 5, multipv: 2 }, "pvs", {
    onInfo: (i) => sliced.push(`${i.multipv}:${i.depth}`),
    shouldStop: () => false,
    pause: () => Promise.resolve(),
  });
  assert.deepEqual(sliced.slice().sort(), ["1:1", "1:2", "1:3", "1:4", "1:5", "2:1", "2:2", "2:3", "2:4", "2:5"]);
  assert.throws(() => new Engine().search(afterMoves(), { multipv: 0 }), /limits.multipv must be a whole number from 1 to 64/);
});
