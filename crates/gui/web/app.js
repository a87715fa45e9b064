// Fianchetto GUI: the page's script. It draws what the server sends (the
// position, the legal moves with their SAN, the move list, the outcome,
// the analysis and the Learn results) and sends back what the user does.
// No chess rule is decided here: a move is offered only if the server
// listed it as legal, and the server checks it again.
"use strict";

const FILES = "abcdefgh";
const SQUARE = 100; // SVG units per square (the board is 800 x 800)
const SVG_NS = "http://www.w3.org/2000/svg";

const app = {
  session: null,
  state: null,
  options: null,
  drawn: null, // the picture's text now on the page
  selected: null, // the square whose moves are shown
  press: null, // a pointer press on the board: {sq, x, y, dragging, node}
  promotion: null, // the moves waiting for a promotion choice
  deferred: null, // a state that came during a drag
  view: "play",
  events: null,
};

const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------------------
// Talking to the server

// The static export of the app (fianchetto-wasm's gui-page.js) answers
// from a Web Worker: it sets these two in place of the browser's own.
const send = window.fianchettoFetch || fetch;
const EventStream = window.FianchettoEventSource || EventSource;

async function request(path, params = {}, method = "POST") {
  const body = new URLSearchParams(params);
  if (app.session) body.set("session", app.session);
  let response;
  try {
    response = method === "POST"
      ? await send(path, { method, body })
      : await send(path + "?" + body.toString());
  } catch (e) {
    showMessage("The server does not answer (was `fianchetto gui` stopped?).");
    return null;
  }
  let data = null;
  try {
    data = await response.json();
  } catch (e) {
    data = { error: "the server answered " + response.status };
  }
  if (!response.ok) {
    showMessage(data.error || "the server answered " + response.status);
    return null;
  }
  return data;
}

// A change: on success the reply is the new state.
async function act(path, params = {}) {
  const state = await request(path, params);
  if (state) {
    clearMessage();
    render(state);
  }
  return state;
}

function listen() {
  if (app.events) app.events.close();
  const events = new EventStream("/api/events?session=" + encodeURIComponent(app.session));
  events.addEventListener("state", (e) => {
    try {
      render(JSON.parse(e.data));
    } catch (err) {
      showMessage("A malformed update came from the server.");
    }
  });
  events.onerror = async () => {
    // The browser reconnects by itself; a closed session will not come back.
    const state = await request("/api/state", {}, "GET");
    if (!state) events.close();
  };
  app.events = events;
}

// ---------------------------------------------------------------------------
// Messages

function showMessage(text, kind = "error") {
  const m = $("message");
  m.textContent = text;
  m.className = kind;
  m.hidden = false;
}

function clearMessage() {
  $("message").hidden = true;
  $("message").textContent = "";
}

// ---------------------------------------------------------------------------
// Rendering a state

function render(state) {
  if (app.state && state.revision < app.state.revision) return; // older news
  if (app.press && app.press.dragging) {
    app.deferred = state;
    return;
  }
  const moved = !app.state || app.state.fen !== state.fen;
  app.state = state;
  if (moved) {
    app.selected = null;
    hidePromotion();
  }
  drawBoard();
  renderStatus();
  renderSettings();
  renderMoves($("moves"));
  renderMoves($("moves-analyse"));
  renderAnalysis();
  renderLearn();
  if (state.notice) showMessage(state.notice, "notice");
  $("export-pgn").href = "/api/pgn?session=" + encodeURIComponent(app.session);
  document.body.dataset.ready = "1";
  document.body.dataset.revision = String(state.revision);
}

function enginePlays(color) {
  const side = app.state.settings.engine;
  return side === "both" || side === (color === "w" ? "white" : "black");
}

function canMove() {
  const s = app.state;
  return s && !s.outcome && !s.thinking && !enginePlays(s.turn);
}

function movesFrom(sq) {
  return canMove() ? app.state.legal.filter((m) => m.from === sq) : [];
}

function renderStatus() {
  const s = app.state;
  let text;
  if (s.outcome) text = s.outcome.text + " (" + s.outcome.result + ")";
  else if (s.thinking) text = "Fianchetto is thinking…";
  else {
    text = (s.turn === "w" ? "White" : "Black") + " to move";
    if (s.check) text += ", in check";
    if (enginePlays(s.turn)) text += " (the engine)";
  }
  $("status").textContent = text;
  $("result").textContent = s.outcome ? s.outcome.text + " " + s.outcome.result : "";
}

// ---------------------------------------------------------------------------
// The board

function coords(sq) {
  const f = FILES.indexOf(sq[0]);
  const r = Number(sq[1]) - 1;
  return app.state.flipped ? [(7 - f) * SQUARE, r * SQUARE] : [f * SQUARE, (7 - r) * SQUARE];
}

function squareName(file, rank) {
  return FILES[file] + String(rank + 1);
}

// The square whose top-left corner is at (x, y) in the board's units.
function squareAtCorner(x, y) {
  const col = Math.round(x / SQUARE);
  const row = Math.round(y / SQUARE);
  return app.state.flipped ? squareName(7 - col, row) : squareName(col, 7 - row);
}

function svg(tag, attrs, parent) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (parent) parent.appendChild(el);
  return el;
}

// The board is the picture the server draws with the board library
// (fianchetto_board::svg): its squares carry data-square, its pieces
// data-piece. The page adds each piece's square (data-at) and, on top, the
// selected piece and its legal targets.
function drawBoard() {
  const s = app.state;
  if (app.drawn !== s.svg) {
    const template = document.createElement("template");
    template.innerHTML = s.svg;
    const picture = template.content.firstElementChild;
    picture.id = "board";
    picture.setAttribute("role", "img");
    picture.setAttribute("aria-label", "Chess board");
    $("board").replaceWith(picture);
    app.drawn = s.svg;
    for (const piece of picture.querySelectorAll("[data-piece]")) {
      piece.dataset.at = squareAtCorner(Number(piece.getAttribute("x")), Number(piece.getAttribute("y")));
    }
  }
  const board = $("board");
  for (const old of board.querySelectorAll(".gui-overlay")) old.remove();
  if (!app.selected) return;
  const pieces = board.querySelector(".pieces");
  const under = svg("g", { class: "gui-overlay" });
  board.insertBefore(under, pieces);
  const [x, y] = coords(app.selected);
  svg("rect", { x, y, width: SQUARE, height: SQUARE, class: "mark-selected" }, under);
  const targets = svg("g", { class: "gui-overlay targets" }, board);
  for (const m of movesFrom(app.selected)) {
    const [tx, ty] = coords(m.to);
    const occupied = s.pieces[m.to] !== undefined;
    svg("circle", occupied
      ? { cx: tx + 50, cy: ty + 50, r: 46, class: "target capture", fill: "none", stroke: "#1a1a1a", "stroke-width": 7, "data-target": m.to }
      : { cx: tx + 50, cy: ty + 50, r: 15, class: "target", "data-target": m.to }, targets);
  }
}

// Draws the picture again from the server's text (after a drag moved a
// piece that did not go).
function redrawBoard() {
  app.drawn = null;
  drawBoard();
}

// The square under a pointer event, or null off the board.
function eventSquare(e) {
  const board = $("board");
  const ctm = board.getScreenCTM();
  if (!ctm) return null;
  const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
  const col = Math.floor(p.x / SQUARE);
  const row = Math.floor(p.y / SQUARE);
  if (col < 0 || col > 7 || row < 0 || row > 7) return null;
  return app.state.flipped ? squareName(7 - col, row) : squareName(col, 7 - row);
}

function svgPoint(e) {
  const ctm = $("board").getScreenCTM();
  return ctm ? new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse()) : null;
}

function select(sq) {
  app.selected = sq;
  drawBoard();
}

// Plays from-to if the server listed it; a promotion asks for the piece.
function tryMove(from, to) {
  const moves = movesFrom(from).filter((m) => m.to === to);
  if (moves.length === 0) return false;
  app.selected = null;
  if (moves.some((m) => m.promotion)) {
    showPromotion(moves);
  } else {
    sendMove(moves[0].uci);
  }
  return true;
}

async function sendMove(uci) {
  drawBoard();
  await act("/api/move", { move: uci });
}

function showPromotion(moves) {
  app.promotion = moves;
  $("promotion").hidden = false;
  drawBoard();
}

function hidePromotion() {
  app.promotion = null;
  $("promotion").hidden = true;
}

function onPromotionChoice(e) {
  const button = e.target.closest("button[data-promote]");
  if (!button || !app.promotion) return;
  const role = button.dataset.promote;
  const move = app.promotion.find((m) => m.promotion === role);
  hidePromotion();
  if (move) sendMove(move.uci);
  else drawBoard();
}

function onPointerDown(e) {
  if (e.button !== 0 || !app.state || app.promotion) return;
  const sq = eventSquare(e);
  if (!sq) return;
  app.press = { sq, x: e.clientX, y: e.clientY, dragging: false, node: null };
  if (movesFrom(sq).length > 0) {
    $("board-wrap").setPointerCapture(e.pointerId);
    e.preventDefault();
  }
}

function onPointerMove(e) {
  const press = app.press;
  if (!press) return;
  if (!press.dragging) {
    const far = Math.hypot(e.clientX - press.x, e.clientY - press.y) > 5;
    if (!far || movesFrom(press.sq).length === 0) return;
    press.dragging = true;
    select(press.sq);
    press.node = $("board").querySelector(`[data-piece][data-at="${press.sq}"]`);
    if (press.node) {
      press.node.classList.add("dragging");
      $("board").appendChild(press.node); // on top of everything
    }
  }
  const p = svgPoint(e);
  if (press.node && p) {
    press.node.setAttribute("x", p.x - SQUARE / 2);
    press.node.setAttribute("y", p.y - SQUARE / 2);
  }
}

function onPointerUp(e) {
  const press = app.press;
  app.press = null;
  if (!press) return;
  const sq = eventSquare(e);
  if (press.dragging) {
    const moved = sq && sq !== press.sq && tryMove(press.sq, sq);
    if (!moved) redrawBoard(); // back to its square
    if (app.deferred) {
      const state = app.deferred;
      app.deferred = null;
      render(state);
    }
    return;
  }
  if (!sq || sq !== press.sq) return;
  // A click: a target of the selected piece moves it; a piece that can
  // move is selected (a second click on it deselects); anything else
  // deselects and changes nothing.
  if (app.selected && app.selected !== sq && tryMove(app.selected, sq)) return;
  if (movesFrom(sq).length > 0 && app.selected !== sq) select(sq);
  else if (app.selected) select(null);
}

function onPointerCancel() {
  if (app.press && app.press.dragging) redrawBoard();
  app.press = null;
}

// ---------------------------------------------------------------------------
// Settings, moves, analysis

function fillSelect(select, values) {
  select.replaceChildren();
  for (const v of values) {
    const o = document.createElement("option");
    o.value = v;
    o.textContent = v;
    select.appendChild(o);
  }
}

function setIfIdle(el, value) {
  if (document.activeElement !== el) el.value = String(value);
}

function renderSettings() {
  const s = app.state.settings;
  setIfIdle($("engine"), s.engine);
  setIfIdle($("algo"), s.algo);
  setIfIdle($("eval"), s.eval);
  setIfIdle($("limit"), s.limit);
  setIfIdle($("limit-value"), s.value);
  setIfIdle($("multipv"), s.multipv);
  setIfIdle($("learn-depth"), s.learn_depth);
  setIfIdle($("ablation-depth"), s.ablation_depth);
  const o = app.options;
  if (o) {
    const [lo, hi] = o[s.limit];
    $("limit-value").min = lo;
    $("limit-value").max = hi;
  }
}

function renderMoves(list) {
  const s = app.state;
  list.replaceChildren();
  let number = s.first_move_number;
  let white = s.first_turn === "w";
  const cell = (text, cls) => {
    const li = document.createElement("li");
    const span = document.createElement("span");
    span.textContent = text;
    if (cls) span.className = cls;
    li.appendChild(span);
    list.appendChild(li);
  };
  if (!white && s.moves.length > 0) {
    cell(number + ".", "num");
    cell("…");
  }
  s.moves.forEach((m, i) => {
    if (white) cell(number + ".", "num");
    cell(m.san, i === s.moves.length - 1 ? "last" : "");
    if (!white) number++;
    white = !white;
  });
  list.scrollTop = list.scrollHeight;
}

function formatCount(n) {
  if (n >= 1e9) return (n / 1e9).toFixed(2) + " G";
  if (n >= 1e6) return (n / 1e6).toFixed(2) + " M";
  if (n >= 1e4) return (n / 1e3).toFixed(1) + " k";
  return String(n);
}

function formatMs(ms) {
  if (ms >= 1000) return (ms / 1000).toFixed(2) + " s";
  if (ms >= 10) return ms.toFixed(0) + " ms";
  return ms.toFixed(2) + " ms";
}

function renderAnalysis() {
  const a = app.state.analysis;
  const lines = $("lines");
  lines.replaceChildren();
  const first = a && a.lines.length > 0 ? a.lines[0] : null;
  if (!first) {
    $("analysis-summary").textContent = a && a.running ? "Searching…" : "";
    setEvalBar(null);
    return;
  }
  const who = a.by === "engine" ? "The engine's search" : "Analysis";
  const lineCount = a.lines.length > 1 ? `, ${a.lines.length} lines` : "";
  $("analysis-summary").textContent =
    `${who}${a.running ? " (running)" : ""}: depth ${first.depth}/${first.seldepth}${lineCount}, ` +
    `${formatCount(a.nodes)} nodes, ${formatCount(a.nps)} nodes/s, ${formatMs(a.time_ms)}`;
  for (const line of a.lines) {
    const li = document.createElement("li");
    const score = document.createElement("span");
    score.className = "score";
    score.textContent = line.score.white + (line.bound === "exact" ? "" : line.bound === "lower" ? "↑" : "↓");
    const depth = document.createElement("span");
    depth.className = "depth";
    depth.textContent = "d" + line.depth;
    li.append(score, depth, document.createTextNode(line.pv));
    lines.appendChild(li);
  }
  setEvalBar(first.score);
}

function setEvalBar(score) {
  const fill = $("evalfill");
  const text = $("evaltext");
  if (!score) {
    fill.style.height = "50%";
    text.textContent = "";
    return;
  }
  // White's share of the bar: a logistic of the centipawns.
  const share = 1 / (1 + Math.exp(-score.white_cp / 400));
  fill.style.height = (share * 100).toFixed(1) + "%";
  fill.style.top = app.state.flipped ? "0" : "auto";
  fill.style.bottom = app.state.flipped ? "auto" : "0";
  text.textContent = score.white;
}

// ---------------------------------------------------------------------------
// Learn

const DECADES = 7; // each chart spans seven powers of ten

function logWidth(value, floor) {
  if (!(value > 0)) return 0;
  const w = (Math.log10(value) - floor) / DECADES;
  return Math.max(0, Math.min(1, w)) * 100;
}

function chartRow(row, budgetNote) {
  const div = document.createElement("div");
  div.className = "row";
  div.dataset.name = row.name;
  const name = document.createElement("div");
  name.className = "name";
  name.textContent = row.name;
  const meaning = document.createElement("div");
  meaning.className = "meaning";
  meaning.textContent = row.meaning;
  div.append(name, meaning);
  const track = (what, cls, width, value) => {
    const t = document.createElement("div");
    t.className = "track";
    const label = document.createElement("span");
    label.className = "what";
    label.textContent = what;
    const area = document.createElement("div");
    area.className = "area";
    const bar = document.createElement("div");
    bar.className = "bar " + cls + (row.complete ? "" : " partial");
    bar.style.width = width.toFixed(1) + "%";
    area.appendChild(bar);
    const v = document.createElement("span");
    v.className = "value";
    v.textContent = value;
    t.append(label, area, v);
    div.appendChild(t);
  };
  const nodes = (row.complete ? "" : "> ") + formatCount(row.nodes);
  track("nodes", "nodes", logWidth(row.nodes, 0), nodes + (row.complete ? "" : budgetNote));
  // Milliseconds from 0.01 ms: the floor is 10^-2.
  track("time", "time", logWidth(row.time_ms, -2), formatMs(row.time_ms));
  return div;
}

function renderLearn() {
  const l = app.state.learn;
  const chart = $("learn-chart");
  const ablation = $("ablation-chart");
  if (!l) {
    $("learn-summary").textContent = "Press Run to measure every algorithm on the position on the board.";
    chart.replaceChildren();
    ablation.replaceChildren();
    return;
  }
  const here = l.fen === app.state.fen ? "the position on the board" : "an earlier position (" + l.fen + ")";
  $("learn-summary").textContent =
    `${l.running ? "Running on" : "Measured on"} ${here}: the algorithms to depth ${l.depth}, ` +
    `the ablation to depth ${l.ablation_depth}, ${l.eval} evaluation, one search thread.`;
  chart.replaceChildren(...l.algorithms.map((r) => chartRow(r, " (gave up)")));
  ablation.replaceChildren(...l.ablation.map((r) => chartRow(r, " (gave up)")));
  $("ablation-title").textContent = `The features of PVS, added one at a time (nodes and time to depth ${l.ablation_depth})`;
}

// ---------------------------------------------------------------------------
// Controls

function showView(view) {
  app.view = view;
  for (const b of document.querySelectorAll("#views button")) {
    b.classList.toggle("active", b.dataset.view === view);
  }
  for (const v of ["play", "analyse", "learn"]) {
    $("view-" + v).hidden = v !== view;
  }
}

function sendSettings(params) {
  return act("/api/settings", params);
}

function wire() {
  // On the board's container: the picture itself is replaced when the
  // position changes.
  const board = $("board-wrap");
  board.addEventListener("pointerdown", onPointerDown);
  board.addEventListener("pointermove", onPointerMove);
  board.addEventListener("pointerup", onPointerUp);
  board.addEventListener("pointercancel", onPointerCancel);
  $("promotion").addEventListener("click", onPromotionChoice);
  for (const b of document.querySelectorAll("#views button")) {
    b.addEventListener("click", () => showView(b.dataset.view));
  }
  $("flip").addEventListener("click", () => act("/api/flip"));
  $("undo").addEventListener("click", () => act("/api/undo"));
  $("new-game").addEventListener("click", () => act("/api/new"));
  $("go").addEventListener("click", () => act("/api/go"));
  $("stop").addEventListener("click", () => act("/api/stop"));
  for (const id of ["engine", "algo", "eval"]) {
    $(id).addEventListener("change", (e) => sendSettings({ [id]: e.target.value }));
  }
  const limit = () => sendSettings({ limit: $("limit").value, value: $("limit-value").value });
  $("limit").addEventListener("change", () => {
    // A new kind of limit starts from its default value.
    const kind = $("limit").value;
    const defaults = { depth: 6, time: 1000, elo: 1600 };
    $("limit-value").value = defaults[kind];
    limit();
  });
  $("limit-value").addEventListener("change", limit);
  $("multipv").addEventListener("change", (e) => sendSettings({ multipv: e.target.value }));
  $("analyse-start").addEventListener("click", () => act("/api/analyse"));
  $("analyse-stop").addEventListener("click", () => act("/api/stop"));
  $("learn-run").addEventListener("click", () =>
    act("/api/learn", { learn_depth: $("learn-depth").value, ablation_depth: $("ablation-depth").value }));
  $("learn-stop").addEventListener("click", () => act("/api/stop"));
  $("load-fen").addEventListener("click", () => act("/api/new", { fen: $("load-text").value }));
  $("load-pgn").addEventListener("click", () => act("/api/new", { pgn: $("load-text").value }));
}

async function start() {
  wire();
  const options = await request("/api/options", {}, "GET");
  if (!options) return;
  app.options = options;
  fillSelect($("engine"), options.engine);
  fillSelect($("algo"), options.algorithms);
  fillSelect($("eval"), options.evaluations);
  const lines = [];
  for (let n = options.multipv[0]; n <= options.multipv[1]; n++) lines.push(n);
  fillSelect($("multipv"), lines);
  $("learn-depth").min = options.learn_depth[0];
  $("learn-depth").max = options.learn_depth[1];
  $("ablation-depth").min = options.ablation_depth[0];
  $("ablation-depth").max = options.ablation_depth[1];
  const state = await request("/api/session");
  if (!state) return;
  app.session = state.session;
  render(state);
  listen();
}

start();
