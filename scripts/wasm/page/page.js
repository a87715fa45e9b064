// A page that plays, analyses and compares the algorithms (Learn) with the
// engine in a Web Worker: the
// package's Board draws the position and checks moves on the page, the
// EngineWorker searches. Served as static files next to the package
// (pkg/); scripts/wasm/browser_check.py drives it in headless Chromium.
import { Board } from "./pkg/fianchetto_wasm.js";
import load from "./pkg/load.js";
import { EngineWorker } from "./pkg/engine.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
// The engine plays this side ("w", "b", or "none"): black by default.
const engineSide = params.get("engine") || "b";
if (params.get("depth")) $("depth").value = params.get("depth");

// ?simd=0 or 1 forces the build (by default SIMD where the browser has it).
const simd = await load(params.has("simd") ? params.get("simd") !== "0" : undefined);
document.body.dataset.simd = String(simd);
let board = new Board(params.get("fen") || undefined);
let selected = null;
let thinking = false;
let analysing = false;
let learning = false; // Learn's searches are not listed as analysis
const engine = new EngineWorker({ algorithm: "pvs", evaluation: "nnue" }, { simd });
const log = { infos: 0, firstMoveMs: null, readyMs: null };
window.fianchettoLog = log;
window.fianchettoEngine = engine;

function show(text) {
  $("message").textContent = text;
}

function draw() {
  const marks = selected ? [selected, ...board.legalMoves().filter((m) => m.startsWith(selected)).map((m) => m.slice(2, 4))] : [];
  $("board").innerHTML = board.svg({ size: 480, squares: marks.map((s, i) => (i === 0 ? "Y" : "G") + s) });
  $("moves").textContent = board.historySan().map((m, i) => (i % 2 === 0 ? `${i / 2 + 1}. ` : "") + m).join(" ");
  const outcome = board.outcome(true);
  $("status").textContent = outcome
    ? outcome.text + " (" + outcome.result + ")"
    : thinking
      ? "Fianchetto is thinking…"
      : (board.turn() === "w" ? "White" : "Black") + " to move";
  document.body.dataset.fen = board.fen();
  document.body.dataset.plies = String(board.history().length);
}

function limits() {
  return { depth: Number($("depth").value) || 8 };
}

function onInfo(e) {
  if (learning) return;
  const i = e.detail;
  log.infos++;
  const score = i.score.mate !== undefined ? "#" + i.score.mate : (i.score.cp / 100).toFixed(2);
  const li = document.createElement("li");
  li.textContent = `d${i.depth} ${score} ${i.nodes} nodes ${i.nps} n/s  ${i.pvSan.join(" ")}`;
  $("lines").prepend(li);
  document.body.dataset.infos = String(log.infos);
}
engine.addEventListener("info", onInfo);

async function engineMove() {
  if (thinking || board.outcome(true) || board.turn() !== engineSide) return;
  thinking = true;
  draw();
  try {
    const result = await engine.search({ fen: board.startFen(), moves: board.history(), limits: limits() });
    if (result.bestmove) board.push(result.bestmove);
    if (log.firstMoveMs === null) {
      log.firstMoveMs = performance.now();
      document.body.dataset.firstMoveMs = log.firstMoveMs.toFixed(0);
    }
  } catch (e) {
    show(e.message);
  }
  thinking = false;
  draw();
}

function squareAt(event) {
  for (const el of document.elementsFromPoint(event.clientX, event.clientY)) {
    if (el.dataset && el.dataset.square) return el.dataset.square;
  }
  return null;
}

$("board").addEventListener("click", (event) => {
  if (thinking || analysing || board.outcome(true) || board.turn() === engineSide) return;
  const sq = squareAt(event);
  if (!sq) return;
  const moves = board.legalMoves();
  if (selected) {
    const move = moves.find((m) => m.startsWith(selected + sq) && (m.length === 4 || m[4] === "q"));
    if (move) {
      selected = null;
      board.push(move);
      draw();
      engineMove();
      return;
    }
  }
  selected = moves.some((m) => m.startsWith(sq)) && selected !== sq ? sq : null;
  draw();
});

$("new").addEventListener("click", () => {
  if (thinking || analysing) return;
  board.free();
  board = new Board();
  engine.clear();
  $("lines").replaceChildren();
  draw();
  engineMove();
});
$("undo").addEventListener("click", () => {
  if (thinking || analysing) return;
  board.undo();
  if (board.turn() === engineSide) board.undo();
  draw();
});
$("analyse").addEventListener("click", async () => {
  if (thinking || analysing) return;
  analysing = true;
  document.body.dataset.analysing = "1";
  $("lines").replaceChildren();
  try {
    await engine.search({ fen: board.startFen(), moves: board.history(), limits: { infinite: true } });
  } catch (e) {
    show(e.message);
  }
  analysing = false;
  document.body.dataset.analysing = "0";
});
$("stop").addEventListener("click", () => engine.stop());

// Learn: what each algorithm costs to the same depth on this position (one
// search each; MCTS, which has no depth, is left out).
$("learn").addEventListener("click", async () => {
  if (thinking || analysing) return;
  analysing = learning = true;
  const depth = Number($("learn-depth").value) || 4;
  const rows = $("learn-table").querySelector("tbody");
  rows.replaceChildren();
  $("learn-table").hidden = false;
  const results = [];
  try {
    for (const algorithm of engine.algorithms.filter((a) => a !== "mcts")) {
      engine.configure({ algorithm });
      const r = await engine.search({ fen: board.startFen(), moves: board.history(), limits: { depth }, whole: true });
      results.push([algorithm, r]);
    }
  } catch (e) {
    show(e.message);
  }
  engine.configure({ algorithm: $("algorithm").value });
  const most = Math.max(1, ...results.map(([, r]) => r.nodes));
  for (const [algorithm, r] of results) {
    const tr = document.createElement("tr");
    tr.dataset.algorithm = algorithm;
    const bar = document.createElement("span");
    bar.className = "bar";
    bar.style.width = (Math.max(0.02, Math.log10(1 + r.nodes) / Math.log10(1 + most)) * 8).toFixed(2) + "em";
    for (const text of [algorithm, r.nodes.toLocaleString("en-US"), r.time.toFixed(1) + " ms", r.pvSan[0] ?? "–"]) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.append(td);
    }
    const td = document.createElement("td");
    td.append(bar);
    tr.append(td);
    rows.append(tr);
  }
  document.body.dataset.learned = String(results.length);
  analysing = learning = false;
});
for (const id of ["algorithm", "evaluation"]) {
  $(id).addEventListener("change", () => engine.configure({ [id]: $(id).value }));
}

await engine.ready;
log.readyMs = performance.now();
document.body.dataset.readyMs = log.readyMs.toFixed(0);
for (const [id, names] of [["algorithm", engine.algorithms], ["evaluation", engine.evaluations]]) {
  for (const name of names) $(id).append(new Option(name, name));
}
draw();
document.body.dataset.ready = "1";
engineMove();
