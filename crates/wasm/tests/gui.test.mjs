// The web app without a server: GuiApp answers the page's requests with the
// app's own code and hands each job over; runGuiJob runs it (here in the
// same thread, where the page runs it in a job worker) and its reports and
// move come back into the session.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fianchetto } from "./package.mjs";

const { GuiApp, runGuiJob } = fianchetto;

function form(params) {
  return new URLSearchParams(params).toString();
}

// A session whose engine plays `engine` with the material evaluation at depth 2.
function session(app, engine) {
  const created = app.request("POST", "/api/session", "");
  assert.equal(created.status, 200, created.body);
  const id = JSON.parse(created.body).session;
  const r = app.request("POST", "/api/settings", form({ session: id, engine, eval: "material", limit: "depth", value: "2" }));
  assert.equal(r.status, 200, r.body);
  return id;
}

// Runs what app.jobs() asks for until no job is left; returns the number of jobs run.
function runJobs(app) {
  let ran = 0;
  for (let next = app.jobs().start; next; next = app.jobs().start) {
    const moved = runGuiJob(next.order, (report) => app.report(next.job, report));
    app.finish(next.job, moved);
    ran++;
  }
  return ran;
}

test("a move by request, the engine's answer from a handed-over job, live updates", () => {
  const app = new GuiApp();
  const id = session(app, "black");
  const stream = app.request("GET", "/api/events", form({ session: id }));
  assert.equal(stream.status, 200);
  const move = app.request("POST", "/api/move", form({ session: id, move: "e2e4" }));
  assert.equal(move.status, 200, move.body);
  assert.equal(JSON.parse(move.body).thinking, true);
  assert.equal(runJobs(app), 1);
  const state = JSON.parse(app.request("GET", "/api/state", form({ session: id })).body);
  assert.equal(state.moves.length, 2, JSON.stringify(state.moves));
  assert.equal(state.thinking, false);
  const events = app.events();
  assert.ok(events.length >= 2, "snapshots were sent");
  assert.ok(events.every(([s, text]) => s === stream.stream && typeof text === "string"));
  assert.equal(JSON.parse(events.at(-1)[1]).revision, state.revision);
});

test("errors are replies with the server's statuses, never exceptions", () => {
  const app = new GuiApp();
  const id = session(app, "none");
  const illegal = app.request("POST", "/api/move", form({ session: id, move: "e2e5" }));
  assert.equal(illegal.status, 400);
  assert.match(JSON.parse(illegal.body).error, /e2e5/);
  assert.equal(app.request("POST", "/api/new", form({ session: id, fen: "8/8 w" })).status, 400);
  assert.equal(app.request("GET", "/api/state", form({ session: "nope" })).status, 404);
  assert.equal(app.request("DELETE", "/api/state", "").status, 405);
  assert.equal(app.request("GET", "/nothing", "").status, 404);
  assert.throws(() => app.report(1, "{\"line\": 3}"), /malformed report/);
  assert.throws(() => runGuiJob("{}", () => true), /malformed job order/);
});

test("a stopped analysis ends its job; a PGN is written", () => {
  const app = new GuiApp();
  const id = session(app, "none");
  assert.equal(app.request("POST", "/api/analyse", form({ session: id })).status, 200);
  const started = app.jobs();
  assert.ok(started.start && !started.stop);
  assert.equal(app.request("POST", "/api/stop", form({ session: id })).status, 200);
  const stopped = app.jobs();
  assert.deepEqual({ stop: stopped.stop, start: stopped.start }, { stop: true, start: null });
  app.request("POST", "/api/move", form({ session: id, move: "g1f3" }));
  const pgn = app.request("GET", "/api/pgn", form({ session: id }));
  assert.equal(pgn.status, 200);
  assert.equal(pgn.download, "fianchetto.pgn");
  assert.match(pgn.body, /1\. Nf3 \*/);
});
