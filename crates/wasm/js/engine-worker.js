// The engine in a Web Worker (a module worker: `new Worker(url, { type:
// "module" })`; `EngineWorker` in engine.js starts and talks to it).
// Messages in: { type: "init", options, wasm, simd } (wasm: the .wasm's URL
// or a compiled WebAssembly.Module; by default the build beside this one
// that load.js chooses, SIMD where the host has it, or as `simd` says),
// { type: "configure", options }, { type: "search", id, fen, moves, limits,
// whole }, { type: "stop" }, { type: "clear" }. Messages out: { type:
// "ready", algorithms, evaluations, simd }, { type: "info", id, info },
// { type: "result", id, result }, { type: "error", id, message }.
// A search runs in slices (slices.js) so that "stop" is read between them
// (unless `whole`: one call).
import init, { Board, Engine } from "./fianchetto_wasm.js";
import load from "./load.js";
import { searchInSlices } from "./slices.js";

let engine = null;
let algorithm = "pvs";
let stopRequested = false;
let running = Promise.resolve();

// Lets the worker's queued messages ("stop") run.
const pause = () => new Promise((resolve) => setTimeout(resolve, 0));

function fail(id, e) {
  self.postMessage({ type: "error", id, message: e instanceof Error ? e.message : String(e) });
}

async function search(m) {
  stopRequested = false;
  try {
    const board = new Board(m.fen);
    try {
      for (const mv of m.moves || []) board.push(mv);
      const onInfo = (info) => self.postMessage({ type: "info", id: m.id, info });
      // `whole`: one call, the algorithm's own count of nodes (no stop).
      const result = m.whole
        ? engine.search(board, m.limits, onInfo)
        : await searchInSlices(engine, board, m.limits, algorithm, {
          onInfo,
          shouldStop: () => stopRequested,
          pause,
        });
      self.postMessage({ type: "result", id: m.id, result });
    } finally {
      board.free();
    }
  } catch (e) {
    fail(m.id, e);
  }
}

self.onmessage = (e) => {
  const m = e.data;
  if (m.type === "stop") {
    stopRequested = true;
    return;
  }
  // Everything else runs in order, after the search before it.
  running = running.then(async () => {
    try {
      if (m.type === "init") {
        let simd = null;
        if (m.wasm) await init({ module_or_path: m.wasm });
        else simd = await load(m.simd ?? undefined);
        engine = new Engine(m.options);
        algorithm = m.options?.algorithm ?? "pvs";
        self.postMessage({ type: "ready", algorithms: Engine.algorithms(), evaluations: Engine.evaluations(), simd });
      } else if (m.type === "configure") {
        engine.configure(m.options);
        if (m.options?.algorithm) algorithm = m.options.algorithm;
      } else if (m.type === "clear") {
        engine.clear();
      } else if (m.type === "search") {
        await search(m);
      }
    } catch (err) {
      fail(m.id, err);
    }
  });
};
