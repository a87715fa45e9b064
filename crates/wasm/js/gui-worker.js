// The web app's server side in a Web Worker (a module worker, started by
// gui-page.js): the app's own request handling (GuiApp) answers the page's
// requests and feeds its live streams; each job (the engine's move, the
// analysis, the Learn experiment) runs in a job worker of its own
// (gui-job-worker.js), ended when the job is stopped or replaced.
// Messages in: { type: "request", id, method, path, params },
// { type: "close", stream }. Messages out: { type: "ready", simd },
// { type: "reply", id, reply }, { type: "event", stream, data } (data null:
// the stream ended), { type: "error", message, fatal } (fatal: the app did
// not start, no request will be answered).
import { GuiApp } from "./fianchetto_wasm.js";
import load from "./load.js";

let app = null;
let simd = false;
let jobWorker = null; // the worker running the current job
const queue = []; // messages that came before the module was ready

function post(message) {
  self.postMessage(message);
}

// Starts or stops job workers as the app asks, then sends the live
// updates waiting (a job's end may have made some).
function pump() {
  const { stop, start } = app.jobs();
  if (stop && jobWorker) {
    jobWorker.terminate();
    jobWorker = null;
  }
  if (start) startJob(start.job, start.order);
  for (const [stream, data] of app.events()) post({ type: "event", stream, data });
}

function startJob(job, order) {
  if (jobWorker) jobWorker.terminate();
  const worker = new Worker(new URL("./gui-job-worker.js", import.meta.url), { type: "module" });
  jobWorker = worker;
  worker.onmessage = (e) => {
    if (worker !== jobWorker) return; // a job already ended
    const m = e.data;
    try {
      if (m.type === "report") {
        app.report(job, m.report);
      } else if (m.type === "done") {
        jobWorker = null;
        worker.terminate();
        app.finish(job, m.moved);
      } else if (m.type === "error") {
        jobWorker = null;
        worker.terminate();
        post({ type: "error", message: "a job failed: " + m.message });
        app.finish(job, "null");
      }
    } catch (err) {
      post({ type: "error", message: String(err && err.message || err) });
    }
    pump();
  };
  worker.onerror = (e) => {
    if (worker !== jobWorker) return;
    jobWorker = null;
    post({ type: "error", message: "the job worker failed: " + (e.message || "unknown error") });
    app.finish(job, "null");
    pump();
  };
  worker.postMessage({ type: "run", order, simd });
}

function handle(m) {
  if (m.type === "request") {
    const reply = app.request(m.method, m.path, m.params || "");
    post({ type: "reply", id: m.id, reply });
  } else if (m.type === "close") {
    app.closeStream(m.stream);
  }
  pump();
}

self.onmessage = (e) => {
  if (app) handle(e.data);
  else queue.push(e.data);
};

try {
  simd = await load();
  app = new GuiApp();
  post({ type: "ready", simd });
  for (const m of queue.splice(0)) handle(m);
} catch (err) {
  post({ type: "error", fatal: true, message: "the app did not start: " + String(err && err.message || err) });
}
