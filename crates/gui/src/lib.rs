//! # fianchetto-gui
//!
//! `fianchetto gui`: a local web app to play against the engine, analyse a
//! position and watch what the algorithms cost (the Learn view, after
//! Rookie's table). An HTTP server on 127.0.0.1 ([axum] on [hyper] and
//! tokio) serves one page, whose HTML, JavaScript and CSS are embedded in
//! the library; the page asks the server for everything about chess (legal
//! moves, SAN, PGN, outcomes) as JSON ([serde_json]) and gets live updates
//! as Server-Sent Events.
//!
//! - [`app`]: the sessions (one per tab) and the requests, without HTTP.
//! - [`session`], [`settings`], [`jobs`]: a tab's state, its engine
//!   settings, and the searches that run for it.
//! - [`server`]: the HTTP side: the router, the limits on what a request
//!   may be, the live streams, and the command's [`run`].
//! - [`params`]: a request's form parameters (query and body, decoded by
//!   serde_urlencoded).
//! - [`wire`]: a job's order and reports as JSON, for a job that runs in
//!   another Web Worker (the app in WebAssembly, `fianchetto-wasm`).
//!
//! The feature `server` (on by default) brings the HTTP side and its
//! dependencies (axum, hyper, tokio, clap); without it the crate is the
//! app alone, which builds for `wasm32-unknown-unknown`: there
//! [`App::handing_off`](app::App::handing_off) hands each job to the host
//! instead of starting a thread.
//!
//! The engine binary's `fianchetto gui` subcommand calls [`run`]. A program
//! of its own can answer a request in-process through the router:
//!
//! ```
//! use fianchetto_gui::app::{App, Limits};
//! use fianchetto_gui::server::router;
//! use std::sync::Arc;
//! use tower::ServiceExt;
//!
//! let net = Arc::new(fianchetto_eval::nnue::Network::zero());
//! let app = Arc::new(App::new(net, Limits::default()));
//! let addr = "127.0.0.1:8088".parse()?;
//! let request = axum::http::Request::get("/api/options")
//!     .header("Host", "127.0.0.1:8088")
//!     .body(axum::body::Body::empty())?;
//! let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
//! let reply = runtime.block_on(router(app, addr).oneshot(request))?;
//! assert_eq!(reply.status(), 200);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

pub mod app;
pub mod jobs;
pub mod params;
#[cfg(feature = "server")]
pub mod server;
pub mod session;
pub mod settings;
pub mod wire;

#[cfg(feature = "server")]
pub use server::{run, GuiArgs, StartError};

#[cfg(test)]
mod tests;

/// Why a request was refused; each becomes an HTTP status and a message
/// the page shows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GuiError {
    /// A malformed FEN, PGN, move or parameter (400).
    #[error("{0}")]
    BadInput(String),
    /// A request the game's state does not allow now: a move on the
    /// engine's turn, after the end, nothing to take back (409).
    #[error("{0}")]
    Conflict(String),
    /// The tab's session expired or never existed (404).
    #[error("this tab's session is closed (it expired, or the server restarted); reload the page")]
    UnknownSession,
    /// An input over its size limit (413).
    #[error("{what} is {len} bytes long; at most {limit} are accepted")]
    TooLarge {
        /// What was too long.
        what: &'static str,
        /// Its length.
        len: usize,
        /// The limit.
        limit: usize,
    },
    /// Too many tabs or searches at once (503).
    #[error("{0}")]
    Busy(String),
    /// No such page (404).
    #[error("no such page: {0}")]
    NotFound(String),
    /// The method is not the one the path takes (405).
    #[error("this address does not take that method")]
    Method,
    /// A request from another site, or for another host name (403).
    #[error("{0}")]
    Forbidden(String),
}

impl GuiError {
    /// The HTTP status of the reply.
    pub fn status(&self) -> u16 {
        match self {
            GuiError::BadInput(_) => 400,
            GuiError::Forbidden(_) => 403,
            GuiError::UnknownSession | GuiError::NotFound(_) => 404,
            GuiError::Method => 405,
            GuiError::Conflict(_) => 409,
            GuiError::TooLarge { .. } => 413,
            GuiError::Busy(_) => 503,
        }
    }
}

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
