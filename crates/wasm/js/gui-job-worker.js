// One job of the web app (gui-worker.js starts it): runs the order to its
// end, posting { type: "report", report } for each report and then
// { type: "done", moved }, or { type: "error", message }. The app stops a
// job by ending this worker.
import { runGuiJob } from "./fianchetto_wasm.js";
import load from "./load.js";

self.onmessage = async (e) => {
  const m = e.data;
  if (m.type !== "run") return;
  try {
    await load(m.simd);
    const moved = runGuiJob(m.order, (report) => self.postMessage({ type: "report", report }));
    self.postMessage({ type: "done", moved });
  } catch (err) {
    self.postMessage({ type: "error", message: String(err && err.message || err) });
  }
};
