// A search cut into slices, so that a single-threaded host (a Web Worker)
// can read its messages between them and stop the search: iterative
// deepening one depth per call (the engine's table carries what earlier
// depths found, so each call repeats little), each call also cut after a
// time cap (half a second, doubled each time the same depth is cut, so that
// a deep iteration still completes while a stop waits at most one cap);
// MCTS, which keeps its tree from one call to the next, a fifth of a second
// per call.

const MCTS_SLICE_MS = 200;
const FIRST_CAP_MS = 500;
const MAX_DEPTH = 128;

function now() {
  return performance.now();
}

// Searches `board` with `engine` under `limits` ({ depth, nodes, movetime,
// infinite } slice; clock and mate limits run as one call), reporting each
// new iteration to `onInfo(info)` with nodes and time counted from the
// start, and asking `shouldStop()` between slices (`pause()` first lets the
// host deliver its messages). Resolves to the last slice's result, with the
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
  const reported = []; // the deepest iteration reported, by line
  let depth = 1; // the depth the next slice completes
  let cap = FIRST_CAP_MS;
  const mcts = algorithm === "mcts";
  for (;;) {
    const sliceLimits = limits.multipv === undefined ? {} : { multipv: limits.multipv };
    const sliceStart = now();
    const timeLeft = limits.movetime === undefined ? Infinity : limits.movetime - (sliceStart - start);
    if (limits.nodes !== undefined) sliceLimits.nodes = Math.max(1, limits.nodes - nodes);
    let capped = false; // whether the cap, not the limits, bounds this slice's time
    if (mcts) {
      if (limits.depth !== undefined) sliceLimits.depth = limits.depth;
      sliceLimits.movetime = Math.max(1, Math.round(Math.min(timeLeft, MCTS_SLICE_MS)));
    } else {
      sliceLimits.depth = Math.min(depth, maxDepth);
      capped = cap < timeLeft;
      sliceLimits.movetime = Math.max(1, Math.round(Math.min(timeLeft, cap)));
    }
    const before = nodes;
    const r = engine.search(board, sliceLimits, (info) => {
      const k = info.multipv;
      if (!mcts && info.depth <= (reported[k] ?? 0)) return;
      reported[k] = Math.max(reported[k] ?? 0, info.depth);
      const time = now() - start;
      const total = before + info.nodes;
      onInfo?.({ ...info, nodes: total, time, nps: Math.round((total * 1000) / Math.max(1, time)) });
    });
    nodes += r.nodes;
    if (r.bestmove !== null || result === null) result = r;
    const elapsed = now() - start;
    // An iteration cut by the cap is tried again with twice the time.
    const cutByCap = !mcts && r.depth < sliceLimits.depth && capped && now() - sliceStart >= 0.9 * cap;
    if (cutByCap) cap *= 2;
    else depth++;
    const done =
      r.bestmove === null ||
      (!mcts && !cutByCap && sliceLimits.depth >= maxDepth) ||
      (!mcts && !cutByCap && r.depth < sliceLimits.depth) ||
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
