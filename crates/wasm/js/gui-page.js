// The web app of `fianchetto gui` as static files: loaded before the app's
// own script (app.js), it answers the requests app.js makes (`fetch` of
// /api/…, the EventSource of /api/events, the PGN download link) from the
// app running in a Web Worker (gui-worker.js, beside this file) instead
// of a server. app.js uses `window.fianchettoFetch` and
// `window.FianchettoEventSource` where they are set.
"use strict";
(() => {
  const here = document.currentScript.src;
  const worker = new Worker(new URL("gui-worker.js", here), { type: "module" });
  let nextId = 1;
  const pending = new Map(); // request id -> resolve
  const streams = new Map(); // stream number -> LocalEventSource
  const opening = new Map(); // request id -> LocalEventSource waiting for its number
  let failure = null; // why the app did not start, if it did not

  // The reply to every request once the app cannot start: the page shows
  // the message as it shows a server's error.
  function failed() {
    return { status: 503, contentType: "application/json", body: JSON.stringify({ error: failure }) };
  }

  worker.onmessage = (e) => {
    const m = e.data;
    if (m.type === "reply") {
      const source = opening.get(m.id);
      if (source) {
        opening.delete(m.id);
        source.opened(m.reply);
        return;
      }
      const resolve = pending.get(m.id);
      pending.delete(m.id);
      if (resolve) resolve(m.reply);
    } else if (m.type === "event") {
      const source = streams.get(m.stream);
      if (source) source.deliver(m.data);
    } else if (m.type === "error") {
      console.error("fianchetto:", m.message);
      if (m.fatal) {
        failure = m.message;
        for (const resolve of pending.values()) resolve(failed());
        pending.clear();
        for (const source of opening.values()) source.opened(failed());
        opening.clear();
      }
    } else if (m.type === "ready") {
      document.body.dataset.wasm = m.simd ? "simd128" : "scalar";
    }
  };

  // A request's path and its parameters (the query and a form body together).
  function split(url, body) {
    const u = new URL(url, location.href);
    const params = new URLSearchParams(u.search);
    if (body) for (const [k, v] of new URLSearchParams(body)) params.append(k, v);
    return { path: u.pathname.replace(/^.*(\/api\/)/, "$1"), params: params.toString() };
  }

  function ask(method, path, params) {
    if (failure !== null) return Promise.resolve(failed());
    const id = nextId++;
    return new Promise((resolve) => {
      pending.set(id, resolve);
      worker.postMessage({ type: "request", id, method, path, params });
    });
  }

  // `fetch` for the app's own requests: the worker's reply as a Response.
  window.fianchettoFetch = async (url, init = {}) => {
    const method = (init.method || "GET").toUpperCase();
    const { path, params } = split(url, init.body);
    const reply = await ask(method, path, params);
    return new Response(reply.body, {
      status: reply.status,
      headers: { "Content-Type": reply.contentType },
    });
  };

  // The live updates of a session, as an EventSource delivers them.
  class LocalEventSource {
    constructor(url) {
      this.listeners = [];
      this.onerror = null;
      this.stream = null;
      this.closed = false;
      const { path, params } = split(url);
      if (failure !== null) {
        setTimeout(() => this.opened(failed()), 0);
        return;
      }
      const id = nextId++;
      opening.set(id, this);
      worker.postMessage({ type: "request", id, method: "GET", path, params });
    }

    opened(reply) {
      if (reply.status !== 200 || reply.stream === undefined) {
        if (this.onerror) this.onerror(new Event("error"));
        return;
      }
      this.stream = reply.stream;
      if (this.closed) worker.postMessage({ type: "close", stream: this.stream });
      else streams.set(this.stream, this);
    }

    deliver(data) {
      if (data === null) {
        streams.delete(this.stream);
        if (this.onerror) this.onerror(new Event("error"));
        return;
      }
      for (const f of this.listeners) f({ data });
    }

    addEventListener(type, f) {
      if (type === "state") this.listeners.push(f);
    }

    close() {
      this.closed = true;
      if (this.stream !== null) {
        streams.delete(this.stream);
        worker.postMessage({ type: "close", stream: this.stream });
      }
    }
  }
  window.FianchettoEventSource = LocalEventSource;

  // The "Export PGN" link names a server address: the PGN is asked of the
  // worker and saved from memory instead.
  document.addEventListener("click", async (e) => {
    const link = e.target.closest && e.target.closest("#export-pgn");
    if (!link) return;
    e.preventDefault();
    const response = await window.fianchettoFetch(link.getAttribute("href"));
    const text = await response.text();
    if (!response.ok) {
      console.error("fianchetto: the PGN could not be written:", text);
      return;
    }
    const save = document.createElement("a");
    save.href = URL.createObjectURL(new Blob([text], { type: "application/x-chess-pgn" }));
    save.download = "fianchetto.pgn";
    document.body.appendChild(save);
    save.click();
    save.remove();
    setTimeout(() => URL.revokeObjectURL(save.href), 10000);
  });
})();
