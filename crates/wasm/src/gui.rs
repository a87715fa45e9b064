//! The web app of `fianchetto gui` without a server: [`GuiApp`] answers the
//! page's requests in a Web Worker with the app's own code
//! ([`fianchetto_gui::app::App`]), and [`run_gui_job`] runs its jobs (the
//! engine's move, the analysis, the Learn experiment) in another worker.
//! The page is the served app's, unchanged; `js/gui/` holds the scripts that
//! carry its requests and live updates to the workers.
//!
//! A job cannot run beside the requests in one worker (a search does not
//! yield), so the app hands each job over ([`App::handing_off`]): after
//! every call the host asks [`GuiApp::jobs`] what to start and what to
//! stop, runs the order in a job worker, and passes the worker's reports
//! back through [`GuiApp::report`] and [`GuiApp::finish`]. Stopping a job
//! ends its worker; "move now" plays the first move of the engine's last
//! reported line.

use crate::js::{error, Obj};
use fianchetto_eval::nnue::Network;
use fianchetto_eval::select::load_network;
use fianchetto_gui::app::{App, Limits, Method, Reply, Subscription};
use fianchetto_gui::jobs::{run, Handoff};
use fianchetto_gui::params::Params;
use fianchetto_gui::wire;
use js_sys::Array;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::TryRecvError;
use std::sync::Arc;
use std::time::Duration;
use wasm_bindgen::prelude::*;

/// A tab in a static page is open as long as the page: its session does
/// not expire while the player thinks.
const SESSION_EXPIRY: Duration = Duration::from_secs(365 * 24 * 3600);

/// The app in a Web Worker: the page's requests in, replies, live updates
/// and job orders out.
#[wasm_bindgen]
pub struct GuiApp {
    app: App,
    /// The live update streams (`/api/events`), by number.
    streams: Vec<(u32, Subscription)>,
    next_stream: u32,
    /// The job handed to the host, with the number the host knows it by.
    job: Option<(u32, Handoff)>,
    next_job: u32,
}

/// The embedded network, read once per worker.
fn network() -> Result<Arc<Network>, JsError> {
    load_network(None).map_err(error)
}

#[wasm_bindgen]
impl GuiApp {
    /// The app with the embedded network, one tab at a time.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Result<GuiApp, JsError> {
        let limits = Limits {
            max_sessions: 4,
            expiry: SESSION_EXPIRY,
            // One job runs; a second is the one replacing it while the host
            // has not yet dropped the first (it counts until then).
            max_jobs: 2,
        };
        Ok(GuiApp {
            app: App::handing_off(network()?, limits),
            streams: Vec::new(),
            next_stream: 1,
            job: None,
            next_job: 1,
        })
    }

    /// Answers a request of the page: `method` (`GET` or `POST`), `path`
    /// (`/api/…`) and its parameters as form text (the query and the body
    /// together). The reply is `{ status, contentType, body, download }`;
    /// for `/api/events`, `{ status: 200, stream }`, the number of a live
    /// stream whose snapshots [`GuiApp::events`] gives.
    pub fn request(&mut self, method: &str, path: &str, params: &str) -> JsValue {
        let reply = match (method, Params::parse(params.as_bytes())) {
            (_, Err(e)) => Reply::error(&e),
            ("GET", Ok(p)) => self.app.handle(Method::Get, path, &p),
            ("POST", Ok(p)) => self.app.handle(Method::Post, path, &p),
            _ => Reply::error(&fianchetto_gui::GuiError::Method),
        };
        match reply {
            Reply::Events(sub) => {
                let id = self.next_stream;
                self.next_stream += 1;
                self.streams.push((id, sub));
                Obj::new().set("status", 200).set("stream", id).into_js()
            }
            Reply::Body {
                status,
                content_type,
                body,
                download,
            } => Obj::new()
                .set("status", status)
                .set("contentType", content_type)
                .set("body", body)
                .set("download", download.map_or(JsValue::NULL, JsValue::from))
                .into_js(),
        }
    }

    /// Ends the live stream `stream`.
    #[wasm_bindgen(js_name = closeStream)]
    pub fn close_stream(&mut self, stream: u32) {
        self.streams.retain(|(id, _)| *id != stream);
    }

    /// The snapshots waiting on the live streams, oldest first, as
    /// `[stream, text]` pairs; a stream whose session closed sends
    /// `[stream, null]` once and ends.
    pub fn events(&mut self) -> Array {
        let out = Array::new();
        self.streams.retain(|(id, sub)| loop {
            match sub.events.try_recv() {
                Ok(text) => {
                    out.push(&Array::of2(&JsValue::from(*id), &JsValue::from(text)));
                }
                Err(TryRecvError::Empty) => break true,
                Err(TryRecvError::Disconnected) => {
                    out.push(&Array::of2(&JsValue::from(*id), &JsValue::NULL));
                    break false;
                }
            }
        });
        out
    }

    /// What the host does about jobs now, asked after every call:
    /// `{ stop, start }`: `stop` true to end the job worker running (its
    /// job is over), `start` `{ job, order }` to run `order` (JSON, for
    /// [`run_gui_job`]) in a new job worker, known as `job`, or `null`.
    pub fn jobs(&mut self) -> JsValue {
        let mut stop = false;
        let mut start = None;
        loop {
            // A new job replaces the running one; one that a later one
            // already replaced never starts.
            for handoff in self.app.take_handoffs() {
                if handoff.is_current() {
                    stop |= self.job.take().is_some();
                    let id = self.next_job;
                    self.next_job += 1;
                    start = Some((id, wire::order_to_json(handoff.order())));
                    self.job = Some((id, handoff));
                }
            }
            if let Some((id, handoff)) = self.job.take() {
                let move_now = handoff.move_now_asked();
                if move_now || !handoff.is_current() {
                    // Its worker ends (a job not yet started never starts).
                    stop = true;
                    start = start.filter(|(s, _)| *s != id);
                    if move_now {
                        // "Move now": the engine plays its line's first
                        // move, which may start the next job.
                        handoff.move_now();
                        continue;
                    }
                } else {
                    self.job = Some((id, handoff));
                }
            }
            break;
        }
        let start = start.map_or(JsValue::NULL, |(job, order)| {
            Obj::new().set("job", job).set("order", order).into_js()
        });
        Obj::new().set("stop", stop).set("start", start).into_js()
    }

    /// A report of job `job` (JSON from [`run_gui_job`]'s callback); one
    /// of a job that is over is ignored.
    pub fn report(&mut self, job: u32, report: &str) -> Result<(), JsError> {
        let report = wire::report_from_json(report).map_err(error)?;
        if let Some((id, handoff)) = &self.job {
            if *id == job {
                handoff.report(report);
            }
        }
        Ok(())
    }

    /// Job `job` ended; `moved` is what [`run_gui_job`] returned.
    pub fn finish(&mut self, job: u32, moved: &str) -> Result<(), JsError> {
        let moved = match moved {
            "null" => None,
            text => Some(wire::moved_from_json(text).map_err(error)?),
        };
        match self.job.take() {
            Some((id, handoff)) if id == job => handoff.finish(moved),
            other => self.job = other,
        }
        Ok(())
    }
}

/// Runs a job order of [`GuiApp::jobs`] to its end, calling `report` with
/// each report as JSON, and returns the engine's move as JSON (`"null"`
/// for a job that makes none). The job worker calls it; it is stopped by
/// ending the worker.
#[wasm_bindgen(js_name = runGuiJob)]
pub fn run_gui_job(order: &str, report: &js_sys::Function) -> Result<String, JsError> {
    let order = wire::order_from_json(order).map_err(error)?;
    let net = network()?;
    let stop = Arc::new(AtomicBool::new(false));
    let moved = run(&order, &net, &stop, &mut |r| {
        let text = JsValue::from(wire::report_to_json(&r));
        report.call1(&JsValue::NULL, &text).is_ok()
    });
    Ok(moved.map_or_else(|| "null".to_string(), |m| wire::moved_to_json(&m)))
}
