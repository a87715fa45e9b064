// A search cut into slices, so that a single-threaded host (a Web Worker)
// can read its messages between them and stop the search: iterative
// deepening one depth per call (the engine's table carries what earlier
// depths found, so each call repeats little), or, for MCTS, which keeps its
// tree from one call to the next, a fifth of a second per call.

const MCTS_SLICE_MS = 200;
const MAX_DEPTH = 128;

function now() {
  return performance.now();
}

// Searches `board` with `engine` under `limits` ({ depth, nodes, movetime,
// infinite } slice; clock limits run as one call), reporting each new
// iteration to `onInfo(info)` with nodes and time counted from the start,
// and asking `shouldStop()` between slices (`pause()` first lets the host
// deliver its messages). Resolves to the last slice's result, with the
// total nodes and time.
export async function searchInSlices(engine, board, limits, algorithm, { onInfo, shouldStop, pause }) {
  limits = limits || {};
  const clock = limits.wtime !== undefined || limits.btime !== undefined || limits.mate !== undefined;
  if (clock) {
    return engine.search(board, limits, onInfo);
  }
  const start = now();
  const infinite = limits.infinite || (limits.depth === undefined && limits.nodes === undefined && limits.movetime === undefined);
  const maxDepth = limits.depth ?? MAX_DEPTH;
  let nodes = 0; // nodes of the slices before this one
  let result = null;
  let reported = 0; // the deepest iteration reported
  const mcts = algorithm === "mcts";
  for (let slice = 1; ; slice++) {
    const sliceLimits = {};
    if (limits.nodes !== undefined) sliceLimits.nodes = Math.max(1, limits.nodes - nodes);
    if (limits.movetime !== undefined) sliceLimits.movetime = Math.max(1, Math.round(limits.movetime - (now() - start)));
    if (mcts) {
      if (limits.depth !== undefined) sliceLimits.depth = limits.depth;
      sliceLimits.movetime = Math.min(sliceLimits.movetime ?? MCTS_SLICE_MS, MCTS_SLICE_MS);
    } else {
      sliceLimits.depth = Math.min(slice, maxDepth);
    }
    const before = nodes;
    const r = engine.search(board, sliceLimits, (info) => {
      if (!mcts && info.depth <= reported) return;
      reported = Math.max(reported, info.depth);
      const time = now() - start;
      const total = before + info.nodes;
      onInfo?.({ ...info, nodes: total, time, nps: Math.round((total * 1000) / Math.max(1, time)) });
    });
    nodes += r.nodes;
    if (r.bestmove !== null || result === null) result = r;
    const elapsed = now() - start;
    const done =
      r.bestmove === null ||
      (!mcts && sliceLimits.depth >= maxDepth) ||
      (!mcts && r.depth < sliceLimits.depth) ||
      (mcts && limits.depth !== undefined) ||
      (limits.nodes !== undefined && nodes >= limits.nodes) ||
      (limits.movetime !== undefined && elapsed >= limits.movetime) ||
      (!infinite && !mcts && Math.abs(r.score.mate ?? 0) > 0 && r.depth >= 2 * Math.abs(r.score.mate));
    if (done) break;
    await pause();
    if (shouldStop()) break;
  }
  return { ...result, nodes, time: now() - start, nps: Math.round((nodes * 1000) / Math.max(1, now() - start)) };
}
