// The engine from a page, in a Web Worker so that the page never freezes:
//
//   import { EngineWorker } from "fianchetto/engine.js";
//   const engine = new EngineWorker({ algorithm: "pvs", evaluation: "nnue" });
//   engine.addEventListener("info", (e) => console.log(e.detail.depth, e.detail.pvSan));
//   const result = await engine.search({ fen, moves: ["e2e4"], limits: { movetime: 1000 } });
//   engine.stop(); // ends the running search, which still resolves with its best move
//
// `info` events carry each iteration's report as it comes.
export class EngineWorker extends EventTarget {
  // Starts the worker (engine-worker.js beside this file, or `workerUrl`)
  // with the engine `options` ({ algorithm, evaluation, hash }); `wasm`, if
  // given, is the .wasm's URL or a compiled WebAssembly.Module, else the
  // worker loads the SIMD build where the host has SIMD (`simd`: true or
  // false forces the choice). Once ready, `simd` says which build runs.
  constructor(options = {}, { workerUrl, wasm, simd } = {}) {
    super();
    this.worker = new Worker(workerUrl || new URL("./engine-worker.js", import.meta.url), { type: "module" });
    this.pending = new Map();
    this.nextId = 1;
    this.ready = new Promise((resolve, reject) => {
      this.onReady = resolve;
      this.onFail = reject;
    });
    this.worker.onmessage = (e) => this.receive(e.data);
    this.worker.onerror = (e) => {
      const error = new Error(e.message || "the engine worker failed");
      this.onFail(error);
      for (const p of this.pending.values()) p.reject(error);
      this.pending.clear();
    };
    this.worker.postMessage({ type: "init", options, wasm, simd });
  }

  receive(m) {
    if (m.type === "ready") {
      this.algorithms = m.algorithms;
      this.evaluations = m.evaluations;
      this.simd = m.simd;
      this.onReady(this);
    } else if (m.type === "info") {
      this.dispatchEvent(new CustomEvent("info", { detail: { id: m.id, ...m.info } }));
    } else if (m.type === "result") {
      this.pending.get(m.id)?.resolve(m.result);
      this.pending.delete(m.id);
    } else if (m.type === "error") {
      const error = new Error(m.message);
      if (m.id === undefined) this.onFail(error);
      const p = this.pending.get(m.id);
      if (p) p.reject(error);
      else this.dispatchEvent(new CustomEvent("error", { detail: error }));
      this.pending.delete(m.id);
    }
  }

  // Searches `fen` (the start position if omitted) after `moves` (UCI or
  // SAN) under `limits` ({ depth, nodes, movetime, wtime, btime, winc,
  // binc, movestogo, mate, infinite }); resolves to the result. Searches
  // run one after the other, in slices that `stop` can end; `whole` runs
  // one search that cannot be stopped, whose nodes are the algorithm's own
  // count (what the Learn view compares).
  search({ fen, moves = [], limits = {}, whole = false } = {}) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ type: "search", id, fen, moves, limits, whole });
    });
  }

  // Ends the running search (when the slice in progress ends); its
  // promise resolves with the best move so far.
  stop() {
    this.worker.postMessage({ type: "stop" });
  }

  // Changes the engine's options ({ algorithm, evaluation, hash }).
  configure(options) {
    this.worker.postMessage({ type: "configure", options });
  }

  // Forgets the table and histories (a new game).
  clear() {
    this.worker.postMessage({ type: "clear" });
  }

  // Ends the worker.
  terminate() {
    this.worker.terminate();
  }
}
