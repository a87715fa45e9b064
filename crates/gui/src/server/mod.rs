//! The HTTP side of `fianchetto gui`: [axum] routes every request to the
//! app ([`App::handle`]) and turns its replies into responses, live ones
//! as Server-Sent Events ([`axum::response::Sse`]); hyper serves the
//! connections, one request each, on tokio.
//!
//! What a request may be is enforced by the framework, before the app sees
//! it:
//!
//! - a head (request line and headers) over [`MAX_HEAD`] bytes, or with
//!   more than [`MAX_HEADERS`] headers, is refused by hyper's parser (431)
//!   without reading further (`http1::Builder::max_buf_size`,
//!   `max_headers`), and a head not complete within [`IO_TIMEOUT`] closes
//!   the connection (`header_read_timeout`);
//! - a body over [`MAX_BODY`] is refused (413): a declared
//!   `Content-Length` over it at once, before a byte of the body is read or
//!   a buffer is reserved for it; a chunked body once it passes the limit
//!   ([`DefaultBodyLimit`]); a request not read within [`IO_TIMEOUT`] gets
//!   408;
//! - a `Host` other than the address the app listens on (DNS rebinding)
//!   and a cross-site `Origin` are refused (403): see [`check_origin`]; so
//!   is a POST that `Referer` or `Sec-Fetch-Site` says comes from another
//!   site (see [`check_sender`]); two `Host` headers are refused (400).
//!
//! A write that the client does not take within [`IO_TIMEOUT`] (it
//! stopped reading, a live stream's included) drops the connection; a
//! refused request's unread rest is read and thrown away for up to a
//! second, so that the client sees the refusal rather than a reset.
//!
//! Why Server-Sent Events: the page needs requests and one stream of
//! updates from the server, nothing the browser sends back on a live
//! channel. SSE is plain HTTP (a response that never ends), and the
//! browser's `EventSource` reconnects by itself. Every connection carries
//! one request (no keep-alive): the app is local, and a connection that
//! cannot be reused cannot be left in a bad state by the request before.

use super::app::{App, Limits, Method, Reply, Subscription};
use super::params::Params;
use super::GuiError;
use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method as HttpMethod, StatusCode, Uri};
use axum::middleware::{self, Next};
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use axum::Router;
use fianchetto_eval::select::load_network;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::convert::Infallible;
use std::future::Future;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener};
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::sync::mpsc::error::TrySendError;
use tokio::sync::Semaphore;

mod admit;
mod conn;
#[cfg(test)]
mod tests;

use admit::admit;
pub use admit::{check_origin, check_sender};
use conn::Lingering;

/// The port tried when none is given (any free one if it is taken).
const DEFAULT_PORT: u16 = 8088;
/// The largest request head (request line and headers) accepted, in bytes.
pub const MAX_HEAD: usize = 16 * 1024;
/// The most headers a request may have.
pub const MAX_HEADERS: usize = 64;
/// The longest URL accepted.
pub const MAX_URL: usize = 8 * 1024;
/// The largest request body accepted: a PGN at its limit, form-encoded
/// (up to three bytes for one), and the other parameters.
pub const MAX_BODY: usize = 3 * super::app::MAX_PGN + 1024;
/// Threads answering requests.
const WORKERS: usize = 4;
/// Connections served at once; more wait to be accepted.
const MAX_CONNECTIONS: usize = 256;
/// Live connections open at once, all tabs together.
const MAX_STREAMS: usize = 64;
/// A live connection sends a comment this often: it finds a closed tab,
/// and keeps the tab's session alive while it is open.
const KEEP_ALIVE: Duration = Duration::from_secs(10);
/// How long a connection may take to send its request head, and then its
/// body, however slowly it trickles in; and how long a live connection
/// that reads nothing is kept.
pub const IO_TIMEOUT: Duration = Duration::from_secs(10);
/// Events queued for a live connection's socket.
const EVENT_QUEUE: usize = 4;
/// After a connection ends with part of the request unread (a refusal),
/// this much of it is still read and thrown away, for at most
/// [`DRAIN_TIME`], so that the client sees the refusal rather than a reset
/// connection.
const MAX_DRAIN: usize = 1 << 20;
const DRAIN_TIME: Duration = Duration::from_secs(1);

/// Arguments of `fianchetto gui`.
#[derive(Debug, clap::Args)]
pub struct GuiArgs {
    /// The port to listen on (default: 8088, or any free port if it is
    /// taken; 0: any free port).
    #[arg(long)]
    pub port: Option<u16>,
    /// The address to listen on. The default, 127.0.0.1, lets no other
    /// machine in; another address opens the app (and the CPU it runs
    /// searches on) to the network it is on.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub bind: IpAddr,
    /// Do not open a browser.
    #[arg(long)]
    pub no_open: bool,
}

/// Why the app could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The address cannot be listened on, or the network cannot be loaded.
    #[error("{0}")]
    Usage(String),
    /// Writing the address, or starting the threads, failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// Runs the app until the process is stopped.
pub fn run(args: &GuiArgs) -> Result<(), StartError> {
    let listener = bind(args)?;
    let addr = listener.local_addr()?;
    let url = page_url(addr);
    let net = load_network(None).map_err(|e| StartError::Usage(e.to_string()))?;
    let app = Arc::new(App::new(net, Limits::default()));
    {
        use std::io::Write as _;
        let mut out = std::io::stdout().lock();
        writeln!(out, "Fianchetto GUI: {url}  (Ctrl-C stops it)")?;
        if !addr.ip().is_loopback() {
            writeln!(
                out,
                "warning: listening on {}: other machines can reach the app",
                addr.ip()
            )?;
        }
        out.flush()?;
    }
    // Closed tabs' sessions are swept once a minute.
    {
        let app = app.clone();
        std::thread::Builder::new()
            .name("gui-expiry".into())
            .spawn(move || loop {
                std::thread::sleep(Duration::from_secs(60));
                app.expire(Instant::now());
            })?;
    }
    if !args.no_open {
        open_browser(&url);
    }
    let runtime = runtime()?;
    runtime.block_on(serve(listener, app))?;
    Ok(())
}

/// The runtime the server runs on.
fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(WORKERS)
        .thread_name("gui-http")
        .enable_all()
        .build()
}

/// Serves `app` on `listener` from a thread of its own (with its own
/// runtime) until the process ends: what tests and programs that embed
/// the app call.
pub fn spawn(listener: TcpListener, app: Arc<App>) -> std::io::Result<std::thread::JoinHandle<()>> {
    let runtime = runtime()?;
    std::thread::Builder::new()
        .name("gui-server".into())
        .spawn(move || {
            let _ = runtime.block_on(serve(listener, app));
        })
}

/// Accepts the connections of `listener` and answers each with
/// [`router`], under the limits on heads and headers; runs until the
/// listener fails.
pub async fn serve(listener: TcpListener, app: Arc<App>) -> std::io::Result<()> {
    let addr = listener.local_addr()?;
    listener.set_nonblocking(true)?;
    let listener = tokio::net::TcpListener::from_std(listener)?;
    let router = router(app, addr);
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let Ok(slot) = slots.clone().acquire_owned().await else {
            return Ok(());
        };
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            // Out of file descriptors, say: wait for some to close.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let router = router.clone();
        tokio::spawn(async move {
            serve_connection(router, Lingering::new(stream, IO_TIMEOUT)).await;
            drop(slot);
        });
    }
}

/// Answers the request that arrives on `io` (a socket, or any byte stream:
/// the fuzz target feeds it arbitrary bytes) with `router`, under the
/// limits every connection has (a head of at most [`MAX_HEAD`] bytes and
/// [`MAX_HEADERS`] headers, read within [`IO_TIMEOUT`], one request a
/// connection). A client that goes away or sends nonsense ends
/// its own connection; hyper has answered what deserves an answer.
pub async fn serve_connection<I>(router: Router, io: I)
where
    I: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let service = TowerToHyperService::new(router);
    let _ = connection()
        .serve_connection(TokioIo::new(io), service)
        .await;
}

/// How each connection is served: one request, a head of at most
/// [`MAX_HEAD`] bytes and [`MAX_HEADERS`] headers, read within
/// [`IO_TIMEOUT`].
fn connection() -> http1::Builder {
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(IO_TIMEOUT)
        .max_buf_size(MAX_HEAD)
        .max_headers(MAX_HEADERS)
        .keep_alive(false)
        .title_case_headers(true);
    builder
}

/// What the handlers share.
#[derive(Clone)]
struct Server {
    app: Arc<App>,
    addr: SocketAddr,
    streams: Arc<AtomicUsize>,
}

/// The app's routes for `app` listening on `addr` (the address the `Host`
/// of each request must name): every path goes to [`App::handle`], behind
/// the checks on the request's size, host and origin.
pub fn router(app: Arc<App>, addr: SocketAddr) -> Router {
    let server = Server {
        app,
        addr,
        streams: Arc::new(AtomicUsize::new(0)),
    };
    Router::new()
        .fallback(handle)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn_with_state(server.clone(), guard))
        .with_state(server)
}

/// The checks made before a request is read: its declared body, its URL,
/// its host and origin; then the whole request must arrive within
/// [`IO_TIMEOUT`].
async fn guard(State(server): State<Server>, request: Request, next: Next) -> Response {
    if let Err(e) = admit(&request, server.addr) {
        return error(&e);
    }
    match tokio::time::timeout(IO_TIMEOUT, next.run(request)).await {
        Ok(response) => response,
        Err(_) => (StatusCode::REQUEST_TIMEOUT, "the request took too long").into_response(),
    }
}

/// Answers one request: the method, path and parameters (query and form
/// body) to the app, its reply back.
async fn handle(
    State(server): State<Server>,
    method: HttpMethod,
    uri: Uri,
    body: Bytes,
) -> Response {
    let method = match method {
        HttpMethod::GET | HttpMethod::HEAD => Method::Get,
        HttpMethod::POST => Method::Post,
        _ => return error(&GuiError::Method),
    };
    let params = match parameters(method, &uri, &body) {
        Ok(params) => params,
        Err(e) => return error(&e),
    };
    match server.app.handle(method, uri.path(), &params) {
        Reply::Events(subscription) => events(&server.streams, subscription),
        reply => respond(reply),
    }
}

/// The query's parameters, then (for a POST) the body's.
fn parameters(method: Method, uri: &Uri, body: &[u8]) -> Result<Params, GuiError> {
    let mut params = Params::parse(uri.query().unwrap_or("").as_bytes())?;
    if method == Method::Post {
        params.extend(Params::parse(body)?);
    }
    Ok(params)
}

/// The page loads its script and style from this server and nothing else.
const CSP: &str = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'";

/// The reply for an error.
fn error(e: &GuiError) -> Response {
    respond(Reply::error(e))
}

/// A whole reply as a response (a stream is answered by [`events`]).
fn respond(reply: Reply) -> Response {
    let Reply::Body {
        status,
        content_type,
        body,
        download,
    } = reply
    else {
        return error(&GuiError::NotFound("a stream".into()));
    };
    let mut response = Response::new(Body::from(body));
    *response.status_mut() =
        StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let headers: &mut HeaderMap = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    if let Some(value) = download
        .and_then(|name| HeaderValue::from_str(&format!("attachment; filename=\"{name}\"")).ok())
    {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    response
}

/// Holds one of the [`MAX_STREAMS`] live connections while it lives.
struct StreamSlot(Arc<AtomicUsize>);

impl Drop for StreamSlot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A session's snapshots as Server-Sent Events, until the tab goes (the
/// connection closes or reads nothing for [`IO_TIMEOUT`]) or the session
/// is closed (its sender is dropped). A thread per live connection waits
/// on the session's channel and hands the events to the response.
fn events(streams: &Arc<AtomicUsize>, sub: Subscription) -> Response {
    if streams.fetch_add(1, Ordering::SeqCst) >= MAX_STREAMS {
        streams.fetch_sub(1, Ordering::SeqCst);
        return error(&GuiError::Busy("too many live connections".into()));
    }
    let slot = StreamSlot(streams.clone());
    let (tx, rx) = tokio::sync::mpsc::channel::<Event>(EVENT_QUEUE);
    let spawned = std::thread::Builder::new()
        .name("gui-events".into())
        .spawn(move || {
            let _slot = slot;
            forward(&sub, &tx);
        });
    if spawned.is_err() {
        return error(&GuiError::Busy("cannot start a live connection".into()));
    }
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv()
            .await
            .map(|event| (Ok::<_, Infallible>(event), rx))
    });
    let mut response = Sse::new(stream).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream; charset=utf-8"),
    );
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// Hands the snapshots of `sub` to `tx` as events (and a comment when
/// there is none for [`KEEP_ALIVE`]) until the session or the connection
/// ends.
fn forward(sub: &Subscription, tx: &tokio::sync::mpsc::Sender<Event>) {
    loop {
        let event = match sub.events.recv_timeout(KEEP_ALIVE) {
            Ok(mut state) => {
                // Only the newest snapshot matters: skip those queued
                // behind it.
                while let Ok(newer) = sub.events.try_recv() {
                    state = newer;
                }
                Event::default().event("state").data(state)
            }
            Err(RecvTimeoutError::Timeout) => {
                if !sub.touch() {
                    return;
                }
                Event::default().comment("keep-alive")
            }
            Err(RecvTimeoutError::Disconnected) => return,
        };
        if !send_within(tx, event, IO_TIMEOUT) {
            return;
        }
    }
}

/// Queues `event`, waiting up to `time` for room; false when the
/// connection is gone or reads nothing for that long.
fn send_within(tx: &tokio::sync::mpsc::Sender<Event>, mut event: Event, time: Duration) -> bool {
    let until = Instant::now() + time;
    loop {
        match tx.try_send(event) {
            Ok(()) => return true,
            Err(TrySendError::Closed(_)) => return false,
            Err(TrySendError::Full(back)) => {
                if Instant::now() >= until {
                    return false;
                }
                event = back;
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }
}

/// Listens where the arguments say: the port given (an error if taken),
/// or 8088, or any free port.
fn bind(args: &GuiArgs) -> Result<TcpListener, StartError> {
    let at = |port| TcpListener::bind(SocketAddr::new(args.bind, port));
    match args.port {
        Some(port) => at(port).map_err(|e| {
            StartError::Usage(format!(
                "cannot listen on {}:{port}: {e} (--port 0 takes any free port)",
                args.bind
            ))
        }),
        None => at(DEFAULT_PORT)
            .or_else(|_| at(0))
            .map_err(|e| StartError::Usage(format!("cannot listen on {}: {e}", args.bind))),
    }
}

/// The address to open: 127.0.0.1 for an app listening on every address.
fn page_url(addr: SocketAddr) -> String {
    let ip = if addr.ip().is_unspecified() {
        IpAddr::V4(Ipv4Addr::LOCALHOST)
    } else {
        addr.ip()
    };
    format!("http://{}/", SocketAddr::new(ip, addr.port()))
}

/// Opens `url` in the default browser, if there is one; any failure is
/// only a missed convenience (the address is printed).
fn open_browser(url: &str) {
    use std::process::{Command, Stdio};
    let command = if cfg!(target_os = "macos") {
        Some(Command::new("open").arg(url).spawn_quiet())
    } else if cfg!(windows) {
        Some(
            Command::new("cmd")
                .args(["/C", "start", "", url])
                .spawn_quiet(),
        )
    } else if std::env::var_os("DISPLAY").is_some() || std::env::var_os("WAYLAND_DISPLAY").is_some()
    {
        // Without a display xdg-open would start a text browser in this
        // terminal.
        Some(Command::new("xdg-open").arg(url).spawn_quiet())
    } else {
        None
    };
    trait Quiet {
        fn spawn_quiet(&mut self) -> std::io::Result<std::process::Child>;
    }
    impl Quiet for Command {
        fn spawn_quiet(&mut self) -> std::io::Result<std::process::Child> {
            self.stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
        }
    }
    if let Some(Ok(mut child)) = command {
        // Reap it when it ends, so that no zombie is left.
        std::thread::spawn(move || child.wait());
    }
}
